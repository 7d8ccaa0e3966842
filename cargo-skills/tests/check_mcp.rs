//! `cargo skills check mcp+stdio:CMD` (issue 43, item 5): a real server
//! process (`cargo skills serve`) checked as a host loads it, with the
//! profile the command line gives.

mod support;

use std::path::Path;

use support::{output, workspace};

/// The command that serves `dir`, quoted so that a target directory with
/// spaces stays one word.
fn server(dir: &Path) -> String {
    let bin = assert_cmd::cargo::cargo_bin("cargo-skills");
    format!(
        "mcp+stdio:'{}' skills serve '{}'",
        bin.display(),
        dir.display()
    )
}

#[test]
fn a_served_skill_is_verified_and_compiled_with_the_profile_given() {
    let dir = workspace().join("skills-mcp/tests/sep2640");
    let (stdout, _) = output(
        &workspace(),
        &["skills", "check", "--profile", "extended", &server(&dir)],
        0,
    );
    assert!(
        stdout.contains("ok: 1 skill from `") && stdout.contains("verified and valid"),
        "{stdout}"
    );
    // `portable` (the default for servers) refuses its `x-review` key.
    let (_, stderr) = output(&workspace(), &["skills", "check", &server(&dir)], 1);
    assert!(stderr.contains("S113"), "{stderr}");
    assert!(stderr.contains("--> skill://pdf/SKILL.md:10:1"), "{stderr}");
}

#[test]
fn servers_and_paths_are_not_mixed() {
    let dir = workspace().join("skills-mcp/tests/sep2640");
    let (_, stderr) = output(
        &workspace(),
        &["skills", "check", &server(&dir), "skills"],
        2,
    );
    assert!(stderr.contains("not both"), "{stderr}");
}

#[test]
fn a_server_that_cannot_start_is_an_error_that_names_it() {
    let (_, stderr) = output(
        &workspace(),
        &["skills", "check", "mcp+stdio:/nonexistent/server --flag"],
        1,
    );
    assert!(stderr.contains("/nonexistent/server"), "{stderr}");
}
