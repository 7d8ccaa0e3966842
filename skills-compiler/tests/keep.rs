//! What a compilation keeps of its valid skills (`Config::keep`): one made
//! for a check lets each body go once the skill is checked, and finds and
//! renders exactly what a full compilation does (issue 44, item 1).

mod support;

use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::{Code, Compilation, Config, Keep};
use support::Tree;

/// Every diagnostic as `check` prints it, snippets included.
fn rendered(compilation: &Compilation) -> Vec<String> {
    compilation
        .diagnostics
        .iter()
        .map(|diagnostic| render::human(diagnostic, &compilation.sources, Color::Never))
        .collect()
}

#[test]
fn a_compilation_for_a_check_finds_and_renders_what_a_full_one_does_and_keeps_no_body() {
    let body = "# Steps\n\nRead the request and follow each step in order.\n".repeat(40);
    let skill = |name: &str, description: &str| {
        format!("---\nname: {name}\ndescription: {description}\n---\n{body}")
    };
    let tree = Tree::new(&[
        // W009, on a valid skill: reported and quoted from its head.
        (
            "skills/merge/SKILL.md",
            skill(
                "merge",
                "Merge several PDF files into one document. Use when the user wants to combine PDFs.",
            )
            .as_bytes(),
        ),
        (
            "skills/merge-pdf/SKILL.md",
            skill(
                "merge-pdf",
                "Merge several PDF files into a single document. Use when the user wants to combine PDF files.",
            )
            .as_bytes(),
        ),
        // An invalid skill beside them.
        (
            "skills/broken/SKILL.md",
            b"---\nname: other\ndescription: Does b. Use when testing.\n---\nBody\n",
        ),
    ]);
    // The set's limit by size counts the bodies let go (S522).
    let full = Config {
        max_set_bytes: 2_000,
        ..Config::default()
    };
    let check = Config {
        keep: Keep::Checks,
        ..full.clone()
    };
    let full = tree.compile(&full);
    let check = tree.compile(&check);

    assert_eq!(check.diagnostics, full.diagnostics);
    assert_eq!(rendered(&check), rendered(&full));
    let codes: Vec<Code> = check.diagnostics.iter().map(|d| d.code).collect();
    for code in [
        Code::SimilarDescriptions,
        Code::SetTooLarge,
        Code::NameMismatch,
    ] {
        assert!(codes.contains(&code), "{code:?} not in {codes:?}");
    }
    let quoted = rendered(&check)
        .into_iter()
        .find(|text| text.contains("W009"))
        .unwrap();
    assert!(quoted.contains("a single document"), "{quoted}");

    assert_eq!(check.valid.skills.len(), 2);
    for (kept, whole) in check.valid.skills.iter().zip(&full.valid.skills) {
        assert_eq!(kept.name(), whole.name());
        assert_eq!(kept.description(), whole.description());
        assert_eq!(kept.head(), whole.head());
        assert_eq!(kept.body(), "");
        assert_eq!(whole.body(), body);
    }
}
