//! `fix::skill`: machine-applicable fix-its applied to exactly their bytes,
//! repeated until none applies; guesses never applied; the body, comments,
//! line endings and BOM untouched, on crafted files and generated ones.

use proptest::prelude::*;
use skills_compiler::SkillFiles;
use skills_compiler::diagnostics::Applicability;
use skills_compiler::ops::fix;
use skills_compiler::{Code, Config};

fn files(text: &str) -> SkillFiles {
    SkillFiles {
        dir: None,
        path: "skills/a/SKILL.md".into(),
        directory: "a".into(),
        bytes: text.as_bytes().to_vec(),
        tools_yaml: None,
    }
}

#[test]
fn each_machine_applicable_fix_is_applied_and_nothing_else_changes() {
    let before = "\u{feff}---\r\nname: a\r\n# a comment that stays\r\ndescription: Does a. Use when: asked\r\nallowed-tools: Bash, Read\r\nlicense: 2024\r\ntools:\r\n  - name: ping\r\n    description: Ping it. Use when asked.\r\n    endpoint: {method: post, url: \"https://h.example.com/ping\"}\r\n---\r\nBody: stays exactly, even `a: b`.\r\n";
    let fixed = fix::skill(files(before), &Config::default());
    let after = &fixed.changes[0].after;
    assert_eq!(
        after,
        "\u{feff}---\r\nname: a\r\n# a comment that stays\r\ndescription: \"Does a. Use when: asked\"\r\nallowed-tools: Bash Read\r\nlicense: \"2024\"\r\ntools:\r\n  - name: ping\r\n    description: Ping it. Use when asked.\r\n    endpoint: {method: POST, url: \"https://h.example.com/ping\"}\r\n---\r\nBody: stays exactly, even `a: b`.\r\n"
    );
    let codes: Vec<Code> = fixed.applied.iter().map(|a| a.code).collect();
    // The unquoted colon hid the rest of the YAML: the others came in a second pass.
    assert_eq!(
        codes,
        [
            Code::UnquotedColon,
            Code::CommaSeparatedTools,
            Code::WrongType,
            Code::EndpointMethod
        ]
    );
    assert!(
        fixed.remaining.is_empty(),
        "{:?}",
        fixed.remaining.iter().map(|d| d.code).collect::<Vec<_>>()
    );
}

/// S007's fix-it quotes the value up to a comment, which stays a comment
/// (after a space or a tab), and the whole value when it goes on over more
/// lines; the result is always valid YAML (issue 23, item 7).
#[test]
fn an_unquoted_colon_is_quoted_up_to_its_comment_and_over_its_lines() {
    let fixed_to = |text: &str| {
        let fixed = fix::skill(files(text), &Config::default());
        assert!(
            fixed.remaining.is_empty(),
            "{text:?}: {:?}",
            fixed
                .remaining
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        );
        fixed.changes[0].after.clone()
    };
    assert_eq!(
        fixed_to("---\nname: a\ndescription: Use when: asked # reviewed by legal\n---\nB\n"),
        "---\nname: a\ndescription: \"Use when: asked\" # reviewed by legal\n---\nB\n"
    );
    assert_eq!(
        fixed_to("---\nname: a\ndescription: Use when: asked\t# reviewed\n---\nB\n"),
        "---\nname: a\ndescription: \"Use when: asked\"\t# reviewed\n---\nB\n"
    );
    // A `#` inside a word is text, not a comment.
    assert_eq!(
        fixed_to("---\nname: a\ndescription: Use C#: when asked\n---\nB\n"),
        "---\nname: a\ndescription: \"Use C#: when asked\"\n---\nB\n"
    );

    // Over two lines: quoted whole, lines kept, and offered, not applied.
    let text = "---\nname: a\ndescription: Use when: asked\n  and continued \"here\"\nlicense: MIT\n---\nB\n";
    let fixed = fix::skill(files(text), &Config::default());
    assert!(fixed.changes.is_empty());
    let s007 = fixed
        .remaining
        .iter()
        .find(|d| d.code == Code::UnquotedColon)
        .unwrap();
    let fix = s007.fix.as_ref().unwrap();
    assert_eq!(fix.applicability, Applicability::MaybeIncorrect);
    assert_eq!(
        fix.replacement(),
        Some("description: \"Use when: asked\n  and continued \\\"here\\\"\"")
    );
    // Applied by hand, it reads as YAML reads the lines: folded by a space.
    let (span, replacement) = fix.replace().unwrap();
    let mut patched = text.to_owned();
    patched.replace_range(span.bytes.clone(), replacement);
    let compilation = skills_compiler::compile_files(vec![files(&patched)], &Config::default());
    assert!(!compilation.has_errors(), "{patched}");
    assert_eq!(
        compilation.valid.skills[0].description(),
        "Use when: asked and continued \"here\""
    );
}

/// S312's did-you-mean is applied as S402's is (issue 24, item 6).
#[test]
fn a_misspelled_placeholder_is_fixed_to_the_parameter_it_meant() {
    let before = "---\nname: a\ndescription: Does a. Use when asked.\ntools:\n  - name: get_report\n    description: Gets a report.\n    parameters:\n      type: object\n      required: [report_id]\n      properties:\n        report_id: {type: string}\n    endpoint: {method: GET, url: \"https://h.example.com/reports/{{report_ib}}\"}\n---\nBody\n";
    let fixed = fix::skill(files(before), &Config::default());
    assert_eq!(
        fixed.changes[0].after,
        before.replace("{{report_ib}}", "{{report_id}}")
    );
    assert_eq!(fixed.applied[0].code, Code::UnknownPlaceholder);
    assert!(fixed.remaining.is_empty());
}

#[test]
fn guesses_are_shown_but_never_applied() {
    let text = "---\nname: a\ndescripton: Does a. Use when asked.\n---\nBody\n";
    let fixed = fix::skill(files(text), &Config::default());
    assert!(fixed.changes.is_empty());
    let unknown = fixed
        .remaining
        .iter()
        .find(|d| d.code == Code::UnknownKey)
        .unwrap();
    let fix = unknown.fix.as_ref().unwrap();
    assert_eq!(fix.replacement(), Some("description"));
    assert_eq!(fix.applicability, Applicability::MaybeIncorrect);
}

#[test]
fn a_skill_without_fixes_is_left_alone() {
    let text = "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody\n";
    let fixed = fix::skill(files(text), &Config::default());
    assert!(fixed.changes.is_empty() && fixed.applied.is_empty());
    assert!(fixed.remaining.is_empty());
}

#[test]
fn a_sidecar_tools_yaml_is_fixed_in_place() {
    let skill = "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody\n";
    let tools = "tools:\n  - name: ping\n    description: Ping. Use when asked.\n    endpoint: {method: get, url: \"https://h.example.com/\"}\n";
    let fixed = fix::skill(
        SkillFiles {
            tools_yaml: Some(("skills/a/tools.yaml".into(), tools.as_bytes().to_vec())),
            ..files(skill)
        },
        &Config::default(),
    );
    assert_eq!(fixed.changes.len(), 1);
    assert_eq!(fixed.changes[0].path, "skills/a/tools.yaml");
    assert_eq!(fixed.changes[0].after, tools.replace("get", "GET"));
}

/// Frontmatter lines with and without fixable problems, comments among them.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("description: Does a. Use when: asked".to_owned()),
        Just("description: Does a. Use when asked.".to_owned()),
        Just("allowed-tools: Bash, Read, Grep".to_owned()),
        Just("allowed-tools: [Bash, Read]".to_owned()),
        Just("license: 2024".to_owned()),
        Just("compatibility: 1.5".to_owned()),
        "# [a-z: ,#\"']{0,20}".prop_map(|c| c),
        "x-[a-z]{1,5}: [a-z: ]{0,12}".prop_map(|c| c),
        Just("descripton: typo".to_owned()),
        Just("name: a".to_owned()),
        "[a-z: \"'\\[\\]{},#-]{0,16}".prop_map(|c| c),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fixing_never_panics_and_keeps_the_body_and_every_comment(
        lines in proptest::collection::vec(line(), 0..8),
        body in "[a-z: #\\n`-]{0,40}",
        crlf in any::<bool>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut text = format!("---{eol}name: a{eol}");
        for line in &lines {
            text.push_str(line);
            text.push_str(eol);
        }
        text.push_str(&format!("---{eol}"));
        text.push_str(&body);
        for profile in [skills_compiler::Profile::Extended, skills_compiler::Profile::Lenient] {
            let config = Config { profile, ..Config::default() };
            let fixed = fix::skill(files(&text), &config);
            let after = fixed.changes.first().map_or(text.as_str(), |c| c.after.as_str());
            prop_assert!(after.ends_with(&body), "body changed: {after:?}");
            for line in lines.iter().filter(|l| l.starts_with('#')) {
                prop_assert!(after.contains(line.as_str()), "comment {line:?} lost: {after:?}");
            }
            // Fixing what was fixed changes nothing.
            let again = fix::skill(files(after), &config);
            prop_assert!(again.changes.is_empty(), "not idempotent: {after:?}");
        }
    }
}

/// `--to portable` moves extension keys into `metadata`, says which host
/// stops seeing a key it read at the top level (issue 24, item 6), and
/// moves a list or a mapping as its JSON text (issue 40, item 8).
#[test]
fn to_portable_moves_scalar_extension_keys_into_metadata() {
    let before = "---\nname: a\ndescription: Does a. Use when asked.\nuser-invocable: false\nsource: github\nrequires: [git]\n---\nBody\n";
    let config = Config {
        profile: skills_compiler::Profile::Portable,
        ..Config::default()
    };
    let migration = fix::to_profile(files(before), &config).unwrap();
    let after = &migration.changes[0].after;
    assert!(
        after.contains("metadata:\n  user-invocable: \"false\"\n  source: github\n"),
        "{after}"
    );
    // A list moves as its JSON text (issue 40, item 8), and a note says so.
    assert!(after.contains("  requires: \"[\\\"git\\\"]\"\n"), "{after}");
    let notes = migration.notes.join("\n");
    assert!(
        notes.contains(
            "`user-invocable` moved into `metadata`, where Claude Code no longer reads it"
        ),
        "{notes}"
    );
    assert!(
        notes.contains("`requires` moved into `metadata` as JSON text"),
        "{notes}"
    );
    let remaining: Vec<Code> = migration.remaining.iter().map(|d| d.code).collect();
    assert_eq!(remaining, [], "{after}");
}
