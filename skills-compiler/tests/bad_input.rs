//! The bad inputs of the compiler-core issue, each through the whole pipeline
//! on real files: every one gets its code at its exact place, none panics,
//! hangs or allocates without bound.

mod support;

use skills_compiler::{Code, Config, Profile, Severity};
use support::{Tree, find, located, one, portable, with};

fn at(code: Code, line: u32, column: u32) -> (Code, Option<u32>, Option<u32>) {
    (code, Some(line), Some(column))
}

#[test]
fn a_bom_crlf_and_mixed_line_endings_are_accepted_and_located() {
    let text =
        "\u{feff}---\r\nname: a\r\ndescription: Use when testing.\nlicense: MIT\r\n---\r\nBody\r\n";
    let compilation = one(text, &Config::default());
    assert!(
        compilation.diagnostics.is_empty(),
        "{:?}",
        located(&compilation)
    );
    let skills = compilation.skills().unwrap();
    assert_eq!(skills.skills[0].table.license.as_deref(), Some("MIT"));
    assert_eq!(skills.skills[0].body(), "Body\r\n");

    // Locations still count lines across both endings.
    let text = "---\r\nname: a\ndescription: d\r\nx-ok: 1\nbad: 2\r\n---\r\n";
    assert_eq!(
        located(&one(text, &Config::default())),
        vec![at(Code::UnknownKey, 5, 1)]
    );
}

#[test]
fn frontmatter_that_is_a_list_or_a_scalar() {
    for text in [
        "---\n- a\n- b\n---\n",
        "---\njust text\n---\n",
        "---\n42\n---\n",
    ] {
        assert_eq!(
            located(&one(text, &Config::default())),
            vec![at(Code::FrontmatterNotMapping, 2, 1)],
            "{text}"
        );
    }
}

#[test]
fn billion_laughs_is_refused_before_any_expansion() {
    let mut text = String::from(
        "---\nname: a\ndescription: d\nx-a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 9].join(",");
        text.push_str(&format!("x-{}: &{} [{refs}]\n", pair[1], pair[1]));
    }
    text.push_str("---\n");
    let compilation = one(&text, &Config::default());
    assert_eq!(find(&compilation, Code::AnchorOrAlias).line(), Some(4));
    assert!(compilation.skills().is_none());
}

#[test]
fn deep_nesting_in_block_and_flow_style_is_an_error_not_a_crash() {
    let depth = 100_000;
    let flow = with(&format!("x: {}{}\n", "[".repeat(depth), "]".repeat(depth)));
    let flow_maps = with(&format!(
        "x: {}1{}\n",
        "{a: ".repeat(depth),
        "}".repeat(depth)
    ));
    let block = with(&format!("x:\n  {}1\n", "- ".repeat(depth)));
    let unclosed = with(&format!("x: {}\n", "[".repeat(depth)));
    // Raise the size limits so that the depth limit is what stops these.
    let config = Config {
        max_document_chars: 1 << 20,
        max_frontmatter_bytes: 1 << 20,
        ..Config::default()
    };
    for (text, line) in [(flow, 4), (flow_maps, 4), (block, 5), (unclosed, 4)] {
        let compilation = one(&text, &config);
        assert_eq!(find(&compilation, Code::TooDeep).line(), Some(line));
    }
}

#[test]
fn a_fifty_megabyte_file_is_refused_after_reading_only_the_limit() {
    let tree = Tree::new(&[]);
    let mut big = with("").into_bytes();
    big.resize(50 * 1024 * 1024, b'x');
    tree.write("skills/a/SKILL.md", &big);
    let compilation = tree.compile(&Config::default());
    let diagnostic = find(&compilation, Code::DocumentTooLarge);
    assert_eq!(diagnostic.file, "skills/a/SKILL.md");
    // Nothing of the file is kept for rendering: it was never read whole.
    assert!(compilation.sources.get("skills/a/SKILL.md").is_none());
}

#[test]
fn a_file_over_the_character_limit_but_under_the_byte_bound_is_counted_in_characters() {
    let config = Config {
        max_document_chars: 150,
        ..Config::default()
    };
    // 118 characters, 50 of them 2 bytes each: 168 bytes, still under 150 characters.
    let fits = with(&format!("x-pad: {}\n", "é".repeat(50)));
    assert!(one(&fits, &config).skills().is_some());
    let too_long = with(&format!("x-pad: {}\n", "é".repeat(100)));
    find(&one(&too_long, &config), Code::DocumentTooLarge);
}

#[test]
fn name_rules() {
    let cases = [
        ("Abc", Code::NameCharacters),
        ("a_b", Code::NameCharacters),
        ("a--b", Code::NameHyphens),
        ("-ab", Code::NameHyphens),
        ("ab-", Code::NameHyphens),
        ("a.b", Code::NameCharacters),
    ];
    for (name, code) in cases {
        let tree = Tree::new(&[(
            &format!("skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\n").as_bytes(),
        )]);
        let compilation = tree.compile(&Config::default());
        assert_eq!(located(&compilation), vec![at(code, 2, 7)], "{name}");
    }
    let long = "a".repeat(65);
    let tree = Tree::new(&[(
        &format!("skills/{long}/SKILL.md"),
        format!("---\nname: {long}\ndescription: d\n---\n").as_bytes(),
    )]);
    assert_eq!(
        located(&tree.compile(&Config::default())),
        vec![at(Code::NameTooLong, 2, 7)]
    );
    let ok = "a".repeat(64);
    let tree = Tree::new(&[(
        &format!("skills/{ok}/SKILL.md"),
        format!("---\nname: {ok}\ndescription: d\n---\n").as_bytes(),
    )]);
    assert!(tree.compile(&Config::default()).skills().is_some());
}

#[test]
fn a_name_that_differs_from_its_directory_and_nfkc_equivalents() {
    let compilation = one("---\nname: b\ndescription: d\n---\n", &Config::default());
    assert_eq!(located(&compilation), vec![at(Code::NameMismatch, 2, 7)]);

    // U+FB01 (the `fi` ligature) in the directory is NFKC-equal to `fi` in the name.
    let tree = Tree::new(&[(
        "skills/\u{fb01}le-tools/SKILL.md",
        b"---\nname: file-tools\ndescription: Use when testing.\n---\n",
    )]);
    let compilation = tree.compile(&Config::default());
    assert!(
        compilation.diagnostics.is_empty(),
        "{:?}",
        located(&compilation)
    );
    assert_eq!(compilation.skills().unwrap().skills[0].name(), "file-tools");
}

#[test]
fn description_and_compatibility_limits() {
    let description = |d: &str| {
        one(
            &format!("---\nname: a\ndescription: \"{d}\"\n---\n"),
            &Config::default(),
        )
    };
    assert_eq!(
        located(&description("")),
        vec![at(Code::EmptyDescription, 3, 14)]
    );
    assert_eq!(
        located(&description("   ")),
        vec![at(Code::EmptyDescription, 3, 14)]
    );
    // Over the limit: a warning in `extended` that says what each host does
    // (every host loads it or says why), so the skill loads and is linted;
    // an error in `portable` (issue 40, item 7).
    let long = description(&"é".repeat(1025));
    assert_eq!(
        located(&long),
        vec![
            at(Code::DescriptionTooLong, 3, 14),
            at(Code::NoWhenToUse, 3, 14)
        ]
    );
    assert!(long.skills().is_some());
    let help = long.diagnostics[0].help.as_deref().unwrap_or_default();
    assert_eq!(
        help,
        "it is sent on every model turn: keep what decides when to use the skill, move the rest into the body; as it is, Claude Code lists it whole, Codex cuts it at 1,024 characters with `...`, Zed refuses the skill (2,050 bytes; it takes 1,024)"
    );
    let portable = one(
        &format!("---\nname: a\ndescription: \"{}\"\n---\n", "é".repeat(1025)),
        &support::portable(),
    );
    assert!(
        portable
            .diagnostics
            .iter()
            .any(|d| d.code == Code::DescriptionTooLong && d.is_error())
    );
    // The limit counts characters, not bytes: 1,024 two-byte characters pass.
    assert!(description(&"é".repeat(1024)).skills().is_some());

    let compatibility = |c: &str| {
        one(
            &with(&format!("compatibility: \"{c}\"\n")),
            &Config::default(),
        )
    };
    assert_eq!(
        located(&compatibility("")),
        vec![at(Code::Compatibility, 4, 16)]
    );
    assert_eq!(
        located(&compatibility(&"x".repeat(501))),
        vec![at(Code::Compatibility, 4, 16)]
    );
    assert!(compatibility(&"x".repeat(500)).skills().is_some());
}

#[test]
fn metadata_coerces_scalars_and_refuses_nesting() {
    let compilation = one(
        &with("metadata:\n  version: 1.0\n  count: 3\n  beta: true\n  owner: me\n"),
        &Config::default(),
    );
    let skills = compilation.skills().unwrap();
    let metadata: Vec<(&str, &str)> = skills.skills[0].table.metadata().collect();
    assert_eq!(
        metadata,
        vec![
            ("version", "1.0"),
            ("count", "3"),
            ("beta", "true"),
            ("owner", "me")
        ]
    );

    let nested = one(
        &with("metadata:\n  owner: {team: infra}\n  list: [a]\n"),
        &Config::default(),
    );
    assert_eq!(
        located(&nested),
        vec![at(Code::Metadata, 5, 10), at(Code::Metadata, 6, 9)]
    );
}

#[test]
fn protocols_need_steps_checks_and_all_three_escape_hatches() {
    let full = "kind: protocol\nsteps: [Do it]\npost_checks: [It is done]\non_deviation: Stop and ask.\non_blocked: Say what is missing.\non_already_done: Skip it.\n";
    assert!(one(&with(full), &Config::default()).skills().is_some());
    for key in [
        "steps",
        "post_checks",
        "on_deviation",
        "on_blocked",
        "on_already_done",
    ] {
        let text: String = full
            .lines()
            .filter(|l| !l.starts_with(key))
            .map(|l| format!("{l}\n"))
            .collect();
        let compilation = one(&with(&text), &Config::default());
        let diagnostic = find(&compilation, Code::ProtocolIncomplete);
        assert_eq!(
            (diagnostic.line(), diagnostic.column()),
            (Some(4), Some(7)),
            "{key}"
        );
        assert!(
            diagnostic.message.contains(&format!("`{key}`")),
            "{}",
            diagnostic.message
        );
        assert!(
            diagnostic
                .help
                .as_deref()
                .unwrap()
                .contains("drifts off plan")
        );
    }
    let empty_steps = full.replace("steps: [Do it]", "steps: []");
    assert_eq!(
        located(&one(&with(&empty_steps), &Config::default())),
        vec![at(Code::ProtocolIncomplete, 5, 8)]
    );
}

#[test]
fn protocol_keys_on_a_plain_skill_suggest_kind_protocol() {
    let compilation = one(&with("on_blocked: Ask.\n"), &Config::default());
    let diagnostic = find(&compilation, Code::ProtocolKeyOnSkill);
    assert_eq!((diagnostic.line(), diagnostic.column()), (Some(4), Some(1)));
    assert!(
        diagnostic
            .help
            .as_deref()
            .unwrap()
            .contains("kind: protocol")
    );
}

#[test]
fn an_unknown_key_with_a_near_miss_gets_did_you_mean_and_a_fix_it() {
    let compilation = one("---\nname: a\ndescripton: d\n---\n", &Config::default());
    let diagnostic = find(&compilation, Code::UnknownKey);
    assert_eq!((diagnostic.line(), diagnostic.column()), (Some(3), Some(1)));
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("did you mean `description`?")
    );
    assert_eq!(
        diagnostic.fix.as_ref().unwrap().replacement(),
        Some("description")
    );
    // `x-` keys are kept as extras.
    let compilation = one(&with("x-team: infra\n"), &Config::default());
    assert_eq!(
        compilation.skills().unwrap().skills[0].extras(),
        vec![("x-team".to_owned(), serde_json::json!("infra"))]
    );
}

fn tools(extra: &str) -> String {
    with(&format!(
        "tools:\n  - name: get_issue\n    description: d\n    parameters:\n      type: object\n      required: [repo]\n      properties:\n        repo: {{type: string}}\n        id: {{type: integer}}\n        tags: {{type: array, items: {{type: string}}}}\n{extra}"
    ))
}

#[test]
fn tool_and_endpoint_problems() {
    let endpoint = |url: &str| {
        tools(&format!(
            "    endpoint:\n      method: GET\n      url: \"{url}\"\n"
        ))
    };
    let cases = [
        (
            endpoint("https://h.com/r/{{repo}}/{{rpo}}"),
            Code::UnknownPlaceholder,
            38,
        ),
        (
            endpoint("https://{{repo}}.h.com/"),
            Code::PlaceholderInOrigin,
            21,
        ),
        (
            endpoint("https://h.com:{{id}}/"),
            Code::PlaceholderInOrigin,
            21,
        ),
        (endpoint("{{repo}}://h.com/"), Code::PlaceholderInOrigin, 13),
        (
            endpoint("https://h.com/i/{{id}}"),
            Code::OptionalPathPlaceholder,
            29,
        ),
        (
            endpoint("https://h.com/i?t={{tags}}"),
            Code::PlaceholderType,
            31,
        ),
        (endpoint("ftp://h.com/"), Code::EndpointUrl, 12),
    ];
    for (text, code, column) in cases {
        assert_eq!(
            located(&one(&text, &Config::default())),
            vec![at(code, 16, column)],
            "{text}"
        );
    }
    let body = tools(
        "    endpoint:\n      method: POST\n      url: https://h.com/\n      body: '{\"a\": {{repo}} \"b\": 1}'\n",
    );
    assert_eq!(
        located(&one(&body, &Config::default())),
        vec![at(Code::BodyTemplate, 17, 29)]
    );
}

#[test]
fn unsupported_schema_constructs_are_named_and_located() {
    let schema = |property: &str| {
        with(&format!(
            "tools:\n  - name: t\n    description: d\n    parameters:\n      type: object\n      properties:\n        x: {property}\n"
        ))
    };
    for (property, code, column, construct) in [
        (
            "{oneOf: [{type: string}, {type: integer}]}",
            Code::SchemaUnsupported,
            13,
            "oneOf",
        ),
        ("{not: {type: string}}", Code::SchemaUnsupported, 13, "not"),
        (
            "{$ref: \"https://e.com/s.json\"}",
            Code::SchemaRef,
            19,
            "https://e.com/s.json",
        ),
        (
            "{$ref: \"#/$defs/Missing\"}",
            Code::SchemaRef,
            19,
            "Missing",
        ),
        (
            "{type: [string, integer]}",
            Code::SchemaUnsupported,
            19,
            "[T, \"null\"]",
        ),
        ("{type: array}", Code::SchemaInvalid, 12, "items"),
    ] {
        let compilation = one(&schema(property), &Config::default());
        let diagnostic = find(&compilation, code);
        assert_eq!(
            (diagnostic.line(), diagnostic.column()),
            (Some(10), Some(column)),
            "{property}"
        );
        assert!(
            diagnostic.message.contains(construct),
            "{}",
            diagnostic.message
        );
    }
    let required = with(
        "tools:\n  - name: t\n    description: d\n    parameters: {type: object, required: [a, b], properties: {a: {type: string}}}\n",
    );
    assert_eq!(
        located(&one(&required, &Config::default())),
        vec![at(Code::SchemaRequired, 7, 46)]
    );
}

#[test]
fn malformed_validation_keywords_and_defaults_that_break_them_are_located() {
    let schema = |property: &str| {
        with(&format!(
            "tools:\n  - name: t\n    description: d\n    parameters:\n      type: object\n      properties:\n        x: {property}\n"
        ))
    };
    // The diagnostic points at `at`, found in the property (which starts at column 12).
    for (property, at, words) in [
        (
            "{type: string, minLength: -1}",
            "-1",
            "non-negative integer",
        ),
        (
            "{type: integer, exclusiveMinimum: true}",
            "true",
            "must be a number",
        ),
        ("{type: number, multipleOf: 0}", "0}", "greater than 0"),
        (
            "{type: array, items: {type: string}, uniqueItems: 1}",
            "1}",
            "true or false",
        ),
        (
            "{type: integer, minimum: 5, default: 3}",
            "3}",
            "less than the minimum of 5",
        ),
        (
            "{type: string, maxLength: 2, default: abc}",
            "abc",
            "more than the maximum",
        ),
        (
            "{type: string, enum: [a, bbb], maxLength: 2}",
            "bbb",
            "no call could use it",
        ),
    ] {
        let column = 12 + property.find(at).expect("the token") as u32;
        let compilation = one(&schema(property), &Config::default());
        let diagnostic = find(&compilation, Code::SchemaInvalid);
        assert_eq!(
            (diagnostic.line(), diagnostic.column()),
            (Some(10), Some(column)),
            "{property}: {}",
            diagnostic.message
        );
        assert!(diagnostic.message.contains(words), "{}", diagnostic.message);
    }
    // Bounds that hold compile, and reach the tables.
    let fine = one(
        &schema("{type: integer, minimum: 1, maximum: 9, multipleOf: 2, default: 4}"),
        &Config::default(),
    );
    assert!(!fine.has_errors(), "{:?}", fine.diagnostics);
    // Integers are divided exactly, as the run-time checker does: 2^53 + 1 is a
    // multiple of 3, which floating point would not see.
    let exact = one(
        &schema("{type: integer, multipleOf: 3, default: 9007199254740993}"),
        &Config::default(),
    );
    assert!(!exact.has_errors(), "{:?}", exact.diagnostics);
}

#[test]
fn tool_names_with_a_dot_or_65_characters() {
    for name in ["issues.create".to_owned(), "t".repeat(65), "1st".to_owned()] {
        let text = with(&format!("tools:\n  - name: {name}\n    description: d\n"));
        assert_eq!(
            located(&one(&text, &Config::default())),
            vec![at(Code::ToolName, 5, 11)],
            "{name}"
        );
    }
    let ok = with(&format!(
        "tools:\n  - name: {}\n    description: d\n",
        "t".repeat(64)
    ));
    assert!(one(&ok, &Config::default()).skills().is_some());
}

#[test]
fn permission_lists_name_declared_tools_once() {
    let text = tools(
        "permissions:\n  require_confirmation: [get_issue]\n  allow_write: [get_isue, get_issue]\n",
    );
    let compilation = one(&text, &Config::default());
    assert_eq!(
        located(&compilation),
        vec![
            at(Code::UnknownPermissionTool, 16, 17),
            at(Code::ConflictingPermission, 16, 27)
        ]
    );
    assert_eq!(
        find(&compilation, Code::UnknownPermissionTool)
            .help
            .as_deref(),
        Some("did you mean `get_issue`?")
    );
}

#[test]
fn one_typo_never_hides_the_next() {
    let text = "---\nname: a\ndescripton: d\nversion: 0\ntags: [\"\"]\npermissions: {default_mode: open}\n---\n";
    let codes: Vec<Code> = one(text, &Config::default())
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect();
    // The missing `description` is the typo's error, which says so.
    assert_eq!(
        codes,
        vec![
            Code::UnknownKey,
            Code::Version,
            Code::StringList,
            Code::DefaultMode
        ]
    );
}

#[test]
fn portable_rejects_extensions_with_a_place_to_put_them() {
    let compilation = one(&with("tools: []\ntriggers: [x]\n"), &portable());
    let help: Vec<&str> = compilation
        .diagnostics
        .iter()
        .map(|d| d.help.as_deref().unwrap())
        .collect();
    assert_eq!(
        located(&compilation),
        vec![at(Code::NotPortable, 4, 1), at(Code::NotPortable, 5, 1)]
    );
    assert!(help[0].contains("tools.yaml"), "{help:?}");
    assert!(help[1].contains("metadata"), "{help:?}");
}

/// A set over `max_skills` is refused before any lint over the set runs:
/// 10,000 copies of one description took `serve` 2.6 GB in W009 before it
/// said the set was too large.
#[test]
fn a_set_over_max_skills_runs_no_set_lint() {
    let files = support::copies(70);
    let compilation = skills_compiler::compile_files(files, &Config::default());
    let codes: Vec<Code> = compilation.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::TooManySkills]);
}

/// Hidden prompt text (W012): Unicode tag characters spell ASCII that a
/// model reads and a reviewer does not see; a zero-width space or a
/// text-direction override hides or reorders text. Located at the first
/// one, the smuggled text shown escaped; an error in `portable`.
#[test]
fn hidden_text_in_a_description_or_body_is_flagged_at_its_first_character() {
    let tags: String = "Ignore all"
        .chars()
        .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
        .collect();
    let text = format!(
        "---\nname: a\ndescription: Formats dates.{tags} Use when asked.\n---\nBody with a zero\u{200b}width space.\n"
    );
    for (profile, severity) in [
        (Profile::Portable, Severity::Error),
        (Profile::Extended, Severity::Warning),
        (Profile::Lenient, Severity::Warning),
    ] {
        let compilation = one(
            &text,
            &Config {
                profile,
                ..Config::default()
            },
        );
        let found: Vec<_> = compilation
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::HiddenText)
            .collect();
        assert_eq!(found.len(), 2, "{:?}", compilation.diagnostics);
        assert!(found.iter().all(|d| d.severity == severity));
        // The description's first tag character: line 3, column 28.
        assert_eq!((found[0].line(), found[0].column()), (Some(3), Some(28)));
        assert_eq!(
            found[0].message,
            "the description holds 10 characters that do not show, the first U+E0049; its tag characters spell `Ignore all`: a model reads them, a reviewer does not"
        );
        assert_eq!((found[1].line(), found[1].column()), (Some(5), Some(17)));
        assert!(
            found[1]
                .message
                .starts_with("the body holds 1 character that does not show, the first U+200B")
        );
    }
    // Emoji sequences keep their joiner: nothing to flag.
    let family = with("x-note: 👨\u{200d}👩\u{200d}👧\n");
    assert!(
        one(&family, &Config::default())
            .diagnostics
            .iter()
            .all(|d| d.code != Code::HiddenText)
    );
}

/// Issue 40, item 6: a block scalar's span ran to the start of the next key,
/// so the highlight of a long folded description reached `metadata:` on
/// the line after it. A scalar's span ends with its last character.
#[test]
fn a_block_scalars_highlight_ends_on_its_last_line() {
    let words = "word ".repeat(120);
    let text = format!(
        "---\nname: a\ndescription: >\n  {words}\n  {words}Use when asked.\n\nmetadata:\n  x: y\n---\nBody.\n"
    );
    let compilation = one(&text, &Config::default());
    let long = compilation
        .diagnostics
        .iter()
        .find(|d| d.code == Code::DescriptionTooLong)
        .expect("S108");
    let span = long.span.as_ref().unwrap();
    assert_eq!((span.start.line, span.end.line), (4, 5));
    assert!(text[span.bytes.clone()].ends_with("Use when asked."));
}
