//! Lint levels reach `cargo build` (issue 24, item 5): a warning from a
//! vendored skill fails a crate built with warnings denied, and allowing
//! that one code, in the macro or in the manifest, lets it build. Real
//! builds of a temporary crate.
//!
//! `#![deny(warnings)]` in the crate stands for `RUSTFLAGS="-D warnings"`:
//! both make the crate's own warnings (the macro's deprecation carriers)
//! errors, and the attribute does not rebuild every dependency.

use skills_tests::{TempCrate, manifest};

fn krate(name: &str, manifest_lints: &str, options: &str) -> TempCrate {
    let manifest = format!("{}{manifest_lints}", manifest(name, "skills", false));
    let main = format!(
        "#![deny(warnings)]\nmod agent {{\n    skills::include_skills!(\"skills\", track = false{options});\n}}\n\nfn main() {{\n    print!(\"{{}}\", agent::SKILLS.len());\n}}\n"
    );
    TempCrate::new(
        name,
        &[
            ("Cargo.toml", &manifest),
            ("src/main.rs", &main),
            // W008: the description never says when to use the skill.
            (
                "skills/vendored/SKILL.md",
                "---\nname: vendored\ndescription: Formats release notes.\n---\nBody.\n",
            ),
        ],
    )
}

fn build(krate: &TempCrate) -> (bool, String) {
    let output = krate.cargo(&["build"]);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn an_allowed_lint_no_longer_fails_a_build_that_denies_warnings() {
    let denied = krate("levels-denied", "", "");
    let (ok, stderr) = build(&denied);
    assert!(
        !ok,
        "W008 must fail a build with warnings denied:\n{stderr}"
    );
    assert!(stderr.contains("W008"), "{stderr}");

    let by_option = krate("levels-option", "", ", lints = [\"allow W008\"]");
    let (ok, stderr) = build(&by_option);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("W008"), "{stderr}");

    let by_manifest = krate(
        "levels-manifest",
        "\n[package.metadata.skills.lints]\nW008 = \"allow\"\n",
        "",
    );
    let (ok, stderr) = build(&by_manifest);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("W008"), "{stderr}");
}
