//! Every command as a user runs it: output (insta snapshots), exit codes,
//! and machine formats parsed back field by field.

mod support;

use assert_cmd::Command;
use std::path::PathBuf;

use support::{cargo_skills_in, workspace};

fn cargo_skills() -> Command {
    cargo_skills_in(&workspace())
}

fn stdout(command: &mut Command, code: i32) -> String {
    let output = command.assert().code(code).get_output().clone();
    String::from_utf8(output.stdout).unwrap()
}

fn stderr(command: &mut Command, code: i32) -> String {
    let output = command.assert().code(code).get_output().clone();
    String::from_utf8(output.stderr).unwrap()
}

const BROKEN: &str = "skills-compiler/tests/fixtures/broken";
const EXAMPLE: &str = "examples/issue-tracker/skills";

#[test]
fn the_readme_main_command_checks_the_bundled_example() {
    assert_eq!(
        stderr(cargo_skills().args(["check", EXAMPLE]), 0),
        "ok: 3 skills valid, 0 warnings\n"
    );
}

#[test]
fn check_without_path_finds_the_workspace_packages_with_skills() {
    // issue-tracker configures its `dir`; issue-agent keeps its skills at the default `skills`;
    // issue-tracker-build compiles issue-tracker's root from its build script (checked once);
    // skill-host keeps two built-in skills at the default `skills`.
    // The tests package names its roots only through variables, skills-mcp
    // is a library that serves any set, and anthropic-agent uses
    // issue-agent's skills: none has a root of its own, and while other
    // packages have skills that is no news (issue 24, item 6).
    assert_eq!(
        stderr(cargo_skills().args(["check"]), 0),
        "ok: 7 skills valid, 0 warnings\n"
    );
    assert_eq!(
        stderr(cargo_skills().args(["check", "--workspace"]), 0),
        "ok: 7 skills valid, 0 warnings\n"
    );
    assert_eq!(
        stderr(cargo_skills().args(["check", "-p", "issue-agent"]), 0),
        "ok: 2 skills valid, 0 warnings\n"
    );
    assert_eq!(
        stderr(cargo_skills().args(["check", "-p", "issue-tracker"]), 0),
        "ok: 3 skills valid, 0 warnings\n"
    );
    let error = stderr(cargo_skills().args(["check", "-p", "no-such-package"]), 2);
    assert_eq!(
        error,
        "error: package `no-such-package` is not in this workspace\n"
    );
}

#[test]
fn works_as_a_cargo_subcommand_too() {
    let text = stderr(
        cargo_skills().args([
            "skills",
            "check",
            "examples/issue-tracker/skills/github-issues",
        ]),
        0,
    );
    assert_eq!(text, "ok: 1 skill valid, 0 warnings\n");
}

#[test]
fn check_human_and_short_output() {
    insta::assert_snapshot!(
        "check_short",
        stderr(
            cargo_skills().args(["check", BROKEN, "--message-format", "short"]),
            1
        )
    );
    insta::assert_snapshot!(
        "check_human",
        stderr(
            cargo_skills().args(["check", &format!("{BROKEN}/unquoted-colon")]),
            1
        )
    );
}

#[test]
fn check_json_parses_back_field_by_field() {
    let text = stdout(
        cargo_skills().args([
            "check",
            &format!("{BROKEN}/unknown-keys"),
            "--message-format",
            "json",
        ]),
        1,
    );
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (summary, diagnostics) = lines.split_last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        (
            summary["valid"].as_bool(),
            summary["errors"].as_u64(),
            summary["warnings"].as_u64()
        ),
        // The missing `description` is said by the typo's error, not apart.
        (Some(false), Some(5), Some(0))
    );
    let first = &diagnostics[0];
    assert_eq!(first["severity"], "error");
    assert_eq!(first["code"], "S112");
    assert_eq!(
        first["message"],
        "unknown key `descripton` in the frontmatter; `description` is required, so it is missing until this key is renamed"
    );
    assert_eq!(first["file"], format!("{BROKEN}/unknown-keys/SKILL.md"));
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(
        (first["end_line"].as_u64(), first["end_column"].as_u64()),
        (Some(3), Some(11))
    );
    assert_eq!(first["help"], "did you mean `description`?");
    assert_eq!(first["fix"]["replacement"], "description");
    assert!(first["rendered"].as_str().unwrap().contains("error[S112]"));
    for diagnostic in diagnostics {
        for field in [
            "severity",
            "code",
            "message",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
        ] {
            assert!(
                diagnostic.get(field).is_some(),
                "{field} missing in {diagnostic}"
            );
        }
    }
}

#[test]
fn check_github_annotations_parse_back_field_by_field() {
    let text = stdout(
        cargo_skills().args([
            "check",
            &format!("{BROKEN}/unknown-keys"),
            "--message-format",
            "github",
        ]),
        1,
    );
    let line = text.lines().next().unwrap();
    let (head, message) = line
        .strip_prefix("::error ")
        .unwrap()
        .split_once("::")
        .unwrap();
    let fields: std::collections::BTreeMap<&str, &str> = head
        .split(',')
        .map(|kv| kv.split_once('=').unwrap())
        .collect();
    assert_eq!(fields["file"], format!("{BROKEN}/unknown-keys/SKILL.md"));
    assert_eq!(
        (
            fields["line"],
            fields["col"],
            fields["endLine"],
            fields["endColumn"]
        ),
        ("3", "1", "3", "11")
    );
    assert_eq!(fields["title"], "S112");
    assert_eq!(
        message,
        "unknown key `descripton` in the frontmatter; `description` is required, so it is missing until this key is renamed%0Ahelp: did you mean `description`?"
    );
}

#[test]
fn profiles_and_deny_warnings_change_the_verdict() {
    let skill = format!("{BROKEN}/name-mismatch");
    cargo_skills().args(["check", &skill]).assert().code(1);
    cargo_skills()
        .args(["check", &skill, "--profile", "lenient"])
        .assert()
        .success();
    cargo_skills()
        .args(["check", &skill, "--profile", "lenient", "-D", "warnings"])
        .assert()
        .code(1);
}

#[test]
fn check_over_the_corpus_in_each_profile() {
    let corpus = workspace().join("../shared/corpus-dirs/anthropics-skills");
    if !corpus.is_dir() {
        eprintln!(
            "skipped: the corpus is not at {} (a fresh clone has no ../shared)",
            corpus.display()
        );
        return;
    }
    for profile in ["portable", "extended", "lenient"] {
        // `extended` and `lenient` load claude-api's 1,068-character
        // description as the hosts do (a warning), and then lint its body;
        // `portable` refuses it (issue 40, item 7).
        let (code, expected) = match profile {
            "portable" => (
                1,
                "skills/claude-api/SKILL.md:4:3: error[S108]: the description is 1068 characters long; the specification's limit is 1024\n\
                 skills/skill-creator/SKILL.md:314:1: warning[W010]: the body is 480 lines and about 8,157 tokens; the Agent Skills client guide recommends under 500 lines and 5,000 tokens\n\
                 skills/webapp-testing/SKILL.md:3:14: warning[W008]: the description says what the skill does but never when to use it\n\
                 failed: 12 skills checked, 11 valid, 1 with errors, 2 with warnings; 1 error, 2 warnings\n",
            ),
            _ => (
                0,
                "skills/claude-api/SKILL.md:4:3: warning[S108]: the description is 1068 characters long; the specification's limit is 1024\n\
                 skills/claude-api/SKILL.md:209:1: warning[W010]: the body is 569 lines and about 18,036 tokens; the Agent Skills client guide recommends under 500 lines and 5,000 tokens\n\
                 skills/skill-creator/SKILL.md:314:1: warning[W010]: the body is 480 lines and about 8,157 tokens; the Agent Skills client guide recommends under 500 lines and 5,000 tokens\n\
                 skills/webapp-testing/SKILL.md:3:14: warning[W008]: the description says what the skill does but never when to use it\n\
                 ok: 12 skills valid, 4 warnings\n",
            ),
        };
        let text = stderr(
            cargo_skills_in(&corpus).args([
                "check",
                "skills",
                "--profile",
                profile,
                "--message-format",
                "short",
            ]),
            code,
        );
        assert_eq!(text, expected, "{profile}");
        let (code, expected) = match profile {
            "lenient" => (
                0,
                "template/SKILL.md:2:7: warning[S106]: the skill name `template-skill` does not match its directory `template`\n\
                 template/SKILL.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
                 ok: 1 skill valid, 2 warnings\n",
            ),
            _ => (
                1,
                "template/SKILL.md:2:7: error[S106]: the skill name `template-skill` does not match its directory `template`\nfailed: 1 skill checked, 0 valid, 1 with errors, 0 with warnings; 1 error, 0 warnings\n",
            ),
        };
        assert_eq!(
            stderr(
                cargo_skills_in(&corpus).args([
                    "check",
                    "template",
                    "--profile",
                    profile,
                    "--message-format",
                    "short"
                ]),
                code
            ),
            expected
        );
    }
}

#[test]
fn colour_only_when_asked() {
    let skill = format!("{BROKEN}/unquoted-colon");
    let plain = stderr(cargo_skills().args(["check", &skill]), 1);
    assert!(!plain.contains('\x1b'));
    let mut forced = Command::cargo_bin("cargo-skills").unwrap();
    forced
        .current_dir(workspace())
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .args(["check", &skill]);
    assert!(stderr(&mut forced, 1).contains("\x1b["));
    let mut not_a_terminal = Command::cargo_bin("cargo-skills").unwrap();
    not_a_terminal
        .current_dir(workspace())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .args(["check", &skill]);
    assert!(!stderr(&mut not_a_terminal, 1).contains('\x1b'));
}

#[test]
fn list_show_catalog_and_tools() {
    insta::assert_snapshot!("list_table", stdout(cargo_skills().args(["list"]), 0));
    let list: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["list", "--format", "json"]),
        0,
    ))
    .unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "code-review",
            "github-issues",
            "issue-triage",
            "release-notes",
            "tracker",
            "triage-protocol",
            "writing-style"
        ]
    );
    let entry = |name: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(entry("triage-protocol")["kind"], "protocol");
    assert_eq!(entry("github-issues")["tools"], 3);
    assert_eq!(entry("tracker")["tools"], 6);
    insta::assert_snapshot!(
        "show",
        stdout(cargo_skills().args(["show", "github-issues"]), 0)
    );
    insta::assert_snapshot!(
        "show_rendered",
        stdout(
            cargo_skills().args(["show", "triage-protocol", "--rendered"]),
            0
        )
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["show", "github-issues", "--json"]),
        0,
    ))
    .unwrap();
    assert_eq!(json["tools"][2]["policy"], "confirm");
    assert_eq!(json["tools"][2]["method"], "DELETE");
    assert_eq!(json["tools"][2]["destructive"], true);
    assert_eq!(json["tools"][2]["x-openai-isConsequential"], true);
    assert_eq!(json["tools"][0]["x-openai-isConsequential"], false);
    assert_eq!(json["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(
        stderr(cargo_skills().args(["show", "github-issue"]), 2),
        "error: no skill named `github-issue`; did you mean `github-issues`?\n"
    );

    insta::assert_snapshot!("catalog_text", stdout(cargo_skills().args(["catalog"]), 0));
    insta::assert_snapshot!(
        "catalog_xml",
        stdout(cargo_skills().args(["catalog", "--format", "xml"]), 0)
    );
    let catalog: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["catalog", "--format", "json"]),
        0,
    ))
    .unwrap();
    assert_eq!(catalog.as_array().unwrap().len(), 7);

    for (format, key) in [("anthropic", "input_schema"), ("mcp", "inputSchema")] {
        let tools: serde_json::Value = serde_json::from_str(&stdout(
            cargo_skills().args(["tools", "github-issues", "--format", format]),
            0,
        ))
        .unwrap();
        assert_eq!(tools[0]["name"], "list_issues", "{format}");
        assert_eq!(tools[0][key]["type"], "object", "{format}");
    }
    let openai: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["tools", "github-issues", "--format", "openai"]),
        0,
    ))
    .unwrap();
    assert_eq!(openai[1]["function"]["name"], "create_issue");
    // The same definitions a compiled binary sends (`skills::tables::definitions`),
    // with only the keys the API documents (no GPT Actions extension).
    assert!(
        openai[2]["function"]
            .get("x-openai-isConsequential")
            .is_none()
    );
    let strict: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["tools", "github-issues", "--format", "openai-strict"]),
        0,
    ))
    .unwrap();
    assert_eq!(strict[2]["function"]["strict"], true);
    let mcp: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["tools", "github-issues", "--format", "mcp"]),
        0,
    ))
    .unwrap();
    assert_eq!(mcp[2]["annotations"]["destructiveHint"], true);
    assert_eq!(mcp[0]["annotations"]["idempotentHint"], true);
    assert_eq!(mcp[1]["annotations"]["idempotentHint"], false);
    // A denied tool is not offered to a model: left out, and said so.
    let output = cargo_skills()
        .args(["tools", "tracker", "--format", "anthropic"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let tools: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"delete_issue") && !names.contains(&"lock_issue"),
        "{names:?}"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "note: `lock_issue` is left out: its skill's permissions deny it (a write not in `allow_write`)\n"
    );
}

#[test]
fn inspecting_invalid_skills_reports_them_and_exits_1() {
    let text = stderr(cargo_skills().args(["list", &format!("{BROKEN}/tags")]), 1);
    assert!(text.contains("error[S009]"), "{text}");
}

#[test]
fn expand_prints_the_generated_rust() {
    let text = stdout(cargo_skills().args(["expand", EXAMPLE]), 0);
    assert!(
        text.starts_with("#[doc(hidden)]\n#[allow(unused_imports)]\nuse ::skills::__private as __skills_runtime;\n/// Every skill, sorted by name.\n#[allow(dead_code)]\npub static SKILLS: __skills_runtime::SkillSet"),
        "{}",
        &text[..200]
    );
    // The runtime's `tool_call!` writes the enum.
    assert!(text.contains("__p::tool_call! {"));
    syn_check(&text);
    let renamed = stdout(
        cargo_skills().args(["expand", EXAMPLE, "--crate-path", "::agent_runtime"]),
        0,
    );
    assert!(renamed.contains("use ::agent_runtime::__private as __skills_runtime;"));
}

/// The output is Rust: it has balanced delimiters and the items we expect.
fn syn_check(text: &str) {
    let opens = text.matches('{').count();
    assert_eq!(opens, text.matches('}').count());
    assert!(text.contains("pub mod github_issues {"));
}

#[test]
fn schema_for_editors() {
    let schema: serde_json::Value =
        serde_json::from_str(&stdout(cargo_skills().args(["schema"]), 0)).unwrap();
    assert_eq!(
        schema["required"],
        serde_json::json!(["name", "description"])
    );
    assert!(schema["properties"]["tools"].is_object());
    assert!(schema["properties"]["on_blocked"].is_object());
    let portable: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills().args(["schema", "--profile", "portable"]),
        0,
    ))
    .unwrap();
    assert_eq!(portable["additionalProperties"], false);
    assert!(portable["properties"].get("tools").is_none());
    assert_eq!(portable["properties"].as_object().unwrap().len(), 6);
    let tools: serde_json::Value =
        serde_json::from_str(&stdout(cargo_skills().args(["schema", "--tools-yaml"]), 0)).unwrap();
    assert_eq!(
        tools["properties"]["tools"]["items"]["$ref"],
        "#/$defs/tool"
    );
}

#[test]
fn explain_prints_the_long_form() {
    insta::assert_snapshot!(
        "explain_s007",
        stdout(cargo_skills().args(["explain", "s007"]), 0)
    );
}

/// Every code of a skill's files and links has its long form.
#[test]
fn explain_covers_the_file_and_link_codes() {
    for code in [
        "S512", "S513", "S514", "S515", "S516", "S517", "W013", "W014", "W015", "W016", "W017",
    ] {
        let text = stdout(cargo_skills().args(["explain", code]), 0);
        assert!(
            text.starts_with(&format!("{code}: ")) && text.contains("Fix: "),
            "{text}"
        );
    }
    insta::assert_snapshot!(
        "explain_s516",
        stdout(cargo_skills().args(["explain", "S516"]), 0)
    );
}

/// `show --files`: each file with its size, digest and execute bit, and
/// what was left out and why, as text and as JSON.
#[test]
fn show_files_lists_each_file_and_each_skip() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-files");
    let _ = std::fs::remove_dir_all(&dir);
    let copy = |from: &str, to: &str| {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(
            workspace().join("tests/fixtures/files/forms").join(from),
            to,
        )
        .unwrap();
    };
    for file in [
        "SKILL.md",
        "assets/stamp.png",
        "references/check list.md",
        "references/fields.md",
        "scripts/fill.py",
    ] {
        copy(file, &format!("forms/{file}"));
    }
    std::fs::create_dir_all(dir.join("forms/node_modules/x")).unwrap();
    std::fs::write(dir.join("forms/node_modules/x/i.js"), "x").unwrap();
    std::fs::write(dir.join("forms/.DS_Store"), "x").unwrap();
    let text = stdout(
        cargo_skills().args(["show", "forms", "--files"]).arg(&dir),
        0,
    );
    insta::assert_snapshot!("show_files", text);
    let json: serde_json::Value = serde_json::from_str(&stdout(
        cargo_skills()
            .args(["show", "forms", "--files", "--format", "json"])
            .arg(&dir),
        0,
    ))
    .unwrap();
    let fill = &json["files"][3];
    assert_eq!(fill["path"], "scripts/fill.py");
    assert_eq!(fill["executable"], cfg!(unix));
    assert_eq!(fill["size"], 90);
    assert_eq!(
        json["skipped"],
        serde_json::json!([
            {"path": ".DS_Store", "reason": "hidden (its name starts with `.`)"},
            {"path": "node_modules/", "reason": "excluded by `node_modules`"},
        ])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A key is explained from its one declaration: what it says, which
/// profiles take it, its schema (issue 41, item 1).
#[test]
fn explain_names_a_key_or_a_nested_key() {
    let description = stdout(cargo_skills().args(["explain", "description"]), 0);
    assert!(
        description.starts_with(
            "`description`: the Agent Skills specification (every profile), required\n\nWhat the skill does"
        ),
        "{description}"
    );
    assert!(description.contains("\"maxLength\":1024"), "{description}");
    let url = stdout(cargo_skills().args(["explain", "endpoint.url"]), 0);
    assert!(
        url.starts_with("`url`: a key of endpoint, required\n\n"),
        "{url}"
    );
    let hooks = stdout(cargo_skills().args(["explain", "hooks"]), 0);
    assert!(
        hooks.starts_with("`hooks`: another client's key"),
        "{hooks}"
    );
    stderr(cargo_skills().args(["explain", "endpoint.nope"]), 2);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        stderr(cargo_skills().args(["explain", "S999"]), 2),
        "error: `S999` is not a diagnostic code (they look like S101 or W003), a key (`description`, `tool.endpoint`), nor `keys`\n"
    );
    cargo_skills()
        .args(["check", "--profile", "strict"])
        .assert()
        .code(2);
    cargo_skills()
        .args(["check", "-D", "unused"])
        .assert()
        .code(2);
    cargo_skills().args(["frobnicate"]).assert().code(2);
    cargo_skills().args(["tools"]).assert().code(2);
}

#[test]
fn skills_ref_validate() {
    let good = "examples/issue-tracker/skills/writing-style";
    assert_eq!(
        stdout(cargo_skills().args(["validate", good]), 0),
        format!("Valid skill: {good}\n")
    );
    assert_eq!(
        stdout(
            cargo_skills().args(["validate", &format!("{good}/SKILL.md")]),
            0
        ),
        format!("Valid skill: {good}\n")
    );
    // The example's other skills use extensions: not portable, unless the profile says so.
    let extended = "examples/issue-tracker/skills/github-issues";
    let text = stderr(cargo_skills().args(["validate", extended]), 1);
    insta::assert_snapshot!("validate_failure", text);
    assert!(
        text.starts_with(&format!("Validation failed for {extended}:\n  - ")),
        "{text}"
    );
    assert!(
        text.lines().skip(1).all(|line| line.starts_with("  - ")),
        "{text}"
    );
    cargo_skills()
        .args(["validate", extended, "--profile", "extended"])
        .assert()
        .success();
    // `validate .` works: the directory's own name is the one `name` must match.
    let dir = workspace().join(good);
    assert_eq!(
        stdout(cargo_skills_in(&dir).args(["validate", "."]), 0),
        "Valid skill: .\n"
    );
    assert_eq!(
        stderr(cargo_skills().args(["validate", "nowhere"]), 2),
        "error: Path 'nowhere' does not exist.\n"
    );
}

#[test]
fn a_directory_without_skill_md_is_not_a_valid_skill() {
    // The reference validator fails it; so must we, naming the missing file.
    let dir = "examples/issue-tracker/src";
    let text = stderr(cargo_skills().args(["validate", dir]), 1);
    assert!(
        text.starts_with(&format!("Validation failed for {dir}:\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("missing required file: `{dir}/SKILL.md`")),
        "{text}"
    );
    for command in ["read-properties", "to-prompt"] {
        let text = stderr(cargo_skills().args([command, dir]), 1);
        assert!(text.contains("SKILL.md"), "{command}: {text}");
    }
}

#[test]
fn skills_ref_read_properties_and_to_prompt() {
    let good = "examples/issue-tracker/skills/writing-style";
    let properties: serde_json::Value =
        serde_json::from_str(&stdout(cargo_skills().args(["read-properties", good]), 0)).unwrap();
    assert_eq!(
        properties,
        serde_json::json!({
            "name": "writing-style",
            "description": "House style for issue titles and comments. Use when writing or editing text that others will read in the tracker.",
            "license": "MIT",
            "metadata": {"owner": "docs-team", "version": "1.0"},
        })
    );
    let xml = stdout(cargo_skills().args(["to-prompt", good]), 0);
    let location = workspace()
        .join(good)
        .canonicalize()
        .unwrap()
        .join("SKILL.md");
    assert_eq!(
        xml,
        format!(
            "<available_skills>\n<skill>\n<name>\nwriting-style\n</name>\n<description>\nHouse style for issue titles and comments. Use when writing or editing text that others will read in the tracker.\n</description>\n<location>\n{}\n</location>\n</skill>\n</available_skills>\n",
            location.display()
        )
    );
    let text = stderr(
        cargo_skills().args(["read-properties", &format!("{BROKEN}/tags")]),
        1,
    );
    assert!(text.starts_with("Error: "), "{text}");
}

#[test]
fn rustc_json_is_what_cargo_and_editors_parse() {
    let text = stdout(
        cargo_skills().args(["check", BROKEN, "--message-format", "rustc-json"]),
        1,
    );
    let diagnostics: Vec<cargo_metadata::diagnostic::Diagnostic> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert_eq!(diagnostics.len(), 37);
    let colon = diagnostics
        .iter()
        .find(|d| d.code.as_ref().is_some_and(|c| c.code == "S007"))
        .unwrap();
    assert_eq!(
        colon.level,
        cargo_metadata::diagnostic::DiagnosticLevel::Error
    );
    let primary = &colon.spans[0];
    assert!(primary.is_primary);
    assert_eq!((primary.line_start, primary.column_start), (3, 39));
    assert!(primary.file_name.ends_with("unquoted-colon/SKILL.md"));
    assert_eq!(
        primary.text[0].text,
        "description: Deploys the app. Use when: the user says \"ship it\""
    );
    let fix = &colon.children.last().unwrap().spans[0];
    assert_eq!(
        fix.suggested_replacement.as_deref(),
        Some("description: \"Deploys the app. Use when: the user says \\\"ship it\\\"\"")
    );
    assert!(colon.rendered.as_deref().unwrap().contains("error[S007]"));
    // Whole-file problems still point somewhere an editor can show.
    let utf8 = diagnostics
        .iter()
        .find(|d| d.code.as_ref().is_some_and(|c| c.code == "S001"))
        .unwrap();
    assert_eq!(utf8.spans[0].line_start, 3);
}

/// A workspace in a temporary directory: `files` (path, text), removed when dropped.
struct TempWorkspace(PathBuf);

impl TempWorkspace {
    fn new(name: &str, files: &[(&str, &str)]) -> TempWorkspace {
        let dir = std::env::temp_dir().join(format!("cargo-skills-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let full = dir.join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        TempWorkspace(dir)
    }
}

impl Drop for TempWorkspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const TAGGED: &str = "---\nname: tagged\ndescription: Uses an extension.\ntags: [x]\n---\nBody.\n";

/// A skill that ships a helper crate in its own directory is still built,
/// and so checked, by the package whose skills root holds it.
#[test]
fn check_path_of_a_skill_that_is_a_crate_uses_the_package_that_builds_it() {
    let ws = TempWorkspace::new(
        "helper",
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"strict\"\nversion = \"0.1.0\"\n\n[package.metadata.skills]\nprofile = \"portable\"\n",
            ),
            ("src/lib.rs", ""),
            ("skills/tagged/SKILL.md", TAGGED),
            (
                "skills/tagged/Cargo.toml",
                "[package]\nname = \"tagged-helper\"\nversion = \"0.1.0\"\n",
            ),
            ("skills/tagged/src/main.rs", "fn main() {}\n"),
        ],
    );
    let text = stderr(cargo_skills_in(&ws.0).args(["check", "skills/tagged"]), 1);
    assert!(
        text.contains("skills/tagged/SKILL.md:4:1") && text.contains("portable"),
        "{text}"
    );
}

#[test]
fn check_path_uses_the_configuration_of_the_package_that_owns_it() {
    let skills = workspace().join("skills").canonicalize().unwrap();
    let dependency = format!(
        "skills-runtime = {{ path = {:?} }}",
        skills.display().to_string()
    );
    let ws = TempWorkspace::new(
        "owner",
        &[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"strict\", \"loose\"]\nresolver = \"3\"\n",
            ),
            (
                "strict/Cargo.toml",
                "[package]\nname = \"strict\"\nversion = \"0.1.0\"\n\n[package.metadata.skills]\nprofile = \"portable\"\n",
            ),
            ("strict/src/lib.rs", ""),
            ("strict/skills/tagged/SKILL.md", TAGGED),
            (
                "loose/Cargo.toml",
                &format!(
                    "[package]\nname = \"loose\"\nversion = \"0.1.0\"\n\n[dependencies]\n{dependency}\n"
                ),
            ),
            (
                "loose/src/lib.rs",
                "mod agent {\n    skills::include_skills!(\"agent-skills\");\n}\n",
            ),
            (
                "loose/agent-skills/tagged/SKILL.md",
                &TAGGED.replace("tags: [x]", "tags: [x]\nversion: -1"),
            ),
        ],
    );
    // From the workspace root and from the other package, `strict`'s skills are portable.
    for dir in [ws.0.clone(), ws.0.join("loose")] {
        let path = if dir == ws.0 {
            "strict/skills"
        } else {
            "../strict/skills"
        };
        let text = stderr(cargo_skills_in(&dir).args(["check", path]), 1);
        assert!(
            text.contains("tagged/SKILL.md:4:1") && text.contains("portable"),
            "{text}"
        );
    }
    // `loose` names its root only in `include_skills!`: the workspace check finds it.
    let text = stderr(cargo_skills_in(&ws.0).args(["check"]), 1);
    assert!(
        text.contains("loose/agent-skills/tagged/SKILL.md"),
        "{text}"
    );
    assert!(text.contains("strict/skills/tagged/SKILL.md"), "{text}");
}

/// A key or a directory name that holds a line break, an escape or a
/// text-direction character is printed escaped in every text format: raw,
/// `x\n::warning title=...::` would be a line of its own, which GitHub's
/// runner executes as a workflow command, and ESC would drive the terminal.
#[test]
fn control_characters_from_skill_files_never_reach_the_output_raw() {
    let ws = TempWorkspace::new(
        "control",
        &[
            (
                "skills/a/SKILL.md",
                "---\nname: a\ndescription: Does a. Use when testing.\n\"x\\n::warning title=pwn::owned\\e[31m\\u202e\": 1\n---\nBody\n",
            ),
            ("skills/b\u{1b}[2J\u{202e}/README.txt", "no skill here"),
        ],
    );
    for format in ["short", "human", "github"] {
        let output = cargo_skills()
            .current_dir(&ws.0)
            .args(["check", "skills", "--message-format", format])
            .assert()
            .code(1)
            .get_output()
            .clone();
        let text =
            String::from_utf8(output.stdout).unwrap() + &String::from_utf8(output.stderr).unwrap();
        assert!(
            !text.contains('\u{1b}'),
            "{format}: ESC reached the output: {text:?}"
        );
        assert!(
            !text.contains('\u{202e}'),
            "{format}: U+202E reached the output: {text:?}"
        );
        assert!(
            !text
                .lines()
                .any(|line| line.starts_with("::warning title=pwn")),
            "{format}: a workflow command: {text}"
        );
        assert!(
            text.contains("\\u{a}::warning title=pwn::owned\\u{1b}[31m\\u{202e}"),
            "{format}: {text}"
        );
    }
}

/// `--message-format sarif` is one SARIF 2.1.0 log that the OASIS schema
/// accepts, with the code registry as rules and fix-its as fixes, which
/// GitHub code scanning reads (issue 24, item 6).
#[test]
fn sarif_output_is_valid_sarif_with_rules_and_fixes() {
    let text = stdout(
        cargo_skills().args(["check", BROKEN, "--message-format", "sarif"]),
        1,
    );
    let log: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = support::sarif_schema();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The schema bites: a log of another version, or a result without its
    // message, is refused.
    let mut other = log.clone();
    other["version"] = serde_json::json!("2.0.0");
    assert!(!validator.is_valid(&other));
    let mut bare = log.clone();
    bare["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&bare));
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), skills_compiler::Code::ALL.len());
    let results = run["results"].as_array().unwrap();
    // The same diagnostics as the rustc-json form.
    assert_eq!(results.len(), 37);
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
    let colon = results.iter().find(|r| r["ruleId"] == "S007").unwrap();
    let replacement = &colon["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert!(
        replacement["insertedContent"]["text"]
            .as_str()
            .unwrap()
            .contains("\"")
    );
    assert_eq!(replacement["deletedRegion"]["startLine"], 3);
}

/// Issue 40, item 3: a profile given to `include_skills!` was not seen by
/// `cargo skills check`, `show` or `budget`, so the build failed while CI
/// passed (or the other way). The CLI reads the call's options through the
/// macro's own reader, and checks the root with them.
#[test]
fn the_cli_checks_a_root_with_the_options_the_macro_gives_it() {
    let skills = workspace().join("skills").canonicalize().unwrap();
    let dependency = format!(
        "skills-runtime = {{ path = {:?} }}",
        skills.display().to_string()
    );
    let ws = TempWorkspace::new(
        "macro-options",
        &[
            (
                "Cargo.toml",
                &format!(
                    "[package]\nname = \"macro-options\"\nversion = \"0.1.0\"\n\n[dependencies]\n{dependency}\n"
                ),
            ),
            (
                "src/lib.rs",
                "mod agent {\n    skills::include_skills!(\n        \"skills\",\n        profile = \"portable\",\n    );\n}\n",
            ),
            ("skills/tagged/SKILL.md", TAGGED),
        ],
    );
    let text = stderr(cargo_skills_in(&ws.0).args(["check"]), 1);
    assert!(
        text.contains("skills/tagged/SKILL.md:4:1") && text.contains("portable"),
        "{text}"
    );
    // The same call without the option: the default profile takes it.
    std::fs::write(
        ws.0.join("src/lib.rs"),
        "mod agent {\n    skills::include_skills!(\"skills\");\n}\n",
    )
    .unwrap();
    let output = cargo_skills_in(&ws.0).args(["check"]).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `show` prints every key the table holds as text from the keys'
/// declarations, in canonical order: `app_slug` and `model_config` too,
/// which a hand-kept list of three left out.
#[test]
fn show_prints_every_key_held_as_text_in_canonical_order() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-texts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("held")).unwrap();
    std::fs::write(
        dir.join("held/SKILL.md"),
        "---\nname: held\ndescription: Holds keys. Use when asked.\nmodel_config: fast\napp_slug: crm\narea: sales\nlicense: MIT\n---\nBody.\n",
    )
    .unwrap();
    let text = stdout(cargo_skills().args(["show", "held"]).arg(&dir), 0);
    let labels: Vec<&str> = text
        .lines()
        .filter_map(|line| line.split_once(':').map(|(label, _)| label))
        .filter(|label| ["license", "area", "app_slug", "model_config"].contains(label))
        .collect();
    assert_eq!(
        labels,
        ["license", "area", "app_slug", "model_config"],
        "{text}"
    );
    assert!(text.contains("model_config: fast\n"), "{text}");
}
