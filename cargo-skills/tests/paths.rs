//! One answer to "which skill does this path name" (issue 41, item 4),
//! through every command that takes a path.

mod support;

use support::fresh_dir;

/// A folder whose skill file is named `skill.md`: `check skills` said S502
/// (a misnamed skill file) while `check skills/deploy` and `serve
/// skills/deploy` read `skill.md` as a flat skill named `skill` and said
/// S106. Every command now says S502, whichever path names the folder.
#[test]
fn a_misnamed_skill_file_is_s502_through_every_command_and_path() {
    let dir = fresh_dir("paths-misnamed");
    std::fs::create_dir_all(dir.join("skills/deploy")).unwrap();
    std::fs::write(
        dir.join("skills/deploy/skill.md"),
        "---\nname: deploy\ndescription: Deploys. Use when asked.\n---\nBody.\n",
    )
    .unwrap();
    for args in [
        &["check", "skills"][..],
        &["check", "skills/deploy"],
        &["validate", "skills/deploy"],
        &["show", "deploy", "skills/deploy"],
        &["tools", "deploy", "skills/deploy"],
        &["list", "skills/deploy"],
        &["catalog", "skills/deploy"],
        &["budget", "skills/deploy"],
        &["serve", "skills/deploy"],
        &["fix", "--dry-run", "skills/deploy"],
    ] {
        let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
            .arg("skills")
            .args(args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            text.contains("S502") || text.contains("rename skills/deploy/skill.md"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("S106"), "{args:?}: {text}");
    }
}
