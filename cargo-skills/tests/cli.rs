//! The `check` and `explain` commands as a user runs them, exit codes included.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cargo_skills() -> Command {
    let mut command = Command::cargo_bin("cargo-skills").unwrap();
    command.current_dir(workspace()).env("NO_COLOR", "1");
    command
}

#[test]
fn the_readme_main_command_checks_the_bundled_example() {
    cargo_skills()
        .args(["check", "examples/issue-tracker/skills"])
        .assert()
        .success()
        .stderr("ok: 3 skills valid, 0 warnings\n");
}

#[test]
fn works_as_a_cargo_subcommand_too() {
    cargo_skills()
        .args([
            "skills",
            "check",
            "examples/issue-tracker/skills/github-issues",
        ])
        .assert()
        .success()
        .stderr("ok: 1 skill valid, 0 warnings\n");
}

#[test]
fn broken_skills_exit_1_with_every_diagnostic() {
    let output = cargo_skills()
        .args([
            "check",
            "skills-compiler/tests/fixtures/broken",
            "--message-format",
            "short",
        ])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    insta::assert_snapshot!(stderr);
}

#[test]
fn json_lines_end_with_a_summary() {
    let output = cargo_skills()
        .args([
            "check",
            "skills-compiler/tests/fixtures/broken/unknown-keys",
            "--message-format",
            "json",
        ])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let lines: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (summary, diagnostics) = lines.split_last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["errors"], 6);
    for diagnostic in diagnostics {
        for field in [
            "severity",
            "code",
            "message",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
        ] {
            assert!(
                diagnostic.get(field).is_some(),
                "{field} missing in {diagnostic}"
            );
        }
        assert_eq!(
            diagnostic["file"],
            "skills-compiler/tests/fixtures/broken/unknown-keys/SKILL.md"
        );
    }
}

#[test]
fn the_profile_flag_changes_the_verdict() {
    let skill = "skills-compiler/tests/fixtures/broken/name-mismatch";
    cargo_skills().args(["check", skill]).assert().code(1);
    cargo_skills()
        .args(["check", skill, "--profile", "lenient"])
        .assert()
        .success();
    cargo_skills()
        .args(["check", skill, "--profile", "lenient", "-D", "warnings"])
        .assert()
        .code(1);
}

#[test]
fn explain_prints_the_long_form() {
    let output = cargo_skills()
        .args(["explain", "s007"])
        .assert()
        .success()
        .get_output()
        .clone();
    insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
}

#[test]
fn usage_errors_exit_2() {
    cargo_skills().args(["explain", "S999"]).assert().code(2);
    cargo_skills()
        .args(["check", "--profile", "strict"])
        .assert()
        .code(2);
    cargo_skills()
        .args(["check", "-D", "unused"])
        .assert()
        .code(2);
    cargo_skills().args(["frobnicate"]).assert().code(2);
}
