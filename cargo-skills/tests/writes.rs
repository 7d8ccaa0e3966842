//! Writing skills back (`fix`, `fmt`) loses nothing: an interrupted write
//! leaves the original file whole, and an edit saved since the file was
//! read is not overwritten.

mod support;

use std::path::Path;

use support::fresh_dir;

/// A skill of about 11 KB whose description has an unquoted `: ` (S007,
/// with a machine-applicable fix-it), so that `fix` rewrites it.
fn big_skill(dir: &Path) -> Vec<u8> {
    let body = "A line of the body that says what to do.\n".repeat(270);
    let text = format!("---\nname: a\ndescription: Does a. Use when: the user asks\n---\n{body}");
    std::fs::create_dir_all(dir.join("skills/a")).unwrap();
    std::fs::write(dir.join("skills/a/SKILL.md"), &text).unwrap();
    text.into_bytes()
}

/// `fix` with the file size limit at 4 KiB (`ulimit -f 4`): the write of
/// the 11 KB file fails part way, and the original must be left as it was.
#[cfg(unix)]
#[test]
fn an_interrupted_write_leaves_the_original_whole() {
    let dir = fresh_dir("writes-interrupted");
    let before = big_skill(&dir);
    assert!(before.len() > 10_000);
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 4; exec '{}' skills fix skills --allow-dirty",
            env!("CARGO_BIN_EXE_cargo-skills")
        ))
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(!status.success(), "the write must have failed");
    let now = std::fs::read(dir.join("skills/a/SKILL.md")).unwrap();
    assert!(
        now == before,
        "the original was cut: {} of its {} bytes are left",
        now.len(),
        before.len()
    );
    // The same fix with room to write succeeds, and keeps the file's mode.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("skills/a/SKILL.md");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
            .args(["skills", "fix", "skills", "--allow-dirty"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(
            after.contains("description: \"Does a. Use when: the user asks\""),
            "{after}"
        );
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}

/// An edit saved after `fmt` read the file is kept: the write is skipped,
/// with a note, and the file holds the user's edit.
#[test]
fn an_edit_saved_since_the_read_is_not_overwritten() {
    let dir = fresh_dir("writes-lost-update");
    let path = dir.join("skills/a/SKILL.md");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original = "---\nname: a\ndescription: 'Does a. Use when asked.'\n---\nBody\n";
    std::fs::write(&path, original).unwrap();
    let edited = "---\nname: a\ndescription: 'Does a, edited. Use when asked.'\n---\nBody\n";
    // `fmt` read `original` and means to write `formatted`; the user saves
    // `edited` in between.
    let formatted = "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody\n";
    std::fs::write(&path, edited).unwrap();
    let outcome =
        skills_compiler::ops::files::replace(&path, original.as_bytes(), formatted.as_bytes())
            .unwrap();
    assert_eq!(outcome, skills_compiler::ops::files::Replaced::ChangedSince);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    // Unchanged since the read: written.
    let outcome =
        skills_compiler::ops::files::replace(&path, edited.as_bytes(), formatted.as_bytes())
            .unwrap();
    assert_eq!(outcome, skills_compiler::ops::files::Replaced::Written);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), formatted);
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["SKILL.md"]);
}

/// A file `fix` creates (`tools.yaml`) appears whole or not at all, and
/// never over a file that is there by then: the existing one is kept, and
/// no temporary file is left beside it.
#[test]
fn a_created_file_never_replaces_one_that_is_there() {
    let dir = fresh_dir("writes-create");
    let path = dir.join("tools.yaml");
    skills_compiler::ops::files::create(&path, b"tools: []\n").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"tools: []\n");
    let error = skills_compiler::ops::files::create(&path, b"other\n").unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read(&path).unwrap(), b"tools: []\n");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}
