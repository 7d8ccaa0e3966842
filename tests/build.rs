//! Tracks the skills directories the tests embed, and says, visibly, when the
//! corpus beside the repository is missing: a fresh clone has no `../shared`,
//! and the corpus tests then skip themselves.

use std::path::Path;

fn main() {
    // The tests embed these directories with `include_skills!`; a new file in
    // them must re-expand the macro (Cargo scans a directory recursively).
    for dir in ["fixtures", "ui/skills", "../examples/issue-tracker/skills"] {
        skills_build::track(dir);
    }
    let corpus =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/anthropics-skills");
    println!("cargo::rerun-if-changed={}", corpus.display());
    if !corpus.is_dir() {
        println!(
            "cargo::warning=the corpus is not at ../shared/corpus/anthropics-skills: the corpus tests will be skipped"
        );
    }
}
