//! What the CLI tests share: the workspace, the binary run in a directory,
//! and fresh directories under cargo's per-target temporary directory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `cargo-skills` in `dir`, colour off whatever the environment says.
pub fn cargo_skills_in(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("cargo-skills").unwrap();
    command
        .current_dir(dir)
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1");
    command
}

/// (stdout, stderr) of `cargo-skills <args>` in `dir`, which must exit with `code`.
pub fn output(dir: &Path, args: &[&str], code: i32) -> (String, String) {
    let output = cargo_skills_in(dir)
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// An empty directory named `name` under cargo's temporary directory for
/// this target (wherever the target directory is).
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
