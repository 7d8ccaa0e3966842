//! The Agent Skills reference validator's own cases, in the `portable` profile.
//! Each case is a real directory; the verdict and the code are the spec's.

mod support;

use skills_compiler::{Code, Severity, compile_skill};
use support::{Tree, portable};

/// Validates `skills/<dir>/SKILL.md` holding `text`; returns the error codes.
fn errors(dir: &str, text: &str) -> Vec<Code> {
    let path = format!("skills/{dir}/SKILL.md");
    let tree = Tree::new(&[(&path, text.as_bytes())]);
    let compilation = compile_skill(&tree.dir, format!("skills/{dir}").as_ref(), &portable());
    let errors: Vec<Code> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code)
        .collect();
    assert_eq!(compilation.skills().is_some(), errors.is_empty());
    errors
}

fn skill(name: &str, rest: &str) -> String {
    format!("---\nname: {name}\ndescription: A test skill\n{rest}---\n# Body\n")
}

#[test]
fn valid_minimal_skill() {
    assert_eq!(errors("my-skill", &skill("my-skill", "")), []);
}

#[test]
fn missing_and_unclosed_frontmatter() {
    assert_eq!(
        errors("my-skill", "# No frontmatter\n"),
        [Code::MissingFrontmatter]
    );
    assert_eq!(
        errors(
            "my-skill",
            "---\nname: my-skill\ndescription: A test skill\n"
        ),
        [Code::UnclosedFrontmatter]
    );
}

#[test]
fn invalid_yaml_and_non_mapping_frontmatter() {
    assert_eq!(
        errors(
            "my-skill",
            "---\nname: [invalid\ndescription: broken\n---\n"
        ),
        [Code::YamlSyntax]
    );
    assert_eq!(
        errors("my-skill", "---\n- just\n- a list\n---\n"),
        [Code::FrontmatterNotMapping]
    );
}

#[test]
fn missing_name_or_description() {
    assert_eq!(
        errors("my-skill", "---\ndescription: A test skill\n---\n"),
        [Code::MissingField]
    );
    assert_eq!(
        errors("my-skill", "---\nname: my-skill\n---\n"),
        [Code::MissingField]
    );
}

#[test]
fn name_rules() {
    assert_eq!(
        errors("MySkill", &skill("MySkill", "")),
        [Code::NameCharacters]
    );
    let long = "a".repeat(70);
    assert_eq!(errors(&long, &skill(&long, "")), [Code::NameTooLong]);
    assert_eq!(
        errors("-my-skill", &skill("-my-skill", "")),
        [Code::NameHyphens]
    );
    assert_eq!(
        errors("my--skill", &skill("my--skill", "")),
        [Code::NameHyphens]
    );
    assert_eq!(
        errors("my_skill", &skill("my_skill", "")),
        [Code::NameCharacters]
    );
    assert_eq!(
        errors("wrong-name", &skill("correct-name", "")),
        [Code::NameMismatch]
    );
}

#[test]
fn unexpected_fields() {
    assert_eq!(
        errors(
            "my-skill",
            &skill("my-skill", "unknown_field: should not be here\n")
        ),
        [Code::NotPortable]
    );
}

#[test]
fn all_optional_fields_and_allowed_tools() {
    let optional = "license: MIT\nmetadata:\n  author: Test\ncompatibility: Requires Python 3.11+\nallowed-tools: Bash(git:*) Read\n";
    assert_eq!(errors("my-skill", &skill("my-skill", optional)), []);
    assert_eq!(
        errors(
            "my-skill",
            &skill("my-skill", "allowed-tools: Bash(jq:*) Bash(git:*)\n")
        ),
        []
    );
}

#[test]
fn unicode_names() {
    assert_eq!(errors("技能", &skill("技能", "")), []);
    assert_eq!(errors("мой-навык", &skill("мой-навык", "")), []);
    assert_eq!(errors("навык", &skill("навык", "")), []);
    assert_eq!(errors("НАВЫК", &skill("НАВЫК", "")), [Code::NameCharacters]);
}

#[test]
fn description_and_compatibility_lengths() {
    let long = format!(
        "---\nname: my-skill\ndescription: {}\n---\n",
        "x".repeat(1100)
    );
    assert_eq!(errors("my-skill", &long), [Code::DescriptionTooLong]);
    assert_eq!(
        errors(
            "my-skill",
            &skill("my-skill", "compatibility: Requires Python 3.11+\n")
        ),
        []
    );
    let compat = format!("compatibility: {}\n", "x".repeat(550));
    assert_eq!(
        errors("my-skill", &skill("my-skill", &compat)),
        [Code::Compatibility]
    );
}

#[test]
fn nfd_name_in_an_nfc_directory() {
    // `café` with a combining acute accent in the name, precomposed in the directory.
    let nfd = "cafe\u{301}";
    let nfc = "caf\u{e9}";
    assert_eq!(errors(nfc, &skill(nfd, "")), []);
}
