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

/// A skills root with `deploy` (version 1; a script with its execute bit, a
/// reference, a binary asset) and `notes`: what `install` and `pack` write
/// out. Returns deploy's SKILL.md.
pub fn deploy_and_notes(dir: &Path) -> &'static str {
    use std::os::unix::fs::PermissionsExt;
    const DEPLOY: &str = "---\nname: deploy\ndescription: Deploys the app. Use when asked to ship.\nversion: 1\n---\nRun `scripts/run.sh`.\n";
    for folder in [
        "skills/deploy/scripts",
        "skills/deploy/references",
        "skills/deploy/assets",
        "skills/notes",
    ] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    std::fs::write(dir.join("skills/deploy/SKILL.md"), DEPLOY).unwrap();
    std::fs::write(
        dir.join("skills/deploy/scripts/run.sh"),
        "#!/bin/sh\necho run\n",
    )
    .unwrap();
    std::fs::set_permissions(
        dir.join("skills/deploy/scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::write(dir.join("skills/deploy/references/api.md"), "# API\n").unwrap();
    let asset: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    std::fs::write(dir.join("skills/deploy/assets/logo.bin"), asset).unwrap();
    std::fs::write(
        dir.join("skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: Takes notes. Use when asked to remember.\n---\nWrite it down.\n",
    )
    .unwrap();
    DEPLOY
}

/// A file's bytes and whether it is executable.
type Contents = (Vec<u8>, bool);

/// Every entry under `dir` (folders too, hidden ones included) with its
/// contents when it is a file, sorted by path.
fn entries(dir: &Path) -> Vec<(String, Option<Contents>)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            let metadata = std::fs::symlink_metadata(entry.path()).unwrap();
            if metadata.is_dir() {
                stack.push((entry.path(), format!("{name}/")));
                out.push((name, None));
            } else {
                let executable = metadata.permissions().mode() & 0o111 != 0;
                let bytes = std::fs::read(entry.path()).unwrap_or_default();
                out.push((name, Some((bytes, executable))));
            }
        }
    }
    out.sort();
    out
}

/// Every file under `dir` with its bytes and whether it is executable,
/// sorted by path.
pub fn files_with_modes(dir: &Path) -> Vec<(String, Vec<u8>, bool)> {
    entries(dir)
        .into_iter()
        .filter_map(|(name, file)| file.map(|(bytes, executable)| (name, bytes, executable)))
        .collect()
}

/// The paths of every entry under `dir`, folders and hidden ones included.
pub fn listing(dir: &Path) -> Vec<String> {
    entries(dir).into_iter().map(|(name, _)| name).collect()
}

/// The SARIF 2.1.0 schema (a copy in `tests/fixtures`), as a validator.
pub fn sarif_schema() -> jsonschema::Validator {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(workspace().join("tests/fixtures/sarif/sarif-schema-2.1.0.json"))
            .unwrap(),
    )
    .unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// `git ARGS` in `dir` with a fixed identity and `main` as the first
/// branch; its stdout. A failure fails the test.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Runs SECURITY.md's openssl recipe, as it is written there, in `dir`:
/// `ca.pem` (the anchor), `signer.key` and `signer.pem` afterwards. The
/// recipe is the text between `<!-- recipe: openssl -->` and
/// `<!-- end recipe -->`, so the document and the tests cannot drift.
pub fn openssl_recipe(dir: &Path) {
    let security = std::fs::read_to_string(workspace().join("SECURITY.md")).unwrap();
    let block = security
        .split_once("<!-- recipe: openssl -->")
        .and_then(|(_, rest)| rest.split_once("<!-- end recipe -->"))
        .map(|(block, _)| block)
        .expect("SECURITY.md has the openssl recipe between its markers");
    let script = block
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(script, _)| script)
        .expect("the recipe is one ```sh block");
    std::fs::create_dir_all(dir).unwrap();
    let ran = std::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir)
        .output()
        .expect("bash and openssl run the recipe");
    assert!(ran.status.success(), "the recipe failed: {ran:?}");
    for made in ["ca.pem", "signer.key", "signer.pem"] {
        assert!(dir.join(made).is_file(), "the recipe made no {made}");
    }
}
