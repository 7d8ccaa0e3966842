//! `pattern` is enforced by the checker, exactly as ECMA-262 reads it, or
//! refused at build time (issue 24, item 4): what the README promises, that
//! `parse` accepts exactly what a JSON Schema validator accepts.

use proptest::prelude::*;
use serde_json::json;
use skills::loader::{Code, Loader};

/// A skill whose one tool takes `service`, a string with `pattern`.
fn skill_with(pattern: &str) -> String {
    format!(
        "---\nname: jobs\ndescription: Runs jobs. Use when asked to run one.\ntools:\n  - name: run_job\n    description: Runs a job.\n    parameters:\n      type: object\n      required: [service]\n      properties:\n        service: {{type: string, pattern: {}}}\n---\nBody.\n",
        serde_json::Value::String(pattern.to_owned())
    )
}

fn root(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skills-patterns-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("jobs")).unwrap();
    std::fs::write(dir.join("jobs/SKILL.md"), text).unwrap();
    dir
}

#[test]
fn a_value_that_breaks_the_pattern_is_refused_and_nothing_is_sent() {
    let dir = root("enforced", &skill_with("^[a-z]+$"));
    let set = Loader::new().load(&dir).unwrap().into_set();
    let (_, tool) = set.find_tool("run_job").unwrap();
    assert!(tool.parse(&json!({"service": "billing"})).is_ok());
    let error = tool
        .parse(&json!({"service": "BILLING; rm -rf"}))
        .unwrap_err();
    assert_eq!(error.path(), Some("service"));
    assert_eq!(
        error.to_string(),
        "invalid arguments for `run_job` at `service`: \"BILLING; rm -rf\" does not match the pattern `^[a-z]+$`"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the checker's engine cannot match as ECMA-262 does is a located
/// build error, never a pattern silently read another way.
#[test]
fn a_pattern_the_checker_cannot_match_exactly_is_refused_where_it_is_written() {
    for (pattern, why) in [
        ("^(?=a)", "lookahead"),
        ("(?<!a)b", "lookbehind"),
        ("(a)\\1", "backreference"),
        ("\\p{L}+", "Unicode property"),
        ("(?i)abc", "flag"),
        ("\\a", "escape"),
        ("[", "unterminated"),
    ] {
        let dir = root("refused", &skill_with(pattern));
        let error = Loader::new().load(&dir).unwrap_err();
        let found: Vec<_> = error
            .errors()
            .map(|d| (d.code, d.line(), d.column()))
            .collect();
        assert_eq!(
            found,
            [(Code::PatternUnsupported, Some(11), Some(42))],
            "{pattern}: {error}"
        );
        let message = error.to_string();
        assert!(message.contains(why), "{pattern}: {message}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A pattern in the supported subset, from pieces whose ECMA-262 meaning
/// is plain: literals (ASCII and not), classes, shorthands, `.`, anchors,
/// groups, alternation and every quantifier. `\b` is left out: `jsonschema`
/// reads it as Unicode's word boundary, where ECMA-262's (and the checker's)
/// is ASCII's, so next to `é` the two disagree and ECMA is right
/// (`skills-compiler`'s `pattern` tests hold that case).
fn pattern() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        "[a-cA-C0-2 _.-]".prop_map(|c| regex_escape(&c)),
        Just("é".to_owned()),
        Just("\\d".to_owned()),
        Just("\\D".to_owned()),
        Just("\\w".to_owned()),
        Just("\\W".to_owned()),
        Just("\\s".to_owned()),
        Just("\\S".to_owned()),
        Just(".".to_owned()),
        Just("[a-c]".to_owned()),
        Just("[^a-c]".to_owned()),
        Just("[\\d_]".to_owned()),
        Just("[\\s.-]".to_owned()),
        Just("\\u00e9".to_owned()),
        Just("\\x41".to_owned()),
        Just("\\.".to_owned()),
    ];
    let piece = (
        atom,
        prop_oneof![
            Just(""),
            Just("*"),
            Just("+"),
            Just("?"),
            Just("{2}"),
            Just("{1,3}"),
            Just("*?"),
        ],
    )
        .prop_map(|(atom, quantifier)| format!("{atom}{quantifier}"));
    let sequence = proptest::collection::vec(piece, 1..4).prop_map(|pieces| pieces.concat());
    (
        any::<bool>(),
        proptest::collection::vec(sequence, 1..3),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(start, alternatives, group, end)| {
            let body = alternatives.join("|");
            let body = if group { format!("({body})") } else { body };
            format!(
                "{}{body}{}",
                if start { "^" } else { "" },
                if end { "$" } else { "" }
            )
        })
}

fn regex_escape(c: &str) -> String {
    match c {
        "." | "-" => format!("\\{c}"),
        other => other.to_owned(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The checker and the `jsonschema` crate agree on every generated
    /// pattern and string: accepted by one exactly when by the other.
    #[test]
    fn patterns_agree_with_a_json_schema_validator(
        pattern in pattern(),
        values in proptest::collection::vec("[a-cA-C0-2 _.\\-é\t\n\r\u{a0}\u{2028}]{0,6}", 8),
    ) {
        let dir = root("property", &skill_with(&pattern));
        let loaded = Loader::new().load(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        let set = match loaded {
            Ok(loaded) => loaded.into_set(),
            Err(error) => return Err(TestCaseError::fail(format!("{pattern} refused: {error}"))),
        };
        let (_, tool) = set.find_tool("run_job").unwrap();
        let schema = json!({"type": "string", "pattern": pattern});
        let validator = jsonschema::validator_for(&schema).unwrap();
        for value in values {
            let ours = tool.parse(&json!({"service": value})).is_ok();
            let theirs = validator.is_valid(&json!(value));
            prop_assert_eq!(ours, theirs, "pattern {:?} on {:?}", pattern, value);
        }
    }
}
