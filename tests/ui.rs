//! trybuild: the expansion compiles under the hygiene constraints (pass), and
//! invalid skills fail the build with every diagnostic at file:line:col (fail).
//!
//! trybuild compiles each case as a crate in `<target>/tests/trybuild/skills-tests`,
//! wherever the target directory is (`CARGO_TARGET_DIR` or not). The cases name
//! their skills as `ui-skills/...` and `workspace/...`: links, made here, from
//! that crate to `tests/ui/skills` and to the workspace, so that no path
//! depends on where the target directory is.

use std::path::{Path, PathBuf};

/// The target directory cargo uses for this workspace, as trybuild finds it.
fn target_directory() -> PathBuf {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    PathBuf::from(
        metadata["target_directory"]
            .as_str()
            .expect("a target directory"),
    )
}

fn link_fixtures() {
    let project = target_directory().join("tests/trybuild/skills-tests");
    std::fs::create_dir_all(&project).expect("create trybuild's project directory");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = tests.parent().expect("tests/ is inside the workspace");
    for (name, target) in [
        ("ui-skills", tests.join("ui/skills")),
        ("workspace", workspace.to_path_buf()),
    ] {
        let link = project.join(name);
        if std::fs::read_link(&link).ok().as_deref() != Some(target.as_path()) {
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&target, &link).expect("link the fixtures");
        }
    }
}

#[test]
fn ui() {
    link_fixtures();
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    cases.compile_fail("ui/fail/*.rs");
}
