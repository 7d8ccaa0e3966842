//! The shapes real collections use and other clients load (DESIGN 3.5):
//! each loads in `lenient` with a warning that says what was assumed, and
//! stays an error in `extended` and `portable`.

mod support;

use skills_compiler::ir::{Skill, Version};
use skills_compiler::{Code, Compilation, Config, Profile, Severity};
use support::{find, one};

fn config(profile: Profile) -> Config {
    Config {
        profile,
        ..Config::default()
    }
}

/// The one skill `text` compiles to in `lenient`, and the warning with `code`.
fn lenient(text: &str, code: Code) -> (Skill, Compilation) {
    let compilation = one(text, &config(Profile::Lenient));
    assert!(!compilation.has_errors(), "{:#?}", compilation.diagnostics);
    let warning = find(&compilation, code);
    assert_eq!(warning.severity, Severity::Warning);
    let skill = Skill::clone(&compilation.valid.skills[0]);
    (skill, compilation)
}

/// The same text is refused by the strict profiles.
fn strict_refuses(text: &str) {
    for profile in [Profile::Extended, Profile::Portable] {
        let compilation = one(text, &config(profile));
        assert!(compilation.has_errors(), "{profile:?} accepted {text}");
    }
}

#[test]
fn a_name_that_breaks_the_rules_becomes_its_slug_and_the_original_is_kept() {
    for (written, slug) in [
        ("Ahrefs Automation", "ahrefs-automation"),
        ("-21risk-automation", "21risk-automation"),
        ("gsd:thread", "gsd-thread"),
        ("Linear", "linear"),
    ] {
        let text = format!("---\nname: {written}\ndescription: Use when testing.\n---\nBody\n");
        let (skill, compilation) = lenient(&text, Code::NameCharacters);
        assert_eq!(skill.name(), slug);
        assert!(
            find(&compilation, Code::NameCharacters)
                .message
                .contains(&format!("read as `{slug}`"))
        );
        let extras = skill.extras();
        let original = extras.iter().find(|(k, _)| k == "x-original-name");
        assert_eq!(original.map(|(_, v)| v.as_str()), Some(Some(written)));
        strict_refuses(&text);
    }
}

#[test]
fn tools_as_names_are_claude_codes_allowed_tools_never_http_tools() {
    for tools in [
        "tools: Read, Grep",
        "tools: [Read, Grep]",
        "tools:\n  - Read\n  - Grep",
    ] {
        let text = format!("---\nname: a\ndescription: Use when testing.\n{tools}\n---\nBody\n");
        let (skill, _) = lenient(&text, Code::ToolShape);
        assert!(skill.tools.is_empty(), "{tools}");
        assert_eq!(*skill.table.allowed_tools, ["Read", "Grep"], "{tools}");
        strict_refuses(&text);
    }
}

#[test]
fn a_version_of_any_scalar_is_kept_as_text() {
    let text = "---\nname: a\ndescription: Use when testing.\nversion: 1.0\n---\nBody\n";
    let (skill, _) = lenient(text, Code::Version);
    assert_eq!(skill.table.version, Version::Text("1.0".into()));
    strict_refuses(text);
}

#[test]
fn an_unquoted_colon_in_a_value_over_two_lines_or_before_a_comment_is_read_as_quoted() {
    let text = "---\nname: a\ndescription: Use when: asked\n  and continued here.\nlicense: MIT # checked\n---\nBody\n";
    let (skill, compilation) = lenient(text, Code::UnquotedColon);
    assert_eq!(skill.description(), "Use when: asked and continued here.");
    assert_eq!(skill.table.license.as_deref(), Some("MIT"));
    assert_eq!(find(&compilation, Code::UnquotedColon).line(), Some(3));
    let text = "---\nname: a\ndescription: Use when: asked # a note\n---\nBody\n";
    let (skill, _) = lenient(text, Code::UnquotedColon);
    assert_eq!(skill.description(), "Use when: asked");
    strict_refuses(text);
}

#[test]
fn an_unquoted_colon_in_a_one_line_value_is_read_as_quoted() {
    let text = "---\nname: a\ndescription: Use when: the user asks. Also: never.\nlicense: MIT\n---\nBody\n";
    let (skill, compilation) = lenient(text, Code::UnquotedColon);
    assert_eq!(skill.description(), "Use when: the user asks. Also: never.");
    assert_eq!(skill.table.license.as_deref(), Some("MIT"));
    assert_eq!(find(&compilation, Code::UnquotedColon).line(), Some(3));
    // The body and the file's hash are the file's own.
    assert_eq!(skill.body(), "Body\n");
    assert_eq!(
        skill.sha256_hex(),
        support_sha256(text.as_bytes()),
        "the hash is of the bytes on disk"
    );
    // The file can be served as it is on disk, with that hash.
    assert_eq!(format!("{}{}", skill.head(), skill.body()), text);
    strict_refuses(text);
}

#[test]
fn two_unquoted_colons_on_two_lines_are_both_read_as_quoted() {
    let text =
        "---\nname: a\ndescription: Use when: asked.\ncompatibility: Needs: git\n---\nBody\n";
    let (skill, compilation) = lenient(text, Code::UnquotedColon);
    assert_eq!(skill.table.compatibility.as_deref(), Some("Needs: git"));
    let lines: Vec<_> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UnquotedColon)
        .map(|d| d.line())
        .collect();
    assert_eq!(lines, [Some(3), Some(4)]);
}

#[test]
fn metadata_given_as_text_is_kept_as_an_extra() {
    let text = "---\nname: a\ndescription: Use when testing.\nmetadata: owner team-a\n---\nBody\n";
    let (skill, _) = lenient(text, Code::Metadata);
    assert!(skill.table.metadata.is_empty());
    assert_eq!(
        skill.extras(),
        [("metadata".to_owned(), serde_json::json!("owner team-a"))]
    );
    strict_refuses(text);
}

#[test]
fn mappings_inside_triggers_are_kept_as_text() {
    let text = "---\nname: a\ndescription: Use when testing.\ntriggers:\n  - deploy\n  - when: the user says ship\n---\nBody\n";
    let (skill, _) = lenient(text, Code::StringList);
    assert_eq!(
        *skill.table.triggers,
        ["deploy", r#"{"when":"the user says ship"}"#]
    );
    assert!(one(text, &config(Profile::Extended)).has_errors());
}

#[test]
fn unknown_keys_inside_permissions_are_dropped_with_a_warning() {
    let text = "---\nname: a\ndescription: Use when testing.\npermissions:\n  network: true\n  default_mode: readonly\n---\nBody\n";
    let (_, compilation) = lenient(text, Code::PermissionsShape);
    assert!(
        find(&compilation, Code::PermissionsShape)
            .message
            .ends_with("; ignored")
    );
    assert!(one(text, &config(Profile::Extended)).has_errors());
}

#[test]
fn a_client_key_of_another_type_is_kept_as_it_is() {
    let text =
        "---\nname: a\ndescription: Use when testing.\nargument-hint: [topic, depth]\n---\nBody\n";
    let (skill, _) = lenient(text, Code::ClientExtra);
    assert_eq!(
        skill.extras(),
        [(
            "argument-hint".to_owned(),
            serde_json::json!(["topic", "depth"])
        )]
    );
    assert!(one(text, &config(Profile::Extended)).has_errors());
}

#[test]
fn what_lenient_still_refuses() {
    for text in [
        // No description at all, or an empty one.
        "---\nname: a\n---\n",
        "---\nname: a\ndescription: \"\"\n---\nBody\n",
        // YAML that no reading repairs.
        "---\nname: a\ndescription: \"bad \\q escape\"\n---\nBody\n",
    ] {
        assert!(one(text, &config(Profile::Lenient)).has_errors(), "{text}");
    }
}

fn support_sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Quoting re-parses the frontmatter once per line, so it is bounded: a
/// hostile file of 3,000 unquoted colons took 5 s. The first
/// `MAX_QUOTED_LINES` are quoted with a warning each; the next stays the
/// error it is in the other profiles; a frontmatter over the size limit is
/// refused without being quoted line by line.
#[test]
fn quoting_unquoted_colons_is_bounded_on_hostile_files() {
    use skills_compiler::MAX_QUOTED_LINES;
    let lines: String = (0..3_000).map(|i| format!("k{i}: a: b\n")).collect();
    let text = format!("---\nname: a\ndescription: Use when testing.\n{lines}---\nBody\n");
    let compilation = one(&text, &config(Profile::Lenient));
    let quoted = compilation
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UnquotedColon && d.severity == Severity::Warning)
        .count();
    assert_eq!(quoted, MAX_QUOTED_LINES);
    let error = compilation
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .expect("the next colon is an error");
    assert_eq!(error.code, Code::UnquotedColon);
    assert_eq!(error.line(), Some(4 + MAX_QUOTED_LINES as u32));

    let big = Config {
        max_frontmatter_bytes: 1_000,
        ..config(Profile::Lenient)
    };
    let compilation = one(&text, &big);
    let codes: Vec<Code> = compilation.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::FrontmatterTooLarge], "{codes:?}");
}

/// Anthropic's `claude-api` skill has a 1,068-character description, which
/// every host loads (cut or whole): `lenient` loads it too, with a warning
/// that says what each host will do; the strict profiles refuse it.
#[test]
fn an_over_long_description_or_compatibility_loads_with_a_warning() {
    let description = format!("Use when building with the API. {}", "x".repeat(1_040));
    let text = format!("---\nname: a\ndescription: {description}\n---\nBody\n");
    let (skill, compilation) = lenient(&text, Code::DescriptionTooLong);
    assert_eq!(skill.description(), description);
    let help = find(&compilation, Code::DescriptionTooLong)
        .help
        .clone()
        .unwrap();
    // What each host does with this description, from the budget's figures.
    assert!(
        help.ends_with("Claude Code lists it whole, Codex cuts it at 1,024 characters with `...`, Zed refuses the skill (1,072 bytes; it takes 1,024)"),
        "{help}"
    );
    // Only `portable` refuses it: every host loads it (issue 40, item 7).
    assert!(!one(&text, &config(Profile::Extended)).has_errors());
    assert!(one(&text, &config(Profile::Portable)).has_errors());

    let text = format!(
        "---\nname: a\ndescription: Does a. Use when testing.\ncompatibility: {}\n---\nBody\n",
        "y".repeat(600)
    );
    let (skill, _) = lenient(&text, Code::Compatibility);
    assert_eq!(
        skill.table.compatibility.as_deref().map(str::len),
        Some(600)
    );
    strict_refuses(&text);
    // An empty one says nothing: refused in every profile.
    let text =
        "---\nname: a\ndescription: Does a. Use when testing.\ncompatibility: \"\"\n---\nBody\n";
    assert!(one(text, &config(Profile::Lenient)).has_errors());
}
