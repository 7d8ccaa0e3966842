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

/// A root that holds skills and a stray `skill.md` stays a root: `check
/// skills` reads it as `check` of the default root does, and still checks
/// the skills in it.
#[test]
fn a_root_with_a_stray_skill_md_is_read_the_same_whichever_way_it_is_named() {
    let dir = fresh_dir("paths-stray");
    std::fs::create_dir_all(dir.join("skills/a")).unwrap();
    std::fs::write(
        dir.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody.\n",
    )
    .unwrap();
    std::fs::write(dir.join("skills/skill.md"), "notes\n").unwrap();
    // A package of its own, whose root is the default `skills`.
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"stray\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[package.metadata.skills]\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    let run = |args: &[&str]| {
        let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
            .arg("skills")
            .args(args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let named = run(&["check", "--message-format", "short", "skills"]);
    let default = run(&["check", "--message-format", "short"]);
    assert_eq!(named, default);
    assert!(named.contains("2 skills checked"), "{named}");
    assert!(!named.contains("error[S502]"), "{named}");
}

/// `cargo skills explain keys` lists every frontmatter key and manifest
/// option from their declarations (issue 41, item 1).
#[test]
fn explain_keys_lists_every_declared_key_and_option() {
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args(["skills", "explain", "keys"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    for key in skills_compiler::keys::FRONTMATTER {
        assert!(text.contains(key.name), "`{}` missing:\n{text}", key.name);
    }
    for option in skills_compiler::option_keys::<skills_compiler::Overrides>() {
        assert!(text.contains(option), "`{option}` missing:\n{text}");
    }
    assert!(text.contains("S112") && text.contains("S113"), "{text}");
}
