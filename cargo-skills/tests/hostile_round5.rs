//! Hostile and careless input, round 5 (issue 58): vendoring and the lock,
//! each case through the command an attacker or a careless user runs.
//! Every test here failed on the code before its fix.

mod support;

use std::path::{Path, PathBuf};

use support::{fresh_dir, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}. Use when asked to {name}.\n---\nBody.\n")
}

/// A package (outside any workspace) with two hand-written skills, inside
/// a `home` folder that stands for what lies above a project.
fn package(dir: &Path) -> PathBuf {
    let app = dir.join("home/work/app");
    write(
        &app.join("Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    );
    write(&app.join("src/main.rs"), "fn main() {}\n");
    write(&app.join("skills/alpha/SKILL.md"), &skill("alpha"));
    write(&app.join("skills/beta/SKILL.md"), &skill("beta"));
    app
}

/// Every file below `dir`, relative and sorted, with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap().display().to_string();
                out.push((relative, std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// A local source offering `evil` whose SKILL.md overwrites whatever a
/// lock key that is a path leads `update` to.
fn hostile_lock(app: &Path, key: &str) {
    write(
        &app.join("vendor/evil/SKILL.md"),
        "---\nname: evil\ndescription: Overwrites. Use when asked.\n---\nowned\n",
    );
    let lock = serde_json::json!({
        "version": 1,
        "skills": {
            key: {
                "source": "./vendor",
                "sourceType": "local",
                "skillPath": "evil/SKILL.md",
                "computedHash": "0000"
            }
        }
    });
    write(
        &app.join("skills-lock.json"),
        &serde_json::to_string_pretty(&lock).unwrap(),
    );
}

/// Item 1: a committed lock whose key is a path made `update` (even with
/// `--dry-run`) write two folders above the package. Each such key is
/// refused when the lock is read, by every command, and nothing changes.
#[test]
fn a_lock_key_that_is_a_path_is_refused_by_every_command_and_nothing_is_written() {
    for (case, key) in [
        ("up", "../../.."),
        ("empty", ""),
        ("dot", "."),
        ("nested", "a/b"),
        ("backslash", "a\\b"),
        ("hidden", ".bashrc"),
        ("absolute", "/tmp/cargo-skills-hostile-absolute"),
    ] {
        let dir = fresh_dir(&format!("hostile5-lock-key-{case}"));
        let app = package(&dir);
        write(&dir.join("home/.bashrc"), "# mine\n");
        hostile_lock(&app, key);
        let before = snapshot(&dir);
        for args in [
            &["skills", "update", "--dry-run"][..],
            &["skills", "update"],
            &["skills", "update", "--force"],
            &["skills", "verify"],
            &["skills", "check", "--locked"],
        ] {
            let (_, stderr) = output(&app, args, 1);
            assert!(
                stderr.contains("is not a skill's folder name"),
                "{case} {args:?}: {stderr}"
            );
            assert_eq!(snapshot(&dir), before, "{case} {args:?} wrote: {stderr}");
        }
    }
    assert!(!Path::new("/tmp/cargo-skills-hostile-absolute").exists());
}

/// Item 2: `remove ''` removed the whole root and said so with exit 0;
/// `remove ../src` removed the package's sources; `remove alpha/` left the
/// lock entry. Each is refused before anything moves.
#[test]
fn remove_takes_one_folder_name_and_refuses_everything_else_before_touching_anything() {
    let dir = fresh_dir("hostile5-remove");
    let app = package(&dir);
    output(&app, &["skills", "lock"], 0);
    let before = snapshot(&dir);
    for name in ["", ".", "..", "../src", "alpha/", "/etc", ".hidden"] {
        let (stdout, stderr) = output(&app, &["skills", "remove", name], 2);
        assert!(stdout.is_empty(), "{name:?}: {stdout}");
        assert!(
            stderr.contains("is not the name of a skill's folder"),
            "{name:?}: {stderr}"
        );
        assert_eq!(snapshot(&dir), before, "{name:?} changed files: {stderr}");
    }
    let (_, stderr) = output(&app, &["skills", "remove", "alpha/"], 2);
    assert!(stderr.contains("did you mean `alpha`?"), "{stderr}");
    // A name of the root is still removed, from the folder and the lock.
    output(&app, &["skills", "remove", "alpha"], 0);
    assert!(!app.join("skills/alpha").exists());
    let lock = std::fs::read_to_string(app.join("skills-lock.json")).unwrap();
    assert!(!lock.contains("\"alpha\""), "{lock}");
    assert!(app.join("skills/beta/SKILL.md").is_file());
}

/// Item 8: a lock of 10,000 missing entries was checked in quadratic time
/// (each diagnostic searched the text for its entry). Read, checked and
/// located in one pass now; a lock over the bound is refused.
#[test]
fn a_large_lock_is_checked_in_one_pass_and_one_over_the_bound_is_refused() {
    let dir = fresh_dir("hostile5-large-lock");
    let app = package(&dir);
    let entry = |i: usize| {
        format!(
            "    \"s{i:05}\": {{\n      \"source\": \"o/r\",\n      \"sourceType\": \"github\",\n      \"computedHash\": \"{}\",\n      \"files\": [\"SKILL.md 100644 {}\"]\n    }}",
            "ab".repeat(32),
            "cd".repeat(32)
        )
    };
    let lock = |n: usize| {
        let entries: Vec<String> = (0..n).map(entry).collect();
        format!(
            "{{\n  \"version\": 1,\n  \"skills\": {{\n{}\n  }}\n}}\n",
            entries.join(",\n")
        )
    };
    write(&app.join("skills-lock.json"), &lock(10_000));
    let started = std::time::Instant::now();
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    let took = started.elapsed();
    assert!(
        stderr.contains("`s09999` is locked in `skills-lock.json`"),
        "{}",
        &stderr[..2000.min(stderr.len())]
    );
    // Each missing entry is located at its own key.
    assert!(
        stderr.contains("skills-lock.json:59998:5"),
        "the last entry's line"
    );
    // Not a timing assertion on the product: a bound three orders of
    // magnitude above an honest run, so that the old quadratic check (two
    // minutes for 1.2 MB) fails here instead of hanging the suite.
    assert!(took < std::time::Duration::from_secs(60), "{took:?}");
    write(&app.join("skills-lock.json"), &lock(10_001));
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(stderr.contains("a lock holds at most 10000"), "{stderr}");
}
