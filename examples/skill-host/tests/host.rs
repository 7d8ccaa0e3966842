//! The host binary as a user runs it: built-in skills, a user root over
//! them, diagnostics, and `--watch` following real file changes.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn root(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skill-host-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(root: &Path, name: &str, description: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n");
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

fn host() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skill-host"))
}

#[test]
fn the_users_skills_join_the_built_in_ones_and_win_on_a_name() {
    let user = root("user");
    write(
        &user,
        "code-review",
        "The user's own review. Use when reviewing.",
    );
    write(
        &user,
        "standup",
        "Write the standup note. Use when the user asks.",
    );
    let output = host().arg(&user).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        "3 skills:\n\
         - code-review: The user's own review. Use when reviewing.\n\
         - release-notes: Draft release notes from merged changes. Use when the user asks what changed in a release or wants notes for one.\n\
         - standup: Write the standup note. Use when the user asks.\n--\n"
    );
    assert!(
        stderr.contains("note: skill `code-review` of layer `built-in`"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&user);
}

#[test]
fn a_broken_user_root_is_reported_with_its_diagnostics() {
    let user = root("broken");
    write(&user, "Bad Name", "x");
    let output = host().arg(&user).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("error[S"), "{stderr}");
    assert!(stderr.contains("Bad Name/SKILL.md:2:7"), "{stderr}");
    // Lenient reads it, and says what it assumed.
    let output = host()
        .args(["--profile", "lenient"])
        .arg(&user)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(stdout.contains("- bad-name: x\n"), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("warning[S103]"));
    let _ = std::fs::remove_dir_all(&user);
}

/// Reads catalogs (blocks ending in `--`) as the host prints them.
fn catalogs(stdout: std::process::ChildStdout) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut block = String::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line == "--" {
                let _ = send.send(std::mem::take(&mut block));
            } else {
                block.push_str(&line);
                block.push('\n');
            }
        }
    });
    receive
}

/// The next catalog that satisfies `done`, within 20 s.
fn next(catalogs: &mpsc::Receiver<String>, done: impl Fn(&str) -> bool) -> String {
    loop {
        let catalog = catalogs
            .recv_timeout(Duration::from_secs(20))
            .expect("the host printed no new catalog");
        if done(&catalog) {
            return catalog;
        }
    }
}

#[test]
fn watch_reprints_the_catalog_when_the_users_files_change() {
    let user = root("watch");
    write(
        &user,
        "standup",
        "Write the standup note. Use when the user asks.",
    );
    let mut child = host()
        .arg("--watch")
        .arg(&user)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let catalogs = catalogs(child.stdout.take().unwrap());
    let first = next(&catalogs, |_| true);
    assert!(first.starts_with("3 skills:\n"), "{first}");

    write(&user, "triage", "Sort new issues. Use when issues pile up.");
    next(&catalogs, |c| c.contains("- triage: Sort new issues."));

    // Broken: the last good skills stay.
    std::fs::write(user.join("triage/SKILL.md"), "---\nname: triage\n---\n").unwrap();
    let kept = next(&catalogs, |_| true);
    assert!(kept.contains("- triage: Sort new issues."), "{kept}");

    std::fs::remove_dir_all(user.join("triage")).unwrap();
    next(&catalogs, |c| {
        c.starts_with("3 skills:\n") && !c.contains("triage")
    });
    child.kill().unwrap();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&user);
}
