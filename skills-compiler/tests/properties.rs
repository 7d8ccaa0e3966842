//! Property tests: no input makes the compiler panic, and every input yields
//! either a skill or at least one located error that every renderer can print.

use proptest::prelude::*;
use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::ir::Skill;
use skills_compiler::{Config, Diagnostic, Profile, SkillFiles, Sources, compile_files};

const VALID: &str = include_str!("../../examples/issue-tracker/skills/github-issues/SKILL.md");
const PROTOCOL: &str = include_str!("../../examples/issue-tracker/skills/triage-protocol/SKILL.md");

/// Bytes that matter to the framing, YAML, templates and UTF-8 decoding.
const SIGNIFICANT: &[&[u8]] = &[
    b":",
    b": ",
    b"-",
    b"---\n",
    b"'",
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b"&a",
    b"*a",
    b"!!",
    b"\n",
    b"\r\n",
    b" ",
    b"\t",
    b"#",
    b"|",
    b">",
    b"{{",
    b"}}",
    b"?",
    b",",
    b"\xff",
    b"\xc3",
    b"\xef\xbb\xbf",
    b"%",
];

#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Replace(usize, Vec<u8>),
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop_oneof![
        prop::sample::select(SIGNIFICANT).prop_map(<[u8]>::to_vec),
        prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop_oneof![
        (any::<usize>(), piece.clone()).prop_map(|(at, bytes)| Edit::Insert(at, bytes)),
        (any::<usize>(), 1..8usize).prop_map(|(at, len)| Edit::Delete(at, len)),
        (any::<usize>(), piece).prop_map(|(at, bytes)| Edit::Replace(at, bytes)),
    ]
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for edit in edits {
        let len = bytes.len().max(1);
        match edit {
            Edit::Insert(at, piece) => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, piece.iter().copied());
            }
            Edit::Delete(at, n) => {
                let at = at % len;
                let end = (at + n).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            Edit::Replace(at, piece) => {
                let at = at % len;
                let end = (at + piece.len()).min(bytes.len());
                bytes.splice(at.min(end)..end, piece.iter().copied());
            }
        }
    }
    bytes
}

fn profile() -> impl Strategy<Value = Profile> {
    prop::sample::select(vec![Profile::Portable, Profile::Extended, Profile::Lenient])
}

/// One skill through the whole pipeline, from memory.
fn validate(files: SkillFiles, config: &Config) -> (Option<Skill>, Vec<Diagnostic>, Sources) {
    let compilation = compile_files(vec![files], config);
    let skill = compilation
        .valid
        .skills
        .into_iter()
        .next()
        .map(std::sync::Arc::unwrap_or_clone);
    (skill, compilation.diagnostics, compilation.sources)
}

/// Compiles one skill from memory and checks the invariants.
fn check(
    bytes: Vec<u8>,
    tools_yaml: Option<Vec<u8>>,
    profile: Profile,
) -> Result<(), TestCaseError> {
    let config = Config {
        profile,
        ..Config::default()
    };
    let files = SkillFiles {
        dir: None,
        path: "skills/github-issues/SKILL.md".into(),
        directory: "github-issues".into(),
        bytes,
        tools_yaml: tools_yaml.map(|bytes| ("skills/github-issues/tools.yaml".to_owned(), bytes)),
    };
    let (skill, diagnostics, sources) = validate(files, &config);
    let has_error = diagnostics.iter().any(Diagnostic::is_error);
    prop_assert!(
        skill.is_some() != has_error,
        "a skill xor an error: {diagnostics:?}"
    );
    for diagnostic in &diagnostics {
        prop_assert!(diagnostic.file.starts_with("skills/github-issues/"));
        if let (Some(span), Some(source)) = (&diagnostic.span, sources.get(&diagnostic.file)) {
            prop_assert!(span.bytes.end <= source.text().len());
            prop_assert!(span.start.line >= 1 && span.start.column >= 1);
            prop_assert!(source.text().is_char_boundary(span.bytes.start));
        }
        // Every renderer copes with every diagnostic.
        let human = render::human(diagnostic, &sources, Color::Never);
        prop_assert!(human.contains(diagnostic.code.as_str()));
        let json: serde_json::Value =
            serde_json::from_str(&render::json(diagnostic, &sources)).unwrap();
        prop_assert_eq!(json["code"].as_str(), Some(diagnostic.code.as_str()));
        prop_assert!(render::short(diagnostic).contains(diagnostic.code.as_str()));
        prop_assert!(!render::github(diagnostic).contains('\n'));
        let rustc: serde_json::Value =
            serde_json::from_str(&render::rustc_json(diagnostic, &sources)).unwrap();
        prop_assert_eq!(
            rustc["code"]["code"].as_str(),
            Some(diagnostic.code.as_str())
        );
    }
    Ok(())
}

/// 512 per property in CI; `PROPTEST_CASES=100000` for a longer hunt.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), profile in profile()) {
        check(bytes, None, profile)?;
    }

    #[test]
    fn random_bytes_after_a_fence_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), profile in profile()) {
        let mut text = b"---\n".to_vec();
        text.extend(bytes);
        text.extend(b"\n---\nbody\n");
        check(text, None, profile)?;
    }

    #[test]
    fn mutations_of_valid_files_never_panic(
        edits in prop::collection::vec(edit(), 1..6),
        protocol in any::<bool>(),
        profile in profile(),
    ) {
        let base = if protocol { PROTOCOL } else { VALID };
        check(apply(base.as_bytes().to_vec(), &edits), None, profile)?;
    }

    #[test]
    fn mutations_of_a_sidecar_tools_yaml_never_panic(
        edits in prop::collection::vec(edit(), 1..6),
        profile in profile(),
        without_frontmatter in any::<bool>(),
    ) {
        let (front, tools) = VALID.split_once("tools:\n").unwrap();
        let (tools, _) = tools.split_once("---\n").unwrap();
        // A skill without frontmatter is derived in `lenient`: the sidecar matters there too.
        let skill = if without_frontmatter { "Deploys the app.\n".to_owned() } else { format!("{front}---\nBody\n") };
        let sidecar = apply(format!("tools:\n{tools}").into_bytes(), &edits);
        check(skill.into_bytes(), Some(sidecar), profile)?;
    }
}

#[test]
fn the_unmutated_bases_are_valid() {
    for base in [VALID, PROTOCOL] {
        let files = SkillFiles {
            dir: None,
            path: "skills/x/SKILL.md".into(),
            directory: if base == VALID {
                "github-issues"
            } else {
                "triage-protocol"
            }
            .into(),
            bytes: base.as_bytes().to_vec(),
            tools_yaml: None,
        };
        let (skill, diagnostics, _) = validate(files, &Config::default());
        assert!(skill.is_some(), "{diagnostics:?}");
    }
}

/// Found by `cargo fuzz`: in the lenient profile, a skill without frontmatter
/// whose tools.yaml is not valid YAML was accepted, its tools silently dropped.
#[test]
fn an_unreadable_sidecar_fails_a_derived_skill_too() {
    let files = SkillFiles {
        dir: None,
        path: "skills/github-issues/SKILL.md".into(),
        directory: "github-issues".into(),
        bytes: b"Deploys the app.
"
        .to_vec(),
        tools_yaml: Some((
            "skills/github-issues/tools.yaml".into(),
            b"tools: [unclosed
"
            .to_vec(),
        )),
    };
    let lenient = Config {
        profile: Profile::Lenient,
        ..Config::default()
    };
    let (skill, diagnostics, _) = validate(files, &lenient);
    assert!(skill.is_none());
    assert!(
        diagnostics
            .iter()
            .any(|d| d.is_error() && d.file.ends_with("tools.yaml")),
        "{diagnostics:?}"
    );
    // The same with a tools.yaml that parses but holds an unknown key.
    let files = SkillFiles {
        dir: None,
        path: "skills/github-issues/SKILL.md".into(),
        directory: "github-issues".into(),
        bytes: b"Deploys the app.\n".to_vec(),
        tools_yaml: Some((
            "skills/github-issues/tools.yaml".into(),
            b"in comments: the reporter\n".to_vec(),
        )),
    };
    let (skill, diagnostics, _) = validate(files, &lenient);
    assert!(skill.is_none(), "{diagnostics:?}");
    // And an empty tools.yaml declares nothing, in every profile.
    for profile in [Profile::Portable, Profile::Extended, Profile::Lenient] {
        let files = SkillFiles {
            dir: None,
            path: "skills/github-issues/SKILL.md".into(),
            directory: "github-issues".into(),
            bytes: b"---\nname: github-issues\ndescription: d\n---\nBody\n".to_vec(),
            tools_yaml: Some(("skills/github-issues/tools.yaml".into(), Vec::new())),
        };
        let config = Config {
            profile,
            ..Config::default()
        };
        let (skill, diagnostics, _) = validate(files, &config);
        assert!(skill.is_some_and(|s| s.tools.is_empty()), "{diagnostics:?}");
    }
}

/// A SKILL.md whose frontmatter does not parse and a tools.yaml that does
/// not parse: both files' problems are reported at once, each quotable, so
/// that fixing the first does not reveal the second a build later.
#[test]
fn a_broken_sidecar_is_reported_beside_a_broken_frontmatter() {
    let files = SkillFiles {
        dir: None,
        path: "skills/github-issues/SKILL.md".into(),
        directory: "github-issues".into(),
        bytes: b"---\nname: [unclosed\n---\nBody\n".to_vec(),
        tools_yaml: Some((
            "skills/github-issues/tools.yaml".into(),
            b"tools: [unclosed\n".to_vec(),
        )),
    };
    let (skill, diagnostics, sources) = validate(files, &Config::default());
    assert!(skill.is_none());
    for file in ["SKILL.md", "tools.yaml"] {
        let problem = diagnostics
            .iter()
            .find(|d| d.is_error() && d.file.ends_with(file))
            .unwrap_or_else(|| panic!("no error in {file}: {diagnostics:?}"));
        assert!(
            sources.get(&problem.file).is_some(),
            "{file} cannot be quoted"
        );
    }
}

/// Found by the sidecar property in CI: a character that does not show in a
/// tools.yaml parameter description is an error in `portable` (W012), yet
/// the skill was still handed out as valid. An error in any file of a skill
/// makes the skill invalid, whichever stage found it.
#[test]
fn an_error_found_by_a_lint_leaves_no_valid_skill() {
    let (front, tools) = VALID.split_once("tools:\n").unwrap();
    let (tools, _) = tools.split_once("---\n").unwrap();
    let sidecar = format!("tools:\n{tools}").replace("owner/name", "owner/\u{1}name");
    for (profile, fails) in [
        (Profile::Portable, true),
        (Profile::Extended, false),
        (Profile::Lenient, false),
    ] {
        let files = SkillFiles {
            dir: None,
            path: "skills/github-issues/SKILL.md".into(),
            directory: "github-issues".into(),
            bytes: format!("{front}---\nBody\n").into_bytes(),
            tools_yaml: Some((
                "skills/github-issues/tools.yaml".into(),
                sidecar.clone().into_bytes(),
            )),
        };
        let config = Config {
            profile,
            ..Config::default()
        };
        let (skill, diagnostics, _) = validate(files, &config);
        let w012 = diagnostics
            .iter()
            .find(|d| d.code.as_str() == "W012")
            .unwrap_or_else(|| panic!("{profile:?}: no W012 in {diagnostics:?}"));
        assert_eq!(w012.is_error(), fails, "{profile:?}");
        assert_eq!(skill.is_none(), fails, "{profile:?}: {diagnostics:?}");
    }
}
