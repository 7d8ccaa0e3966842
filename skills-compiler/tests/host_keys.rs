//! The hosts' keys as they are today (issue 63): Claude Code's current
//! frontmatter keys with their values checked, Codex's `agents/openai.yaml`
//! checked as a file of the skill, and the budget listing what each host
//! lists.

mod support;

use skills_compiler::ops::budget::{Budget, Entry, Fate, Options, report};
use skills_compiler::{Code, Compilation, Config, Profile, Severity};
use support::{Tree, find, lenient, located, one};

fn errors(compilation: &Compilation) -> Vec<String> {
    compilation
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            format!(
                "{}:{:?}:{:?} {} {}",
                d.file,
                d.line(),
                d.column(),
                d.code,
                d.message
            )
        })
        .collect()
}

/// The skill of the issue: keys Claude Code's documentation gives today.
const CLAUDE_CODE_TODAY: &str = "---
name: a
description: Reviews a change. Use when asked to review.
when_to_use: When a pull request is ready.
argument-hint: '[pr-number]'
allowed-tools: Read Grep
model: sonnet
disallowed-tools: Bash(rm *)
disable-model-invocation: false
effort: high
shell: bash
paths:
  - src/**/*.rs
  - docs/*.md
context: fork
agent: Explore
background: true
---
Body
";

/// Every key Claude Code and Codex read, each with a value they take.
const EVERY_KEY: &str = "---
name: a
description: Reviews a change. Use when asked to review.
license: MIT
compatibility: Needs git.
metadata:
  short-description: Review changes
allowed-tools: Read
version: 2
when_to_use: When a pull request is ready.
argument-hint: '[pr-number]'
arguments:
  - pr
disable-model-invocation: false
user-invocable: true
disallowed-tools:
  - Write
model: claude-opus-4-5
effort: 3
shell: powershell
paths: src/**, tests/**
hooks:
  PreToolUse: []
context: fork
agent: general-purpose
background: false
fallback: sonnet
---
Body
";

#[test]
fn skills_written_for_the_hosts_today_pass_extended_with_no_error() {
    for text in [CLAUDE_CODE_TODAY, EVERY_KEY] {
        let compilation = one(text, &Config::default());
        assert_eq!(errors(&compilation), Vec::<String>::new(), "{text}");
        assert_eq!(compilation.valid.skills.len(), 1);
    }
    // A Codex skill: its frontmatter and its sidecar.
    let tree = Tree::new(&[
        (
            "skills/a/SKILL.md",
            b"---\nname: a\ndescription: Drafts release notes. Use when asked for notes.\nmetadata:\n  short-description: Release notes\n---\nBody\n",
        ),
        ("skills/a/assets/icon.png", b"\x89PNG"),
        ("skills/a/assets/logo.svg", b"<svg/>"),
        (
            "skills/a/agents/openai.yaml",
            b"interface:\n  display_name: \"Release notes\"\n  short_description: \"Drafts notes\"\n  icon_small: \"./assets/icon.png\"\n  icon_large: assets/logo.svg\n  brand_color: \"#1F6FEB\"\n  default_prompt: \"Use $a for v2\"\ndependencies:\n  tools:\n    - type: mcp\n      value: github\n      description: GitHub\n      transport: streamable_http\n      url: https://example.com/mcp\npolicy:\n  allow_implicit_invocation: true\n  products: [codex]\n",
        ),
    ]);
    let compilation = tree.compile(&Config::default());
    assert!(
        compilation.diagnostics.is_empty(),
        "{:#?}",
        located(&compilation)
    );
}

#[test]
fn each_bad_value_is_an_error_at_the_value_with_a_did_you_mean() {
    for (line, column, help) in [
        (
            "effort: extreme\n",
            9,
            "use one of `low`, `medium`, `high`, `max` or an integer",
        ),
        ("shell: zsh\n", 8, "use one of `bash`, `powershell`"),
        ("context: thread\n", 10, "use one of `inline`, `fork`"),
        ("context: forrk\n", 10, "did you mean `fork`?"),
        ("effort: hgh\n", 9, "did you mean `high`?"),
        ("model: sonet\n", 8, "did you mean `sonnet`?"),
        ("paths: \"src/[a\"\n", 8, "write a glob"),
        ("paths:\n  - ok/**\n  - \"{a\"\n", 0, "write a glob"),
    ] {
        let compilation = one(&support::with(line), &Config::default());
        let diagnostic = find(&compilation, Code::HostKeyValue);
        assert_eq!(diagnostic.severity, Severity::Error, "{line}");
        if column > 0 {
            assert_eq!(
                (diagnostic.line(), diagnostic.column()),
                (Some(4), Some(column)),
                "{line}"
            );
        }
        assert!(
            diagnostic
                .help
                .as_deref()
                .unwrap_or_default()
                .contains(help),
            "{line}: {:?}",
            diagnostic.help
        );
        assert!(compilation.valid.skills.is_empty(), "{line}");
        // `lenient` keeps the value, with a warning: a host may read it.
        let lenient = one(&support::with(line), &lenient());
        assert_eq!(
            find(&lenient, Code::HostKeyValue).severity,
            Severity::Warning
        );
        assert_eq!(lenient.valid.skills.len(), 1, "{line}");
    }
    // Of the wrong type: S208, at the value.
    let compilation = one(&support::with("background: \"yes\"\n"), &Config::default());
    assert_eq!(find(&compilation, Code::ClientExtra).column(), Some(13));
}

#[test]
fn host_keys_that_contradict_each_other_are_warnings_and_an_alias_gets_a_fix_it() {
    let compilation = one(
        &support::with("background: true\ncontext: inline\n"),
        &Config::default(),
    );
    let warning = find(&compilation, Code::HostKeysDisagree);
    assert_eq!(
        (warning.line(), warning.severity),
        (Some(4), Severity::Warning)
    );
    assert!(
        warning.message.contains("`context: fork`"),
        "{}",
        warning.message
    );

    let compilation = one(
        &support::with("allowed-tools: Read Bash\ndisallowed-tools: Bash Write\n"),
        &Config::default(),
    );
    let warning = find(&compilation, Code::HostKeysDisagree);
    assert_eq!(warning.line(), Some(5));
    assert!(warning.message.contains("`Bash`"), "{}", warning.message);

    // `disallowed-tools` is read as `allowed-tools` is: commas are W003.
    let compilation = one(
        &support::with("disallowed-tools: Bash, Write\n"),
        &Config::default(),
    );
    let commas = find(&compilation, Code::CommaSeparatedTools);
    assert!(
        commas
            .message
            .starts_with("`disallowed-tools` looks comma-separated"),
        "{}",
        commas.message
    );
    assert_eq!(
        commas.fix.as_ref().and_then(|f| f.replacement()),
        Some("Bash Write")
    );

    let compilation = one(
        &support::with("disallowedTools: Bash\n"),
        &Config::default(),
    );
    let alias = find(&compilation, Code::HostKeyAlias);
    assert_eq!(alias.severity, Severity::Warning);
    let fix = alias.fix.as_ref().expect("a fix-it");
    assert_eq!(fix.replacement(), Some("disallowed-tools"));
    assert_eq!(compilation.valid.skills.len(), 1);
    // The alias is read like the documented key: its value is checked.
    let compilation = one(&support::with("disallowedTools: 3\n"), &Config::default());
    assert_eq!(find(&compilation, Code::ClientExtra).line(), Some(4));

    // Codex reads at most 1,024 characters of `metadata.short-description`.
    let long = "x".repeat(1025);
    let compilation = one(
        &support::with(&format!("metadata:\n  short-description: {long}\n")),
        &support::portable(),
    );
    assert_eq!(find(&compilation, Code::HostKeyValue).line(), Some(5));
}

#[test]
fn every_host_key_is_offered_by_the_editor_schema_with_its_values() {
    let schema = skills_compiler::emit::editor_schema::frontmatter(Profile::Extended);
    let properties = schema["properties"].as_object().unwrap();
    assert_eq!(
        properties["effort"]["anyOf"][0]["enum"],
        serde_json::json!(["low", "medium", "high", "max"])
    );
    assert_eq!(
        properties["shell"]["enum"],
        serde_json::json!(["bash", "powershell"])
    );
    assert_eq!(
        properties["context"]["enum"],
        serde_json::json!(["inline", "fork"])
    );
    for key in [
        "disallowed-tools",
        "paths",
        "background",
        "arguments",
        "fallback",
    ] {
        assert!(properties.contains_key(key), "{key}");
    }
    let explained = skills_compiler::keys::explain();
    let effort = explained
        .lines()
        .find(|line| line.trim_start().starts_with("effort "))
        .expect("a line for `effort`");
    assert!(effort.contains("Claude Code"), "{effort}");
}

/// A skill `a` with `openai` as its `agents/openai.yaml`, and an icon.
fn codex(openai: &str) -> Compilation {
    Tree::new(&[
        ("skills/a/SKILL.md", support::with("").as_bytes()),
        ("skills/a/assets/icon.png", b"\x89PNG"),
        ("skills/a/icon.png", b"\x89PNG"),
        ("skills/a/agents/openai.yaml", openai.as_bytes()),
    ])
    .compile(&Config::default())
}

#[test]
fn agents_openai_yaml_is_checked_as_a_file_of_the_skill() {
    const FILE: &str = "skills/a/agents/openai.yaml";
    for (text, code, line, column, says) in [
        (
            "interfce:\n  display_name: A\n",
            Code::UnknownKey,
            1,
            1,
            "did you mean `interface`?",
        ),
        (
            "interface:\n  colour: red\n",
            Code::UnknownKey,
            2,
            3,
            "brand_color",
        ),
        (
            "interface:\n  brand_color: \"#12345\"\n",
            Code::CodexSidecar,
            2,
            16,
            "#RRGGBB",
        ),
        (
            "interface:\n  icon_small: icon.png\n",
            Code::CodexSidecar,
            2,
            15,
            "not under `assets/`",
        ),
        (
            "interface:\n  icon_large: assets/none.png\n",
            Code::CodexSidecar,
            2,
            15,
            "no file of the skill",
        ),
        (
            "interface:\n  icon_large: ../assets/icon.png\n",
            Code::CodexSidecar,
            2,
            15,
            "not a relative path inside",
        ),
        (
            "policy:\n  allow_implicit_invocation: \"no\"\n",
            Code::CodexSidecar,
            2,
            30,
            "`true` or `false`",
        ),
        (
            "policy: [a]\n",
            Code::CodexSidecar,
            1,
            9,
            "must be a mapping",
        ),
        (
            "dependencies:\n  tools:\n    - type: mcp\n      port: 1\n",
            Code::UnknownKey,
            4,
            7,
            "transport",
        ),
        ("interface: {\n", Code::YamlSyntax, 0, 0, ""),
    ] {
        let compilation = codex(text);
        let diagnostic = find(&compilation, code);
        assert_eq!(diagnostic.file, FILE, "{text}");
        if line > 0 {
            assert_eq!(
                (diagnostic.line(), diagnostic.column()),
                (Some(line), Some(column)),
                "{text}"
            );
        }
        let said = format!(
            "{} {}",
            diagnostic.message,
            diagnostic.help.as_deref().unwrap_or_default()
        );
        assert!(said.contains(says), "{text}: {said}");
        assert!(compilation.has_errors(), "{text}");
    }
}

#[test]
fn the_budget_lists_what_each_host_lists() {
    let tree = Tree::new(&[
        (
            "skills/quiet/SKILL.md",
            b"---\nname: quiet\ndescription: Runs quietly. Use when asked.\n---\nBody\n",
        ),
        (
            "skills/quiet/agents/openai.yaml",
            b"policy:\n  allow_implicit_invocation: false\n",
        ),
        (
            "skills/user/SKILL.md",
            b"---\nname: user\ndescription: Only for people. Use when typed.\ndisable-model-invocation: true\n---\nBody\n",
        ),
        (
            "skills/when/SKILL.md",
            b"---\nname: when\ndescription: Reviews changes.\nwhen_to_use: Use when a pull request is ready.\n---\nBody\n",
        ),
    ]);
    let compilation = tree.compile(&Config::default());
    assert!(!compilation.has_errors(), "{:#?}", located(&compilation));
    let skills = &compilation.valid.skills;
    let entries: Vec<Entry<'_>> = skills.iter().map(|s| Entry::from(&**s)).collect();
    let options = Options {
        builtins: false,
        ..Options::default()
    };
    let fate = |budget: Budget, name: &str| {
        let report = report(budget, &entries, &options);
        let at = entries.iter().position(|e| e.name == name).unwrap();
        report
            .lines
            .iter()
            .find(|l| l.entry == Some(at))
            .unwrap()
            .fate
    };
    // Codex leaves out what its policy keeps from implicit use; Claude
    // Code what `disable-model-invocation` hides, and not the other.
    assert_eq!(fate(Budget::Codex, "quiet"), Fate::Hidden);
    assert_ne!(fate(Budget::Codex, "user"), Fate::Hidden);
    assert_ne!(fate(Budget::ClaudeCode, "quiet"), Fate::Hidden);
    assert_eq!(fate(Budget::ClaudeCode, "user"), Fate::Hidden);
    let codex = report(Budget::Codex, &entries, &options);
    assert!(
        codex.summary().contains("policy.allow_implicit_invocation"),
        "{}",
        codex.summary()
    );
    // Claude Code lists `description - when_to_use`, cut at 1,536 characters.
    let when = entries.iter().find(|e| e.name == "when").unwrap();
    assert_eq!(
        skills_compiler::ops::budget::entry_text(Budget::ClaudeCode, when),
        "- when: Reviews changes. - Use when a pull request is ready.\n"
    );
    let long = Entry {
        when_to_use: Some("w".repeat(2000).into()),
        ..when.clone()
    };
    let text = skills_compiler::ops::budget::entry_text(Budget::ClaudeCode, &long);
    assert_eq!(text.chars().count(), "- when: ".len() + 1536 + 1);
    assert!(text.ends_with("…\n"));
}
