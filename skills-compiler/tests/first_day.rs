//! What a newcomer tripped on (issue 24, item 6), compiler side: each
//! diagnostic says the right thing once, in every format.

use skills_compiler::diagnostics::render;
use skills_compiler::{Code, Config, SkillFiles, compile_files};

fn diagnostics(text: &str) -> Vec<skills_compiler::Diagnostic> {
    let files = SkillFiles {
        dir: None,
        path: "skills/a/SKILL.md".into(),
        directory: "a".into(),
        bytes: text.as_bytes().to_vec(),
        tools_yaml: None,
    };
    compile_files(vec![files], &Config::default()).diagnostics
}

#[test]
fn an_unterminated_quoted_value_is_told_to_close_it_not_to_quote_it() {
    let found = diagnostics("---\nname: a\ndescription: \"Does a. Use when asked.\n---\nBody\n");
    let s006 = found.iter().find(|d| d.code == Code::YamlSyntax).unwrap();
    let help = s006.help.as_deref().unwrap();
    assert!(help.starts_with("close the quoted value"), "{help}");
}

#[test]
fn a_misspelled_required_key_is_one_error_that_says_both() {
    let found = diagnostics("---\nname: a\ndescripton: Does a. Use when asked.\n---\nBody\n");
    let errors: Vec<_> = found.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{found:?}");
    assert_eq!(errors[0].code, Code::UnknownKey);
    assert!(
        errors[0].message.contains("`description` is required"),
        "{}",
        errors[0].message
    );
    assert_eq!(
        errors[0].fix.as_ref().and_then(|f| f.replacement()),
        Some("description")
    );
    // Missing with no key that misspells it: the missing-field error.
    let found = diagnostics("---\nname: a\n---\nBody\n");
    assert!(found.iter().any(|d| d.code == Code::MissingField));
}

#[test]
fn the_github_format_keeps_the_advice_of_codes_whose_advice_is_a_fix_it() {
    let found = diagnostics("---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n");
    let s007 = found
        .iter()
        .find(|d| d.code == Code::UnquotedColon)
        .unwrap();
    let line = render::github(s007);
    assert!(
        line.contains("%0Ahelp: quote the value: `description: \"Does a. Use when: asked\"`"),
        "{line}"
    );
}

#[test]
fn errors_end_with_where_to_read_more() {
    let one: std::collections::BTreeSet<Code> = [Code::UnquotedColon].into();
    assert_eq!(
        render::explain_footer(&one).unwrap(),
        "For more information about this error, try `cargo skills explain S007`."
    );
    let two: std::collections::BTreeSet<Code> = [Code::UnknownKey, Code::MissingField].into();
    assert_eq!(
        render::explain_footer(&two).unwrap(),
        "Some errors have detailed explanations: S101, S112.\nFor more information about an error, try `cargo skills explain S101`."
    );
    assert!(render::explain_footer(&Default::default()).is_none());
}

/// W020 is the description's: a long multibyte `compatibility` is not
/// reported as a description (its own limit is 500 characters).
#[test]
fn only_the_description_is_measured_in_bytes_for_zed() {
    let files = SkillFiles {
        dir: None,
        path: "skills/a/SKILL.md".into(),
        directory: "a".into(),
        bytes: format!(
            "---\nname: a\ndescription: Does a. Use when asked.\ncompatibility: {}\n---\nBody\n",
            "€".repeat(400)
        )
        .into_bytes(),
        tools_yaml: None,
    };
    let config = Config {
        profile: skills_compiler::Profile::Portable,
        ..Config::default()
    };
    let found = compile_files(vec![files], &config).diagnostics;
    assert!(
        found.iter().all(|d| d.code != Code::DescriptionBytes),
        "{found:?}"
    );
}
