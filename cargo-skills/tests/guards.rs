//! The guards of the commands that write (`fix`, `fix --to`, `fmt`): what
//! they refuse to touch, what they check before writing anything, and what
//! they say when something could not be done (issue 23, item 8).

mod support;

use std::path::Path;
use std::process::Command;

use support::{fresh_dir, output};

const NEEDS_QUOTES: &str = "---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n";
const UNFORMATTED: &str = "---\ndescription: Does a. Use when asked.\nname: a\n---\nBody\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A git work tree with everything committed.
fn repository(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = fresh_dir(name);
    for (path, text) in files {
        write(&dir.join(path), text);
    }
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "start"]);
    dir
}

#[test]
fn ignored_and_untracked_files_count_as_dirty() {
    let dir = repository("guards-ignored", &[(".gitignore", ".claude/\n")]);
    let ignored = dir.join(".claude/skills/a/SKILL.md");
    write(&ignored, NEEDS_QUOTES);
    let (_, stderr) = output(&dir, &["skills", "fix", ".claude/skills"], 2);
    assert!(stderr.contains("uncommitted"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&ignored).unwrap(), NEEDS_QUOTES);

    let untracked = dir.join("skills/a/SKILL.md");
    write(&untracked, NEEDS_QUOTES);
    let (_, stderr) = output(&dir, &["skills", "fix", "skills"], 2);
    assert!(stderr.contains("uncommitted"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&untracked).unwrap(), NEEDS_QUOTES);
}

fn package(dir: &Path, skills_dir: &str) {
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.skills]\ndir = {skills_dir:?}\n\n[workspace]\n"
        ),
    );
    write(&dir.join("src/lib.rs"), "");
}

/// The build refuses an absolute root; a relative one may leave the crate
/// (`../shared-skills`), but the commands that write stay inside the
/// workspace unless the directory is named on the command line.
#[test]
fn a_configured_root_outside_the_workspace_is_not_rewritten() {
    let dir = fresh_dir("guards-outside");
    let workspace = dir.join("ws");
    package(&workspace, "../outside");
    let outside = dir.join("outside/a/SKILL.md");
    write(&outside, UNFORMATTED);
    let (_, stderr) = output(&workspace, &["skills", "fmt"], 2);
    assert!(stderr.contains("outside the workspace"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), UNFORMATTED);
    // Reading it is what the build does, and is fine.
    output(&workspace, &["skills", "check"], 0);
    // Named on the command line, it is the user's choice.
    output(&workspace, &["skills", "fmt", "../outside"], 0);
    assert_ne!(std::fs::read_to_string(&outside).unwrap(), UNFORMATTED);

    let absolute = dir.join("abs");
    package(&absolute, &dir.join("outside").display().to_string());
    let (_, stderr) = output(&absolute, &["skills", "check"], 2);
    assert!(stderr.contains("is absolute"), "{stderr}");
}

/// Two skills whose names become the same folder, and a folder that is
/// taken: every rename is checked before anything is written, and the dry
/// run says so.
#[test]
fn fix_to_checks_every_rename_before_writing_anything() {
    let first = "---\nname: Foo_Bar\ndescription: Does a. Use when asked.\n---\nBody\n";
    let second = "---\nname: foo bar\ndescription: Does b. Use when asked.\n---\nBody\n";
    let dir = repository(
        "guards-renames",
        &[
            ("skills/Foo_Bar/SKILL.md", first),
            ("skills/foo bar/SKILL.md", second),
        ],
    );
    let (stdout, stderr) = output(
        &dir,
        &["skills", "fix", "--to", "extended", "--dry-run", "skills"],
        1,
    );
    assert!(
        stderr.contains("both would be renamed to skills/foo-bar"),
        "{stdout}{stderr}"
    );
    let (_, stderr) = output(&dir, &["skills", "fix", "--to", "extended", "skills"], 1);
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("skills/Foo_Bar/SKILL.md")).unwrap(),
        first
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("skills/foo bar/SKILL.md")).unwrap(),
        second
    );
    assert!(!dir.join("skills/foo-bar").exists());

    // A folder that is already taken.
    let taken = "---\nname: foo-bar\ndescription: Does c. Use when asked.\n---\nBody\n";
    let dir = repository(
        "guards-rename-taken",
        &[
            ("skills/Foo_Bar/SKILL.md", first),
            ("skills/foo-bar/SKILL.md", taken),
        ],
    );
    let (_, stderr) = output(&dir, &["skills", "fix", "--to", "extended", "skills"], 1);
    assert!(stderr.contains("skills/foo-bar exists"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("skills/Foo_Bar/SKILL.md")).unwrap(),
        first
    );
}

#[test]
fn a_path_ending_in_skill_md_means_its_directory() {
    let dir = fresh_dir("guards-skill-md");
    write(&dir.join("skills/a/SKILL.md"), NEEDS_QUOTES);
    let by_dir = output(&dir, &["skills", "check", "skills/a"], 1);
    let by_file = output(&dir, &["skills", "check", "skills/a/SKILL.md"], 1);
    assert_eq!(by_file, by_dir);
    for command in [&["fix", "--dry-run"][..], &["fmt", "--check"], &["list"]] {
        let run = |path: &str| {
            let output = support::cargo_skills_in(&dir)
                .arg("skills")
                .args(command)
                .arg(path)
                .output()
                .unwrap();
            (output.status.code(), output.stdout, output.stderr)
        };
        assert_eq!(run("skills/a/SKILL.md"), run("skills/a"), "{command:?}");
    }
}

#[test]
fn fmt_check_fails_on_files_it_could_not_read_or_check() {
    let dir = fresh_dir("guards-fmt-unreadable");
    // A dangling link where a SKILL.md should be: nothing to read.
    std::fs::create_dir_all(dir.join("skills/gone")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("nowhere.md", dir.join("skills/gone/SKILL.md")).unwrap();
    // A SKILL.md that does not parse: it cannot be checked for format.
    write(&dir.join("skills/broken/SKILL.md"), NEEDS_QUOTES);
    write(
        &dir.join("skills/fine/SKILL.md"),
        "---\nname: fine\ndescription: Does a. Use when asked.\n---\nBody\n",
    );
    let (_, stderr) = output(&dir, &["skills", "fmt", "--check", "skills"], 1);
    assert!(stderr.contains("skills/broken/SKILL.md"), "{stderr}");
    #[cfg(unix)]
    assert!(stderr.contains("skills/gone"), "{stderr}");
    assert!(stderr.contains("could not be checked"), "{stderr}");
}

/// A read-only file among files to fix: nothing is written, and the
/// message says which file stopped it.
#[test]
fn a_read_only_file_stops_fix_before_it_writes_anything() {
    let dir = fresh_dir("guards-read-only");
    let first = dir.join("skills/a/SKILL.md");
    let second = dir.join("skills/b/SKILL.md");
    write(&first, NEEDS_QUOTES);
    write(&second, &NEEDS_QUOTES.replace("name: a", "name: b"));
    let mut permissions = std::fs::metadata(&second).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&second, permissions).unwrap();
    let (_, stderr) = output(&dir, &["skills", "fix", "skills", "--allow-dirty"], 1);
    assert!(
        stderr.contains("skills/b/SKILL.md is read-only") && stderr.contains("nothing was written"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), NEEDS_QUOTES);
}

/// `check .` inside a skill directory checks that skill, as `validate .`
/// does (issue 24, item 6).
#[test]
fn dot_inside_a_skill_directory_is_that_skill() {
    let dir = fresh_dir("guards-dot");
    write(
        &dir.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody\n",
    );
    let (stdout, stderr) = output(&dir.join("skills/a"), &["skills", "check", "."], 0);
    assert!(
        stderr.contains("1 skill valid") || stdout.contains("1 skill valid"),
        "{stdout}{stderr}"
    );
    std::fs::create_dir_all(dir.join("skills/a/references")).unwrap();
    let (stdout, stderr) = output(
        &dir.join("skills/a/references"),
        &["skills", "check", ".."],
        0,
    );
    assert!(
        stderr.contains("1 skill valid") || stdout.contains("1 skill valid"),
        "{stdout}{stderr}"
    );
}
