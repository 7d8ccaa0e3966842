//! Every diagnostic code is triggered by a real file tree and lands at the
//! exact file, line and column.

mod support;

use std::collections::BTreeSet;

use skills_compiler::{Code, Config, Severity};
use support::{Tree, with};

struct Case {
    code: Code,
    files: Vec<(&'static str, Vec<u8>)>,
    config: Config,
    file: &'static str,
    /// `None` for problems with a whole file or directory.
    at: Option<(u32, u32)>,
}

fn case(
    code: Code,
    files: Vec<(&'static str, String)>,
    file: &'static str,
    at: Option<(u32, u32)>,
) -> Case {
    Case {
        code,
        files: files
            .into_iter()
            .map(|(p, t)| (p, t.into_bytes()))
            .collect(),
        config: Config::default(),
        file,
        at,
    }
}

const A: &str = "skills/a/SKILL.md";

/// A valid skill named after its folder `a` or `pdf`.
const VALID: &str = "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody\n";
const VALID_PDF: &str = "---\nname: pdf\ndescription: Reads PDFs. Use when asked.\n---\nBody\n";

/// A skill `a` whose SKILL.md is `text`.
fn a(code: Code, text: String, line: u32, column: u32) -> Case {
    case(code, vec![(A, text)], A, Some((line, column)))
}

fn config(mut case: Case, edit: impl FnOnce(&mut Config)) -> Case {
    edit(&mut case.config);
    case
}

fn tool(extra: &str) -> String {
    with(&format!("tools:\n  - name: t\n    description: d\n{extra}"))
}

fn cases() -> Vec<Case> {
    let portable = |c| config(c, |c| c.profile = skills_compiler::Profile::Portable);
    let lenient = |c| config(c, |c| c.profile = skills_compiler::Profile::Lenient);
    let long_name = "a".repeat(65);
    vec![
        Case {
            code: Code::NotUtf8,
            files: vec![(A, b"---\nname: a\ndescription: caf\xe9\n---\n".to_vec())],
            config: Config::default(),
            file: A,
            at: Some((3, 17)),
        },
        a(Code::MissingFrontmatter, "# A\n\nBody\n".into(), 1, 1),
        a(
            Code::UnclosedFrontmatter,
            "---\nname: a\ndescription: d\n".into(),
            1,
            1,
        ),
        a(Code::EmptyFrontmatter, "---\n---\nBody\n".into(), 2, 1),
        a(
            Code::FrontmatterNotMapping,
            "---\n- name: a\n---\n".into(),
            2,
            1,
        ),
        a(
            Code::YamlSyntax,
            "---\nname: a\ndescription: [d\n---\n".into(),
            4,
            1,
        ),
        a(
            Code::UnquotedColon,
            "---\nname: a\ndescription: Use when: asked\n---\n".into(),
            3,
            22,
        ),
        a(
            Code::AnchorOrAlias,
            "---\nname: &n a\ndescription: *n\n---\n".into(),
            2,
            7,
        ),
        a(
            Code::Tag,
            "---\nname: !!str a\ndescription: d\n---\n".into(),
            2,
            7,
        ),
        a(
            Code::DuplicateKey,
            "---\nname: a\nname: a\ndescription: d\n---\n".into(),
            3,
            1,
        ),
        a(
            Code::TooDeep,
            with(&format!("x: {}{}\n", "[".repeat(100), "]".repeat(100))),
            4,
            4 + 63,
        ), // the root mapping is the first level
        a(Code::NonStringKey, with("1: one\n"), 4, 1),
        a(Code::MissingField, "---\nname: a\n---\n".into(), 2, 1),
        a(
            Code::WrongType,
            "---\nname: a\ndescription: 123\n---\n".into(),
            3,
            14,
        ),
        case(
            Code::NameCharacters,
            vec![(
                "skills/A_b/SKILL.md",
                "---\nname: A_b\ndescription: d\n---\n".into(),
            )],
            "skills/A_b/SKILL.md",
            Some((2, 7)),
        ),
        case(
            Code::NameTooLong,
            vec![(
                "skills/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/SKILL.md",
                format!("---\nname: {long_name}\ndescription: d\n---\n"),
            )],
            "skills/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/SKILL.md",
            Some((2, 7)),
        ),
        case(
            Code::NameHyphens,
            vec![(
                "skills/a--b/SKILL.md",
                "---\nname: a--b\ndescription: d\n---\n".into(),
            )],
            "skills/a--b/SKILL.md",
            Some((2, 7)),
        ),
        a(
            Code::NameMismatch,
            "---\nname: b\ndescription: d\n---\n".into(),
            2,
            7,
        ),
        a(
            Code::EmptyDescription,
            "---\nname: a\ndescription: \"\"\n---\n".into(),
            3,
            14,
        ),
        // An error where the specification is the promise; a warning elsewhere.
        config(
            a(
                Code::DescriptionTooLong,
                format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(1025)),
                3,
                14,
            ),
            |c| c.profile = skills_compiler::Profile::Portable,
        ),
        a(Code::Compatibility, with("compatibility: \"\"\n"), 4, 16),
        a(
            Code::Metadata,
            with("metadata:\n  owner: {team: infra}\n"),
            5,
            10,
        ),
        portable(a(
            Code::AllowedTools,
            with("allowed-tools: [Bash, Read]\n"),
            4,
            16,
        )),
        a(Code::UnknownKey, with("descripton: d\n"), 4, 1),
        portable(a(Code::NotPortable, with("tags: [x]\n"), 4, 1)),
        a(
            Code::EmptyName,
            "---\nname: \"\"\ndescription: d\n---\n".into(),
            2,
            7,
        ),
        a(
            Code::ReservedMetadataKey,
            with("metadata:\n  owner: me\n  io.modelcontextprotocol/skills: mine\n"),
            6,
            3,
        ),
        a(Code::Kind, with("kind: playbook\n"), 4, 7),
        a(
            Code::ProtocolIncomplete,
            with("kind: protocol\nsteps: [go]\n"),
            4,
            7,
        ),
        a(Code::ProtocolKeyOnSkill, with("steps: [go]\n"), 4, 1),
        a(Code::StringList, with("tags: [ok, \"\"]\n"), 4, 12),
        config(a(Code::Area, with("area: hobbies\n"), 4, 7), |c| {
            c.areas = Some(vec!["home".into()])
        }),
        a(Code::Version, with("version: 0\n"), 4, 10),
        case(
            Code::ToolsTwice,
            vec![
                (A, with("tools: []\n")),
                ("skills/a/tools.yaml", "tools: []\n".into()),
            ],
            A,
            Some((4, 8)),
        ),
        a(
            Code::ClientExtra,
            with("disable-model-invocation: \"yes\"\n"),
            4,
            27,
        ),
        a(Code::HostKeyValue, with("effort: extreme\n"), 4, 9),
        case(
            Code::CodexSidecar,
            vec![
                (A, VALID.into()),
                (
                    "skills/a/agents/openai.yaml",
                    "interface:\n  brand_color: blue\n".into(),
                ),
            ],
            "skills/a/agents/openai.yaml",
            Some((2, 16)),
        ),
        a(
            Code::HostKeysDisagree,
            with("background: true\n"),
            4,
            13,
        ),
        a(Code::HostKeyAlias, with("disallowedTools: Bash\n"), 4, 1),
        a(
            Code::SingleBracePlaceholder,
            tool("    parameters:\n      type: object\n      properties:\n        id: {type: string}\n    endpoint:\n      method: GET\n      url: https://api.example.com/items/{id}\n"),
            13,
            42,
        ),
        a(
            Code::UnusedParameter,
            tool("    parameters:\n      type: object\n      properties:\n        id: {type: string}\n    endpoint:\n      method: GET\n      url: https://api.example.com/items\n"),
            10,
            9,
        ),
        a(Code::ToolShape, with("tools:\n  - name: t\n"), 5, 5),
        a(
            Code::ToolName,
            with("tools:\n  - name: issues.create\n    description: d\n"),
            5,
            11,
        ),
        a(
            Code::DuplicateTool,
            with("tools:\n  - name: t\n    description: d\n  - name: t\n    description: d\n"),
            7,
            11,
        ),
        config(
            a(
                Code::ToolPrefixBudget,
                with(&format!(
                    "tools:\n  - name: {}\n    description: d\n",
                    "t".repeat(60)
                )),
                5,
                11,
            ),
            |c| c.tool_name_prefix_budget = 12,
        ),
        a(
            Code::SchemaRoot,
            tool("    parameters: {type: string}\n"),
            7,
            24,
        ),
        a(
            Code::SchemaUnsupported,
            tool(
                "    parameters:\n      type: object\n      properties:\n        x: {not: {type: string}}\n",
            ),
            10,
            13,
        ),
        a(
            Code::SchemaInvalid,
            tool(
                "    parameters:\n      type: object\n      properties:\n        x: {type: text}\n",
            ),
            10,
            19,
        ),
        a(
            Code::SchemaRequired,
            tool(
                "    parameters:\n      type: object\n      required: [title]\n      properties: {}\n",
            ),
            9,
            18,
        ),
        a(
            Code::SchemaRef,
            tool(
                "    parameters:\n      type: object\n      properties:\n        x: {$ref: \"https://e.com/s.json\"}\n",
            ),
            10,
            19,
        ),
        a(
            Code::EndpointMethod,
            tool("    endpoint: {method: FETCH, url: \"https://h.com/\"}\n"),
            7,
            24,
        ),
        a(
            Code::EndpointUrl,
            tool("    endpoint: {method: GET, url: /api}\n"),
            7,
            34,
        ),
        a(
            Code::UnknownPlaceholder,
            tool(
                "    parameters: {type: object, required: [repo], properties: {repo: {type: string}}}\n    endpoint:\n      method: GET\n      url: https://h.com/r/{{rpo}}\n",
            ),
            10,
            28,
        ),
        a(
            Code::PlaceholderInOrigin,
            tool(
                "    parameters: {type: object, properties: {host: {type: string}}}\n    endpoint:\n      method: GET\n      url: https://{{host}}/api\n",
            ),
            10,
            20,
        ),
        a(
            Code::OptionalPathPlaceholder,
            tool(
                "    parameters: {type: object, properties: {id: {type: string}}}\n    endpoint:\n      method: GET\n      url: https://h.com/i/{{id}}\n",
            ),
            10,
            28,
        ),
        a(
            Code::BodyTemplate,
            tool(
                "    parameters: {type: object, properties: {t: {type: string}}}\n    endpoint:\n      method: POST\n      url: https://h.com/i\n      body: '{\"t\": {{t}}'\n",
            ),
            11,
            25,
        ),
        a(
            Code::OptionalStringPlaceholder,
            tool(
                "    parameters: {type: object, properties: {u: {type: string}}}\n    endpoint:\n      method: POST\n      url: https://h.com/i\n      body: '{\"note\": \"by {{u}}\"}'\n",
            ),
            11,
            27,
        ),
        a(
            Code::CatalogCutsWhen,
            format!(
                "---\nname: a\ndescription: Deploys the app {}. Use when the user asks to ship.\n---\n",
                "and more ".repeat(30)
            ),
            3,
            14,
        ),
        portable(a(
            Code::DescriptionBytes,
            format!("---\nname: a\ndescription: Use when {}.\n---\n", "é".repeat(600)),
            3,
            14,
        )),
        a(
            Code::SkillLints,
            "---\nname: a\ndescription: Does a. Use when asked.\nmetadata:\n  skills-lints: allow S101\n---\n".into(),
            5,
            17,
        ),
        a(
            Code::PatternUnsupported,
            tool("    parameters: {type: object, properties: {u: {type: string, pattern: \"(?=a)\"}}}\n"),
            7,
            72,
        ),
        a(
            Code::Placeholder,
            tool("    endpoint:\n      method: GET\n      url: https://h.com/i/{{}}\n"),
            9,
            28,
        ),
        a(
            Code::EndpointShape,
            tool(
                "    endpoint:\n      method: GET\n      url: https://h.com/\n      headers: {}\n",
            ),
            10,
            7,
        ),
        a(
            Code::PlaceholderType,
            tool(
                "    parameters: {type: object, properties: {tags: {type: array, items: {type: string}}}}\n    endpoint:\n      method: GET\n      url: https://h.com/s?tags={{tags}}\n",
            ),
            10,
            33,
        ),
        a(
            Code::DefaultMode,
            with("permissions:\n  default_mode: open\n"),
            5,
            17,
        ),
        a(
            Code::UnknownPermissionTool,
            tool("permissions:\n  allow_write: [x]\n"),
            8,
            17,
        ),
        a(
            Code::ConflictingPermission,
            tool("permissions:\n  require_confirmation: [t]\n  allow_write: [t]\n"),
            9,
            17,
        ),
        a(Code::PermissionsShape, with("permissions: [t]\n"), 4, 14),
        case(
            Code::RootMissing,
            vec![("README.md", String::new())],
            "skills",
            None,
        ),
        case(
            Code::FileNameCase,
            vec![("skills/a/skill.md", with(""))],
            "skills/a/skill.md",
            None,
        ),
        case(
            Code::DuplicateSkill,
            vec![("skills/a.md", with("")), (A, with(""))],
            A,
            None,
        ),
        config(
            case(
                Code::TooManySkills,
                vec![
                    (A, with("")),
                    ("skills/b/SKILL.md", with("").replace("name: a", "name: b")),
                ],
                "skills",
                None,
            ),
            |c| c.max_skills = Some(1),
        ),
        config(
            a(
                Code::DocumentTooLarge,
                with(&format!("x-pad: {}\n", "x".repeat(200))),
                0,
                0,
            ),
            |c| c.max_document_chars = 100,
        ),
        config(
            a(
                Code::FrontmatterTooLarge,
                with(&format!("x-pad: {}\n", "x".repeat(200))),
                2,
                1,
            ),
            |c| c.max_frontmatter_bytes = 100,
        ),
        case(
            Code::Io,
            vec![("skills/a/SKILL.md/inner", String::new())],
            A,
            None,
        ),
        portable(case(
            Code::FlatLayout,
            vec![("skills/a.md", with(""))],
            "skills/a.md",
            None,
        )),
        case(
            Code::NoSkills,
            vec![("skills/acme/pdf/SKILL.md", VALID_PDF.into())],
            "skills",
            None,
        ),
        config(
            case(
                Code::TrustAnchor,
                vec![(A, VALID.into()), ("certs/vendor.pem", "not a certificate\n".into())],
                // Without the `signing` feature nothing can verify, and
                // the configuration is refused as a whole.
                if cfg!(feature = "signing") {
                    "certs/vendor.pem"
                } else {
                    "Cargo.toml"
                },
                None,
            ),
            |c| c.trust = vec!["certs/vendor.pem".into()],
        ),
        config(
            case(
                Code::LockFile,
                vec![
                    (A, VALID.into()),
                    ("skills-lock.json", "{\"version\": 2, \"skills\": {}}".into()),
                ],
                "skills-lock.json",
                None,
            ),
            |c| c.locked = true,
        ),
        config(
            case(
                Code::LockMismatch,
                vec![
                    (A, VALID.into()),
                    (
                        "skills-lock.json",
                        "{\n  \"version\": 1,\n  \"skills\": {\n    \"a\": {\n      \"source\": \"./a\",\n      \"sourceType\": \"local\",\n      \"computedHash\": \"00\"\n    }\n  }\n}\n".into(),
                    ),
                ],
                "skills-lock.json",
                Some((4, 5)),
            ),
            |c| c.locked = true,
        ),
        case(
            Code::CaseCollision,
            vec![
                (A, VALID.into()),
                ("skills/a/references/Guide.md", "a".into()),
                ("skills/a/references/guide.md", "b".into()),
            ],
            "skills/a/references/guide.md",
            None,
        ),
        case(
            Code::DirectoryWithoutSkill,
            vec![
                ("skills/notes/README.md", String::new()),
                ("skills/a/SKILL.md", VALID.into()),
            ],
            "skills/notes",
            None,
        ),
        case(
            Code::NonAsciiName,
            vec![(
                "skills/навык/SKILL.md",
                "---\nname: навык\ndescription: d\n---\n".into(),
            )],
            "skills/навык/SKILL.md",
            Some((2, 7)),
        ),
        a(
            Code::CommaSeparatedTools,
            with("allowed-tools: Bash, Read\n"),
            4,
            16,
        ),
        a(
            Code::ToolNameCase,
            with(
                "tools:\n  - name: Search\n    description: d\n  - name: search\n    description: d\n",
            ),
            7,
            11,
        ),
        lenient(a(
            Code::DerivedFrontmatter,
            "# Deploy\n\nDeploys the app.\n".into(),
            1,
            1,
        )),
        lenient(a(
            Code::DerivedDescriptionCut,
            format!("{}\n", "word ".repeat(600)),
            1,
            1,
        )),
        a(
            Code::PlaceholderDescription,
            "---\nname: a\ndescription: \"TODO: say what a does and when a model should use it.\"\n---\n".into(),
            3,
            14,
        ),
        a(
            Code::NoWhenToUse,
            "---\nname: a\ndescription: Deploys the app.\n---\n".into(),
            3,
            14,
        ),
        case(
            Code::SimilarDescriptions,
            vec![
                (A, "---\nname: a\ndescription: Formats SQL queries. Use when asked to format SQL.\n---\n".into()),
                ("skills/b/SKILL.md", "---\nname: b\ndescription: Format SQL queries; use it when asked to format SQL.\n---\n".into()),
            ],
            "skills/b/SKILL.md",
            Some((3, 14)),
        ),
        // A zero-width space in the description, after `Use when`.
        a(
            Code::HiddenText,
            "---\nname: a\ndescription: Use when\u{200b} testing.\n---\nBody\n".into(),
            3,
            22,
        ),
        // The body starts on line 5; its 501st line is the file's 505th.
        a(
            Code::LongBody,
            format!("---\nname: a\ndescription: Use when testing.\n---\n{}", "line\n".repeat(600)),
            505,
            1,
        ),
        config(
            a(
                Code::OverBudget,
                "---\nname: a\ndescription: Deploys the app to production. Use when the user asks to ship.\n---\n".into(),
                3,
                14,
            ),
            |c| {
                c.budget = Some(skills_compiler::BudgetConfig {
                    chars: Some(50),
                    hosts: Some(Vec::new()),
                    ..Default::default()
                })
            },
        ),
        config(
            case(
                Code::TooManyFiles,
                vec![(A, with("")), ("skills/a/1", "1".into()), ("skills/a/2", "2".into()), ("skills/a/3", "3".into())],
                "skills/a",
                None,
            ),
            |c| c.max_files = 2,
        ),
        config(
            case(
                Code::SkillTooLarge,
                vec![(A, with("")), ("skills/a/big.txt", "x".repeat(200))],
                "skills/a",
                None,
            ),
            |c| c.max_skill_bytes = 150,
        ),
        config(
            case(
                Code::SetTooLarge,
                vec![(A, with("")), ("skills/a/big.txt", "x".repeat(200))],
                "skills",
                None,
            ),
            |c| c.max_set_bytes = 150,
        ),
        case(
            Code::FilesTooDeep,
            vec![(A, with("")), (DEEP_FILE, "deep".into())],
            DEEP_FOLDER,
            None,
        ),
        // The body starts on line 5.
        a(Code::BrokenLink, body("See [the API](reference/api.md).\n"), 5, 15),
        a(Code::LinkOutsideRoot, body("See [the guide](../../guide.md).\n"), 5, 17),
        case(
            Code::LinkIntoOtherSkill,
            vec![
                (A, body("See\n[notes](../b/notes.md).\n")),
                ("skills/b/SKILL.md", "---\nname: b\ndescription: Does b. Use when testing.\n---\n".into()),
                ("skills/b/notes.md", "# Notes\n".into()),
            ],
            A,
            Some((6, 9)),
        ),
        a(Code::UnknownFragment, body("# Usage\n\nSee [usage](#usag).\n"), 7, 13),
        a(Code::MissingCodePath, body("Run `scripts/fill.py in.pdf`.\n"), 5, 6),
        portable(case(
            Code::UnlinkedReference,
            vec![(A, body("Body.\n")), ("skills/a/references/old.md", "# Old\n".into())],
            "skills/a/references/old.md",
            None,
        )),
    ]
}

/// A file 17 folders below the skill directory: one more than the bound.
const DEEP_FILE: &str = "skills/a/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/f";
/// The first folder past the bound, where S514 points.
const DEEP_FOLDER: &str = "skills/a/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d";

/// A SKILL.md for directory `a` whose body (from line 5) is `text`.
fn body(text: &str) -> String {
    format!(
        "---\nname: a\ndescription: {}\n---\n{text}",
        support::DESCRIPTION
    )
}

#[test]
fn every_code_lands_at_its_exact_location() {
    let mut failures = Vec::new();
    for case in cases() {
        let files: Vec<(&str, &[u8])> =
            case.files.iter().map(|(p, t)| (*p, t.as_slice())).collect();
        let tree = Tree::new(&files);
        let compilation = tree.compile(&case.config);
        let found = compilation.diagnostics.iter().find(|d| d.code == case.code);
        let Some(diagnostic) = found else {
            failures.push(format!(
                "{}: not reported; got {:?}",
                case.code,
                support::located(&compilation)
            ));
            continue;
        };
        let at = match case.at {
            Some((0, 0)) | None => None,
            Some(at) => Some(at),
        };
        let got = diagnostic
            .span
            .as_ref()
            .map(|s| (s.start.line, s.start.column));
        if diagnostic.file != case.file || got != at {
            failures.push(format!(
                "{}: expected {}:{:?}, got {}:{:?} ({})",
                case.code, case.file, at, diagnostic.file, got, diagnostic.message
            ));
        }
        let expected_severity = if case.code.as_str().starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        };
        if diagnostic.severity != expected_severity {
            failures.push(format!("{}: severity {:?}", case.code, diagnostic.severity));
        }
        if case.code.as_str().starts_with('S') && compilation.skills().is_some() {
            failures.push(format!(
                "{}: an error, yet the compilation produced skills",
                case.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Codes proven by tests elsewhere, because they need more than a file tree.
const PROVEN_ELSEWHERE: &[(Code, &str)] = &[
    (
        Code::BundleTooLarge,
        "cargo-skills pack::a_bundle_over_the_upload_limit_is_refused_before_any_is_written",
    ),
    (
        Code::SymlinkEscape,
        "discovery::a_symlink_leading_outside_the_root_is_refused",
    ),
    (
        Code::Config,
        "config::tests::unknown_keys_and_bad_values_are_diagnostics",
    ),
    (
        Code::FileSymlinkEscape,
        "files::a_symlink_leading_outside_the_skill_is_refused",
    ),
    (
        Code::FileLeftOut,
        "files::a_named_pipe_is_left_out_with_a_warning",
    ),
    (
        Code::AbsoluteRoot,
        "config::tests::an_absolute_root_is_refused_with_the_relative_path, build_output::an_absolute_root_is_refused_on_both_paths",
    ),
    (
        Code::LockEntryWithoutFiles,
        "cargo-skills hostile_round5::an_entry_without_per_file_lines_is_called_weaker_and_lock_adds_them (a lock beside a package)",
    ),
    (
        Code::HardLink,
        "cargo-skills hostile::links_and_ignored_files_do_not_leak_what_the_rules_leave_out (a hard link is no file tree)",
    ),
    (
        Code::CaseSyntax,
        "cargo-skills trigger::malformed_case_files_get_located_diagnostics_and_exit_2 (a case file is no skill file)",
    ),
    (
        Code::CaseShape,
        "cargo-skills trigger::malformed_case_files_get_located_diagnostics_and_exit_2",
    ),
    (
        Code::UnknownCaseSkill,
        "cargo-skills trigger::malformed_case_files_get_located_diagnostics_and_exit_2",
    ),
    (
        Code::DuplicateCaseId,
        "cargo-skills trigger::malformed_case_files_get_located_diagnostics_and_exit_2",
    ),
    (
        Code::CaseFileTooLarge,
        "cargo-skills trigger::malformed_case_files_get_located_diagnostics_and_exit_2",
    ),
    (
        Code::TriggerCaseFailed,
        "cargo-skills trigger::failing_cases_are_github_annotations_and_sarif_results (a run of cases)",
    ),
    (
        Code::CasesTakenByAnother,
        "cargo-skills trigger::descriptions_that_lose_their_cases_get_warnings_with_the_requests (from a run of cases)",
    ),
    (
        Code::NeverChosen,
        "cargo-skills trigger::descriptions_that_lose_their_cases_get_warnings_with_the_requests",
    ),
    (
        Code::SignatureTampered,
        "signing::each_changed_added_or_missing_file_is_named (a signature made with a key made by the test)",
    ),
    (
        Code::SignatureUntrusted,
        "signing::another_root_is_untrusted_and_the_chain_is_named, signing::certificates_that_may_not_sign_are_refused",
    ),
    (
        Code::SignatureMalformed,
        "signing::malformed_signatures_are_located (located in the bundle's JSON)",
    ),
    (
        Code::Unsigned,
        "cargo-skills signing::the_diagnostics_of_signed_skills (needs a trust anchor made by the test)",
    ),
    (
        Code::SkillLeftOutOfCatalogue,
        "cargo-skills routing_v2::a_case_for_a_skill_with_errors_fails_with_the_reason_and_the_run_goes_on (needs a trigger run)",
    ),
    (
        Code::RouteRecord,
        "cargo-skills trigger_models::verdicts_are_recorded_replayed_offline_and_go_stale_with_the_catalogue (a record written by a run against a local server)",
    ),
    (
        Code::CaseKeyWithoutEffect,
        "cargo-skills routing_v2::a_key_that_is_read_and_changes_nothing_is_a_located_warning (a case file read by a trigger run)",
    ),
    (
        Code::VendoredWarnings,
        "cargo-skills lock_round2::a_vendored_skills_warnings_are_one_line_unless_verbose (the CLI's summary of a vendored skill)",
    ),
];

#[test]
fn the_table_covers_every_code() {
    let tested: BTreeSet<Code> = cases()
        .iter()
        .map(|c| c.code)
        .chain(PROVEN_ELSEWHERE.iter().map(|(c, _)| *c))
        .collect();
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !tested.contains(c))
        .map(|c| c.as_str())
        .collect();
    assert!(missing.is_empty(), "codes without a test: {missing:?}");
}
