//! W009 on pairs of descriptions: the ones a model cannot tell apart are
//! flagged, the ones that differ in a telling word are not (issue 23,
//! item 11).

use skills_compiler::{Config, SkillFiles, compile_files, similar_descriptions};

fn skill(name: &str, description: &str) -> SkillFiles {
    SkillFiles {
        dir: None,
        path: format!("skills/{name}/SKILL.md"),
        directory: name.to_owned(),
        bytes: format!("---\nname: {name}\ndescription: {description:?}\n---\nBody\n").into_bytes(),
        tools_yaml: None,
    }
}

fn flagged(first: &str, second: &str) -> bool {
    let compilation = compile_files(
        vec![skill("a", first), skill("b", second)],
        &Config::default(),
    );
    assert!(!compilation.has_errors(), "{first} / {second}");
    !similar_descriptions(&compilation.valid.skills).is_empty()
}

#[test]
fn near_duplicates_a_model_cannot_tell_apart_are_flagged() {
    for (first, second) in [
        (
            "Merge several PDF files into one document. Use when the user wants to combine PDFs.",
            "Merge several PDF files into a single document. Use when the user wants to combine PDF files.",
        ),
        (
            "Formats SQL queries. Use when asked to format SQL.",
            "Format SQL queries; use it when asked to format SQL.",
        ),
        (
            "Creates a new React component with tests. Use when the user needs a component.",
            "Create new React components with their tests. Use whenever a user asks for a component.",
        ),
    ] {
        assert!(
            flagged(first, second),
            "not flagged:\n  {first}\n  {second}"
        );
    }
}

#[test]
fn descriptions_that_differ_in_a_telling_word_are_not_flagged() {
    for (first, second) in [
        (
            "Query MySQL databases and explain slow queries. Use when the user asks about MySQL.",
            "Query PostgreSQL databases and explain slow queries. Use when the user asks about PostgreSQL.",
        ),
        (
            "Merge several PDF files into one document. Use when the user wants to combine PDFs.",
            "Split one PDF file into several documents. Use when the user wants to split a PDF.",
        ),
        (
            "Deploy the app to staging. Use when the user asks to ship to staging.",
            "Deploy the app to production. Use when the user asks to ship to production.",
        ),
        (
            "Read Excel spreadsheets. Use when the user shares an .xlsx file.",
            "Write Excel spreadsheets. Use when the user wants an .xlsx file.",
        ),
    ] {
        assert!(!flagged(first, second), "flagged:\n  {first}\n  {second}");
    }
}
