//! A configured context budget, with a real cargo: over budget fails the
//! build at the description that pushes the catalog over (`level = "deny"`),
//! on the build-script path and on the macro path; `warn` builds, and the
//! warning reaches rustc's output on the macro path.

use skills_tests::{TempCrate, crates_in_tree, manifest};

fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n")
}

/// A crate with two skills whose catalog lines are 49 and 54 characters,
/// against a plain budget of 60 characters: `beta` pushes it over.
fn over_budget_crate(name: &str, level: &str, macro_path: bool) -> TempCrate {
    let (build_rs, module) = if macro_path {
        (
            "fn main() {\n    skills_build::track(\"skills\");\n}\n",
            "mod agent {\n    skills::include_skills!(\"skills\");\n}\n",
        )
    } else {
        (
            "fn main() {\n    skills_build::compile(\"skills\");\n}\n",
            "mod agent {\n    include!(concat!(env!(\"OUT_DIR\"), \"/skills.rs\"));\n}\n",
        )
    };
    let manifest = format!(
        "{}\n[package.metadata.skills.budget]\nhosts = []\nchars = 60\nlevel = \"{level}\"\n",
        manifest(name, "skills", true)
    );
    let main =
        format!("{module}\nfn main() {{\n    print!(\"{{}}\", agent::SKILLS.catalog());\n}}\n");
    TempCrate::new(
        name,
        &[
            ("Cargo.toml", &manifest),
            ("build.rs", build_rs),
            ("src/main.rs", &main),
            (
                "skills/alpha/SKILL.md",
                &skill("alpha", "Says hello. Use when greeting people."),
            ),
            (
                "skills/beta/SKILL.md",
                &skill("beta", "Says goodbye. Use when people are leaving."),
            ),
        ],
    )
}

/// Not `--quiet`: cargo prints a build script's warnings only without it.
fn build(krate: &TempCrate) -> (bool, String) {
    let output = krate.cargo(&["build"]);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_denied_budget_fails_the_build_at_the_description_that_passes_it() {
    for macro_path in [false, true] {
        let krate = over_budget_crate("budget-deny", "deny", macro_path);
        let (ok, stderr) = build(&krate);
        assert!(!ok, "macro path: {macro_path}\n{stderr}");
        assert!(
            stderr.contains("error[W011]: with this description the catalog passes the configured budget of 60 characters"),
            "macro path: {macro_path}\n{stderr}"
        );
        assert!(
            stderr.contains("--> skills/beta/SKILL.md:3:14"),
            "macro path: {macro_path}\n{stderr}"
        );
        assert!(
            stderr.contains("3 | description: Says goodbye. Use when people are leaving."),
            "macro path: {macro_path}\n{stderr}"
        );
    }
}

#[test]
fn a_warned_budget_builds_and_the_macro_path_shows_the_warning() {
    let krate = over_budget_crate("budget-warn", "warn", true);
    let (ok, stderr) = build(&krate);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("skills/beta/SKILL.md:3:14: warning[W011]"),
        "{stderr}"
    );
    let krate = over_budget_crate("budget-warn-build-rs", "warn", false);
    let (ok, stderr) = build(&krate);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("warning[W011]"), "{stderr}");
}

/// Exact token counts are the CLI's optional feature: the tokenizer is in no
/// other crate's tree, and in the CLI's only with the feature (so the check
/// can fail).
#[test]
fn the_tokenizer_is_in_the_cli_only_and_only_with_its_feature() {
    let tree = |package, features: &[&str]| crates_in_tree(package, "normal,build", features);
    for package in [
        "skills-core",
        "skills-runtime",
        "skills-macros",
        "skills-build",
        "skills-compiler",
    ] {
        let crates = tree(package, &[]);
        assert!(crates.iter().any(|c| c == package), "{package}: {crates:?}");
        assert!(
            !crates.iter().any(|c| c == "bpe-openai"),
            "{package} links the tokenizer"
        );
    }
    assert!(!tree("cargo-skills", &[]).iter().any(|c| c == "bpe-openai"));
    assert!(
        tree("cargo-skills", &["exact-tokens"])
            .iter()
            .any(|c| c == "bpe-openai")
    );
}
