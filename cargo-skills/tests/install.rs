//! `cargo skills install` (issue 43, item 1): real folders, each target's
//! state decided exactly from what was installed, and the bad targets.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use support::{deploy_and_notes, fresh_dir, listing};

fn install(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args(["skills", "install", "--from", "skills"])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn stdout(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = install(dir, args);
    assert_eq!(code, 0, "{args:?}\n{out}{err}");
    out
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111
}

#[test]
fn install_twice_edit_then_bump() {
    let dir = fresh_dir("install-states");
    let skill = deploy_and_notes(&dir);
    assert_eq!(
        stdout(&dir, &["--to", "out"]),
        "deploy  missing     installed\nnotes   missing     installed\nwrote 2 of 2 skills in out\n"
    );
    // As compiled: bytes and execute bits, and the record beside them.
    assert_eq!(
        std::fs::read_to_string(dir.join("out/deploy/SKILL.md")).unwrap(),
        skill
    );
    assert_eq!(mode(&dir.join("out/deploy/scripts/run.sh")), 0o111);
    assert_eq!(mode(&dir.join("out/deploy/references/api.md")), 0);
    assert_eq!(
        listing(&dir.join("out")),
        [
            "deploy",
            "deploy/.skills-install.json",
            "deploy/SKILL.md",
            "deploy/assets",
            "deploy/assets/logo.bin",
            "deploy/references",
            "deploy/references/api.md",
            "deploy/scripts",
            "deploy/scripts/run.sh",
            "notes",
            "notes/.skills-install.json",
            "notes/SKILL.md",
        ]
    );

    assert_eq!(
        stdout(&dir, &["--to", "out"]),
        "deploy  up to date  left as it is\nnotes   up to date  left as it is\nwrote 0 of 2 skills in out\n"
    );

    // Someone edits what was installed: left alone.
    std::fs::write(dir.join("out/notes/SKILL.md"), "mine now").unwrap();
    // A changed execute bit is an edit too.
    std::fs::set_permissions(
        dir.join("out/deploy/scripts/run.sh"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    assert_eq!(
        stdout(&dir, &["--to", "out"]),
        "deploy  edited      left alone (--force writes over it)\nnotes   edited      left alone (--force writes over it)\nwrote 0 of 2 skills in out\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/notes/SKILL.md")).unwrap(),
        "mine now"
    );

    // A new version of `deploy`, installed over the forced copy.
    stdout(&dir, &["--to", "out", "--force", "deploy"]);
    std::fs::write(
        dir.join("skills/deploy/SKILL.md"),
        skill.replace("version: 1", "version: 2"),
    )
    .unwrap();
    assert_eq!(
        stdout(&dir, &["--to", "out", "--dry-run", "deploy"]),
        "deploy  outdated    would update\nwould write 1 of 1 skill in out\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/deploy/SKILL.md")).unwrap(),
        skill
    );
    assert_eq!(
        stdout(&dir, &["--to", "out", "deploy"]),
        "deploy  outdated    updated\nwrote 1 of 1 skill in out\n"
    );
    assert!(
        std::fs::read_to_string(dir.join("out/deploy/SKILL.md"))
            .unwrap()
            .contains("version: 2")
    );
    assert_eq!(mode(&dir.join("out/deploy/scripts/run.sh")), 0o111);
    // No staging or old copy left behind.
    assert!(
        !listing(&dir.join("out"))
            .iter()
            .any(|name| name.contains(".install-")),
        "{:?}",
        listing(&dir.join("out"))
    );
}

#[test]
fn foreign_targets_are_left_alone_and_a_symlink_is_never_followed() {
    let dir = fresh_dir("install-foreign");
    deploy_and_notes(&dir);
    std::fs::create_dir_all(dir.join("out/notes")).unwrap();
    std::fs::write(dir.join("out/notes/SKILL.md"), "someone else's").unwrap();
    // `deploy` is a symlink to a folder outside `out`.
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::write(dir.join("elsewhere/keep.txt"), "keep").unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("out/deploy")).unwrap();
    assert_eq!(
        stdout(&dir, &["--to", "out"]),
        "deploy  foreign     left alone (--force writes over it)\nnotes   foreign     left alone (--force writes over it)\nwrote 0 of 2 skills in out\n"
    );
    assert_eq!(listing(&dir.join("elsewhere")), ["keep.txt"]);

    // Forced: the link itself is replaced; what it pointed to is untouched.
    stdout(&dir, &["--to", "out", "--force"]);
    assert!(
        std::fs::symlink_metadata(dir.join("out/deploy"))
            .unwrap()
            .is_dir()
    );
    assert_eq!(listing(&dir.join("elsewhere")), ["keep.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("out/notes/SKILL.md"))
            .unwrap()
            .lines()
            .nth(1),
        Some("name: notes")
    );
}

#[test]
fn a_file_in_the_way_and_a_half_written_earlier_install() {
    let dir = fresh_dir("install-in-the-way");
    deploy_and_notes(&dir);
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/deploy"), "a file where the folder goes").unwrap();
    // What an install that died half way would have left: a hidden staging
    // folder, partly written.
    std::fs::create_dir_all(dir.join("out/.notes.install-new-1-0/notes")).unwrap();
    std::fs::write(
        dir.join("out/.notes.install-new-1-0/notes/SKILL.md"),
        "---\nname: no",
    )
    .unwrap();
    assert_eq!(
        stdout(&dir, &["--to", "out"]),
        "deploy  foreign     left alone (--force writes over it)\nnotes   missing     installed\nwrote 1 of 2 skills in out\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/deploy")).unwrap(),
        "a file where the folder goes"
    );
    assert!(
        std::fs::read_to_string(dir.join("out/notes/SKILL.md"))
            .unwrap()
            .contains("Takes notes.")
    );
}

#[test]
fn a_folder_that_cannot_be_written_is_an_error_and_nothing_is_written() {
    let dir = fresh_dir("install-unwritable");
    deploy_and_notes(&dir);
    // Not writable even for root: /proc takes no new folders.
    let (code, out, err) = install(&dir, &["--to", "/proc/skills-install-test"]);
    assert_eq!(code, 1, "{out}{err}");
    // Every skill that could not be installed is said, in order.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("error: cannot install `deploy` into /proc/skills-install-test: "),
        "{err}"
    );
    assert!(
        lines[1].starts_with("error: cannot install `notes` into /proc/skills-install-test: "),
        "{err}"
    );
    // The tally counts the skills that failed (issue 58, item 21).
    assert_eq!(
        out,
        "wrote 0 of 2 skills in /proc/skills-install-test; 2 could not be installed\n"
    );
}

/// Skills are installed each on its own: one that cannot be written stops
/// no other, the ones written are reported, and the command fails. Here the
/// folder's path is so long that only a skill with a 64-character name
/// passes the kernel's limit on a path (4,096 bytes), as root too.
#[test]
fn a_skill_that_cannot_be_installed_stops_no_other() {
    let dir = fresh_dir("install-one-fails");
    deploy_and_notes(&dir);
    let long = format!("long-{}", "n".repeat(59));
    std::fs::create_dir_all(dir.join("skills").join(&long)).unwrap();
    std::fs::write(
        dir.join("skills").join(&long).join("SKILL.md"),
        format!("---\nname: {long}\ndescription: Has a long name. Use when asked.\n---\nBody.\n"),
    )
    .unwrap();
    // 4,000 bytes: a staged `deploy` file is about 4,050, a staged file of
    // the long-named skill about 4,115.
    let mut folder = "out".to_owned();
    while folder.len() < 4000 {
        let component = (4000 - folder.len() - 1).min(249);
        folder = format!("{folder}/{}", "d".repeat(component));
    }
    let folder = folder.as_str();
    // Relative paths from `dir`, wherever the target directory is: its own
    // path is no part of the limit the install meets.
    let shell = |script: &str| {
        Command::new("sh")
            .args(["-c", script, "sh", folder])
            .current_dir(&dir)
            .status()
            .unwrap()
            .success()
    };
    assert!(shell("mkdir -p \"$1\""));

    let (code, out, err) = install(&dir, &["--to", folder]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.starts_with(&format!("error: cannot install `{long}` into {folder}: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.contains("deploy  missing     installed\n"), "{out}");
    assert!(
        out.ends_with(&format!(
            "wrote 2 of 3 skills in {folder}; 1 could not be installed\n"
        )),
        "{out}"
    );
    assert!(shell(
        "test -f \"$1/deploy/SKILL.md\" && test -f \"$1/notes/SKILL.md\""
    ));
    assert!(shell(&format!("test ! -e \"$1/{long}\"")));
}

#[test]
fn names_and_hosts() {
    let dir = fresh_dir("install-names");
    deploy_and_notes(&dir);
    let (code, _, err) = install(&dir, &["--to", "out", "deplyo"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: there is no skill named `deplyo`; did you mean `deploy`?\n"
    );
    let (code, _, err) = install(&dir, &["--to", "out", "--global"]);
    assert_eq!(code, 2);
    assert!(err.contains("one of: claude, codex, agents"), "{err}");

    assert_eq!(
        stdout(&dir, &["--to", "claude", "notes"]),
        "notes  missing     installed\nwrote 1 of 1 skill in .claude/skills\n"
    );
    assert!(dir.join(".claude/skills/notes/SKILL.md").is_file());
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let output = Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args([
            "skills", "install", "--from", "skills", "--to", "codex", "--global", "notes",
        ])
        .current_dir(&dir)
        .env("HOME", &home)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "notes  missing     installed\nwrote 1 of 1 skill in ~/.agents/skills\n"
    );
    assert!(home.join(".agents/skills/notes/SKILL.md").is_file());
}
