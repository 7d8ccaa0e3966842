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
    // The harness gives up past a bound three orders of magnitude above an
    // honest run, so that the old quadratic check (two minutes for 1.2 MB)
    // fails here instead of hanging the suite; the figures are in
    // BENCHMARKS.md.
    let (code, stderr) = run_bounded(
        &app,
        &["skills", "check", "--locked"],
        std::time::Duration::from_secs(60),
    );
    assert_eq!(code, Some(1), "the check must end");
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
    write(&app.join("skills-lock.json"), &lock(10_001));
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(stderr.contains("a lock holds at most 10000"), "{stderr}");
}

/// Item 12: vendoring printed names raw, so a name holding a line break
/// could start a GitHub `::error` line of its own. Every message of
/// `verify`, `remove`, `update` and `add` goes through the one escaping rule.
#[test]
fn a_name_from_a_lock_or_a_command_line_never_starts_a_line_of_its_own() {
    let dir = fresh_dir("hostile5-names");
    let app = package(&dir);
    let hostile = "a\n::error file=x::owned";
    hostile_lock(&app, hostile);
    for args in [
        &["skills", "verify"][..],
        &["skills", "update", "--dry-run"],
        &["skills", "check", "--locked"],
        &["skills", "remove", "alpha"],
    ] {
        let (stdout, stderr) = support::cargo_skills_in(&app)
            .args(args)
            .output()
            .map(|o| {
                (
                    String::from_utf8(o.stdout).unwrap(),
                    String::from_utf8(o.stderr).unwrap(),
                )
            })
            .unwrap();
        for line in stdout.lines().chain(stderr.lines()) {
            assert!(!line.starts_with("::error"), "{args:?}: {line}");
        }
        assert!(stderr.contains("a\\u{a}::error"), "{args:?}: {stderr}");
    }
    std::fs::remove_file(app.join("skills-lock.json")).unwrap();
    let (_, stderr) = output(&app, &["skills", "remove", hostile], 2);
    assert!(
        !stderr.lines().any(|l| l.starts_with("::error")),
        "{stderr}"
    );
    assert!(stderr.contains("a\\u{a}::error"), "{stderr}");
}

/// Item 19: `{id}` with one brace passed `check` and was sent as
/// `%7Bid%7D`, the required `id` dropped. A warning with the fix-it, and
/// one for a declared parameter that nothing sends.
#[test]
fn a_single_brace_placeholder_and_an_unsent_parameter_are_warned_about() {
    let dir = fresh_dir("hostile5-single-brace");
    write(
        &dir.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: Gets items. Use when asked for an item.\ntools:\n  - name: get_item\n    description: Gets an item.\n    parameters:\n      type: object\n      required: [id]\n      properties:\n        id: {type: string}\n        note: {type: string}\n    endpoint:\n      method: POST\n      url: https://api.example.com/items/{id}\n      body: '{\"label\": \"{id}\"}'\n---\nBody.\n",
    );
    let (_, stderr) = output(
        &dir,
        &["skills", "check", "skills", "--message-format", "short"],
        0,
    );
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("warning[")).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("skills/a/SKILL.md:15:42: warning[W024]")),
        "{stderr}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("skills/a/SKILL.md:16:25: warning[W024]")),
        "{stderr}"
    );
    for name in ["id", "note"] {
        assert!(
            lines
                .iter()
                .any(|l| l.contains("warning[W025]") && l.contains(&format!("`{name}`"))),
            "{name}: {stderr}"
        );
    }
    // The fix-it writes the placeholder.
    output(&dir, &["skills", "fix", "skills", "--allow-dirty"], 0);
    let fixed = std::fs::read_to_string(dir.join("skills/a/SKILL.md")).unwrap();
    assert!(
        fixed.contains("url: https://api.example.com/items/{{id}}"),
        "{fixed}"
    );
}

/// Item 3: a `.git` file in a vendored skill (a gitlink, `gitdir: PATH`) was
/// copied; beside a `.git` folder, git run inside the skill took the
/// source's configuration. Every `.git`, file or folder, at any depth, is
/// left behind, and what was added verifies against its lock.
#[test]
fn no_git_entry_of_a_source_is_vendored() {
    let dir = fresh_dir("hostile5-gitlink");
    let app = package(&dir);
    let source = app.join("vendor/gitty");
    write(&source.join("SKILL.md"), &skill("gitty"));
    write(&source.join(".git"), "gitdir: ../../evil\n");
    write(
        &source.join("sub/.git/config"),
        "[core]\n\tfsmonitor = touch owned\n",
    );
    write(&source.join("sub/notes.md"), "notes\n");
    write(&source.join("deep/er/.git"), "gitdir: /tmp\n");
    write(&source.join("deep/er/x.txt"), "x\n");
    output(&app, &["skills", "add", "./vendor", "--skill", "gitty"], 0);
    let added = app.join("skills/gitty");
    assert!(added.join("sub/notes.md").is_file());
    assert!(added.join("deep/er/x.txt").is_file());
    for git in [".git", "sub/.git", "deep/er/.git"] {
        assert!(
            std::fs::symlink_metadata(added.join(git)).is_err(),
            "{git} was vendored"
        );
    }
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(stdout.contains("gitty: matches"), "{stdout}");
}

/// Item 10: the lock was written through `.skills-lock.json.<pid>.tmp`, a
/// name anyone who can write beside it can plant a symlink at first (the
/// pid is the next one). Links are planted at the names of the next pids
/// here; the lock is written and no link is followed.
#[cfg(unix)]
#[test]
fn a_link_planted_at_a_guessable_temporary_name_is_never_followed() {
    let dir = fresh_dir("hostile5-temporary");
    let app = package(&dir);
    let target = dir.join("home/.bashrc");
    write(&target, "# mine\n");
    let next = std::process::Command::new("true").spawn().unwrap().id();
    for pid in next..next + 2000 {
        std::os::unix::fs::symlink(&target, app.join(format!(".skills-lock.json.{pid}.tmp")))
            .unwrap();
    }
    output(&app, &["skills", "lock"], 0);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "# mine\n");
    let lock = std::fs::read_to_string(app.join("skills-lock.json")).unwrap();
    assert!(lock.contains("\"alpha\""), "{lock}");
    // Nothing is left behind but the planted links.
    let left: Vec<String> = std::fs::read_dir(&app)
        .unwrap()
        .flatten()
        .filter(|e| !e.file_type().unwrap().is_symlink())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Item 18 (and issue 57, item 9): an entry with only `computedHash`, as
/// Vercel's CLI writes it, cannot see a lost execute bit or a file split
/// in two. `verify` and `check --locked` say the check is weaker, and
/// `lock NAME` adds the per-file lines, after which a mode change shows.
#[cfg(unix)]
#[test]
fn an_entry_without_per_file_lines_is_called_weaker_and_lock_adds_them() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fresh_dir("hostile5-weaker");
    let app = package(&dir);
    let script = app.join("skills/alpha/scripts/run.sh");
    write(&script, "#!/bin/sh\necho run\n");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    output(&app, &["skills", "lock"], 0);
    // As Vercel's CLI leaves an entry it re-added: no `files`.
    let mut lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(app.join("skills-lock.json")).unwrap())
            .unwrap();
    lock["skills"]["alpha"]
        .as_object_mut()
        .unwrap()
        .remove("files");
    write(
        &app.join("skills-lock.json"),
        &serde_json::to_string_pretty(&lock).unwrap(),
    );

    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(
        stdout.contains("alpha: matches (by `computedHash` only"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`cargo skills lock alpha` adds them"),
        "{stdout}"
    );
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 0);
    assert!(stderr.contains("warning[W026]"), "{stderr}");
    assert!(stderr.contains("cargo skills lock alpha"), "{stderr}");

    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    output(&app, &["skills", "lock", "alpha"], 0);
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(stdout.contains("alpha: matches\n"), "{stdout}");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(stdout.contains("alpha: modified"), "{stdout}");
}

/// Item 20: two names that differ only in Unicode normalisation (NFC and
/// NFD) passed `check`; macOS stores them as one file. S521, as case twins.
#[test]
fn names_that_differ_only_in_unicode_normalisation_are_twins() {
    let dir = fresh_dir("hostile5-nfc-nfd");
    write(&dir.join("skills/a/SKILL.md"), &skill("a"));
    write(&dir.join("skills/a/references/caf\u{e9}.md"), "one\n");
    write(&dir.join("skills/a/references/cafe\u{301}.md"), "two\n");
    let (_, stderr) = output(
        &dir,
        &["skills", "check", "skills", "--message-format", "short"],
        1,
    );
    assert!(stderr.contains("error[S521]"), "{stderr}");
    assert!(stderr.contains("Unicode NFC and NFD"), "{stderr}");
}

/// Item 7: `install` wrote through a committed `.agents -> ../../.claude`
/// into the user's own folder while it said `.agents/skills`. A project's
/// host folder reached through a symlink is refused; a folder named with
/// `--to` is printed where it leads.
#[cfg(unix)]
#[test]
fn install_never_writes_through_a_symlinked_host_folder() {
    let dir = fresh_dir("hostile5-install-link");
    let app = package(&dir);
    let elsewhere = dir.join("home/.claude");
    std::fs::create_dir_all(elsewhere.join("skills")).unwrap();
    std::os::unix::fs::symlink("../../.claude", app.join(".agents")).unwrap();
    let (_, stderr) = output(&app, &["skills", "install", "--from", "skills"], 1);
    assert!(stderr.contains("`.agents` is a symlink"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(elsewhere.join("skills")).unwrap().count(),
        0
    );
    std::fs::remove_file(app.join(".agents")).unwrap();
    std::fs::create_dir(app.join(".agents")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("skills"), app.join(".agents/skills")).unwrap();
    let (_, stderr) = output(
        &app,
        &["skills", "install", "--from", "skills", "--to", "agents"],
        1,
    );
    assert!(stderr.contains("`.agents/skills` is a symlink"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(elsewhere.join("skills")).unwrap().count(),
        0
    );
    // A folder the user names is theirs to choose; the output says where it leads.
    std::os::unix::fs::symlink(elsewhere.join("skills"), app.join("out")).unwrap();
    let (stdout, _) = output(
        &app,
        &["skills", "install", "--from", "skills", "--to", "out"],
        0,
    );
    assert!(stdout.contains("out (through a symlink: "), "{stdout}");
    assert!(elsewhere.join("skills/alpha/SKILL.md").is_file());
}

/// Item 4: vendoring followed a symlinked layout folder (`skills ->
/// /home/me/private`), vendoring and locking private folders as the
/// source's. No layout folder is read through a link; and a `local`
/// source that a committed lock names outside the project needs the
/// user's consent.
#[cfg(unix)]
#[test]
fn vendoring_never_reads_through_a_symlinked_layout_folder_or_outside_unasked() {
    let dir = fresh_dir("hostile5-layout-link");
    let app = package(&dir);
    let private = dir.join("home/private");
    write(&private.join("secret/SKILL.md"), &skill("secret"));
    write(&private.join("secret/id_rsa"), "KEY\n");
    let source = app.join("vendor/repo");
    write(&source.join("README.md"), "# repo\n");
    std::os::unix::fs::symlink(&private, source.join("skills")).unwrap();
    std::fs::create_dir_all(source.join(".claude")).unwrap();
    std::os::unix::fs::symlink(&private, source.join(".claude/skills")).unwrap();
    let (_, stderr) = output(&app, &["skills", "add", "./vendor/repo", "--list"], 1);
    assert!(stderr.contains("has no skill"), "{stderr}");
    let (_, stderr) = output(
        &app,
        &[
            "skills",
            "add",
            "./vendor/repo",
            "--path",
            "skills",
            "--all",
        ],
        1,
    );
    assert!(stderr.contains("is a symlink"), "{stderr}");
    assert!(!app.join("skills/secret").exists());

    // A lock that names a folder outside the project as a local source.
    let lock = serde_json::json!({"version": 1, "skills": {"secret": {
        "source": "../../private", "sourceType": "local",
        "skillPath": "secret/SKILL.md", "computedHash": "00"}}});
    write(&app.join("skills-lock.json"), &lock.to_string());
    std::fs::create_dir(app.join(".git")).unwrap();
    let (_, stderr) = output(&app, &["skills", "update", "--dry-run"], 1);
    assert!(stderr.contains("outside this project"), "{stderr}");
    assert!(stderr.contains("--allow-outside"), "{stderr}");
    let (_, stderr) = output(
        &app,
        &["skills", "update", "--dry-run", "--allow-outside"],
        0,
    );
    assert!(stderr.contains("secret: new"), "{stderr}");
    assert!(!app.join("skills/secret").exists(), "--dry-run wrote");
}

/// Item 9: a symlink added to a locked skill was compiled in (the compiler
/// follows a link inside the skill) while the lock, which skipped links,
/// said "matches". The lock's lines record links as git does (mode
/// 120000), so an added one is a change; `lock` records it.
#[cfg(unix)]
#[test]
fn a_symlink_added_to_a_locked_skill_is_a_change() {
    let dir = fresh_dir("hostile5-locked-link");
    let app = package(&dir);
    write(&app.join("skills/alpha/references/data.md"), "# Data\n");
    output(&app, &["skills", "lock"], 0);
    std::fs::create_dir_all(app.join("skills/alpha/scripts")).unwrap();
    std::os::unix::fs::symlink(
        "../references/data.md",
        app.join("skills/alpha/scripts/run.sh"),
    )
    .unwrap();
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(
        stdout.contains("alpha: modified: scripts/run.sh (added)"),
        "{stdout}"
    );
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(stderr.contains("error[S520]"), "{stderr}");
    output(&app, &["skills", "lock", "alpha"], 0);
    let lock = std::fs::read_to_string(app.join("skills-lock.json")).unwrap();
    assert!(lock.contains("scripts/run.sh 120000 "), "{lock}");
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(stdout.contains("alpha: matches\n"), "{stdout}");
    // Pointed elsewhere, it is a change again.
    std::fs::remove_file(app.join("skills/alpha/scripts/run.sh")).unwrap();
    std::os::unix::fs::symlink("../SKILL.md", app.join("skills/alpha/scripts/run.sh")).unwrap();
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(stdout.contains("scripts/run.sh (edited)"), "{stdout}");
}

/// Item 16: `install` read installed files whole to compare them: a 3 GB
/// sparse file dropped into an installed skill took 3.1 GB of memory, with
/// `--dry-run` too. A file the record does not list ends the comparison
/// unread, and listed files are hashed as they stream. The harness reads
/// the command's peak memory from the kernel.
#[cfg(target_os = "linux")]
#[test]
fn an_installed_skill_is_compared_without_reading_a_huge_file_whole() {
    let dir = fresh_dir("hostile5-install-huge");
    let app = package(&dir);
    output(&app, &["skills", "install", "--from", "skills"], 0);
    let huge = std::fs::File::create(app.join(".agents/skills/alpha/huge.bin")).unwrap();
    huge.set_len(3 * 1024 * 1024 * 1024).unwrap();
    // A listed file made huge is streamed, not held.
    let skill_md = std::fs::OpenOptions::new()
        .append(true)
        .open(app.join(".agents/skills/beta/SKILL.md"))
        .unwrap();
    skill_md.set_len(512 * 1024 * 1024).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args(["skills", "install", "--from", "skills", "--dry-run"])
        .current_dir(&app)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, `status` and `usage` are writable.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    let peak_mib = usage.ru_maxrss / 1024;
    assert!(peak_mib < 256, "peak RSS {peak_mib} MiB");
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert!(stdout.contains("alpha  edited"), "{stdout}");
    assert!(stdout.contains("beta   edited"), "{stdout}");
    // Reaped by wait4 above: nothing is left to wait for.
    std::mem::forget(child);
}

/// Item 21: refspec-like refs were accepted (`+refs/heads/x:refs/y` would
/// fetch into a ref of its choosing). Refused before git runs.
#[test]
fn a_ref_that_is_a_refspec_or_an_option_is_refused() {
    let dir = fresh_dir("hostile5-refspec");
    let app = package(&dir);
    for reference in [
        "+main:refs/heads/x",
        "main:x",
        "-u",
        "a..b",
        "a b",
        "x^{tree}",
    ] {
        let source = format!("file:///nonexistent/repo.git#{reference}");
        let (_, stderr) = output(&app, &["skills", "add", &source, "--list"], 1);
        assert!(stderr.contains("is not a ref"), "{reference}: {stderr}");
    }
}

/// A hostile MCP server over stdio, in Python: `mode` says how it misbehaves.
const HOSTILE_SERVER: &str = r#"
import json, sys
mode = sys.argv[1]
page = 0
def skill(i, size):
    uri = "skill://s%d/SKILL.md" % i
    return {"uri": uri, "frontmatter": {"name": "s%d" % i, "description": "Does s. Use when asked."},
            "resources": [{"uri": uri, "digest": "sha256:" + "0" * 64, "size": size}]}
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        if mode == "silent":
            continue
        result = {"protocolVersion": message["params"]["protocolVersion"],
                  "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
                  "serverInfo": {"name": "hostile", "version": "1"}}
    elif method == "skills/list":
        page += 1
        if mode == "cursor":
            result = {"skills": [], "nextCursor": "c%d" % page}
        elif mode == "many":
            result = {"skills": [skill(i, 10) for i in range(65)]}
        elif mode == "huge":
            result = {"skills": [skill(i, 15 * 1024 * 1024) for i in range(60)]}
        elif mode == "dropped":
            sys.stdout.write("x" * (17 * 1024 * 1024) + "\n")
            sys.stdout.flush()
            continue
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
    sys.stdout.flush()
"#;

/// Runs `cargo skills` in `dir` and gives up (failing the test) past
/// `deadline`: the harness's bound, far above an honest run.
fn run_bounded(dir: &Path, args: &[&str], deadline: std::time::Duration) -> (Option<i32>, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read while it runs: a full pipe would stop the command, not end it.
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut stderr = String::new();
        let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
        stderr
    });
    let started = std::time::Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return (None, reader.join().unwrap_or_default());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (code, reader.join().unwrap_or_default())
}

/// Items 5 and 6: `check mcp+stdio:` hung on a server that never answers
/// `initialize` or drops a reply (a line over 16 MiB), listed an endless
/// `nextCursor` into half a gigabyte, and read 128 skills of 15 MiB before
/// any set limit. A session deadline (`--timeout`), a page and skill cap,
/// and the listing's declared bytes summed before anything is read.
#[test]
fn a_hostile_mcp_server_ends_the_check_in_bounded_time_and_memory() {
    let dir = fresh_dir("hostile5-mcp");
    write(&dir.join("server.py"), HOSTILE_SERVER);
    let bound = std::time::Duration::from_secs(90);
    for (mode, says) in [
        ("silent", "no answer within 3 s (`--timeout`)"),
        ("dropped", "no answer within 3 s (`--timeout`)"),
        ("cursor", "past 100 pages"),
        ("many", "more than 64 skills"),
        ("huge", "more than 134217728 (`max_set_bytes`)"),
    ] {
        let server = format!("mcp+stdio:python3 server.py {mode}");
        let (code, stderr) =
            run_bounded(&dir, &["skills", "check", &server, "--timeout", "3"], bound);
        assert_eq!(code, Some(1), "{mode}: the check must end: {stderr}");
        assert!(stderr.contains(says), "{mode}: {stderr}");
    }
}

/// Item 17: a kill between the per-skill renames of `add` left skills in
/// the root without lock entries, and the retry was refused. The lock is
/// written first now, so a kill leaves entries for skills still to come:
/// the state is made here by hand (the lock written, one skill not yet
/// moved, the staging of the killed process left behind), and `add` again
/// completes it and clears the dead process's staging.
#[test]
fn an_add_killed_half_way_is_completed_by_running_it_again() {
    let dir = fresh_dir("hostile5-add-killed");
    let app = package(&dir);
    write(&app.join("vendor/one/SKILL.md"), &skill("one"));
    write(&app.join("vendor/two/SKILL.md"), &skill("two"));
    output(&app, &["skills", "lock"], 0);
    output(&app, &["skills", "add", "./vendor", "--all"], 0);
    // As a kill after the lock and the first rename leaves it.
    std::fs::remove_dir_all(app.join("skills/two")).unwrap();
    let dead = {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let stale = app.join(format!(".skills-stage-{dead}-0"));
    write(&stale.join("one/SKILL.md"), &skill("one"));
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(stderr.contains("`skills/two` does not exist"), "{stderr}");
    output(&app, &["skills", "add", "./vendor", "--all"], 0);
    assert!(app.join("skills/two/SKILL.md").is_file());
    assert!(!stale.exists(), "the dead process's staging is left");
    output(&app, &["skills", "check", "--locked"], 0);
}
