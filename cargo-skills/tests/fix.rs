//! `cargo skills fix` as a user runs it: on every broken fixture, `--dry-run`
//! diffs (insta snapshots), and the uncommitted-changes guard with a real git.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use support::{cargo_skills_in, fresh_dir, output as run, workspace};

/// A fresh copy of the compiler's broken fixtures.
fn broken_copy(name: &str) -> PathBuf {
    let dir = fresh_dir(&format!("fix-{name}"));
    copy_dir(
        &workspace().join("skills-compiler/tests/fixtures/broken"),
        &dir,
    );
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn fixtures(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("SKILL.md").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Short diagnostics of `check` on one fixture, without the summary line.
fn check(dir: &Path, fixture: &str) -> Vec<String> {
    let output = cargo_skills_in(dir)
        .args([
            "check",
            fixture,
            "--profile",
            "extended",
            "--message-format",
            "short",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stderr).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.pop();
    lines
}

#[test]
fn fix_on_every_broken_fixture_settles_what_it_can_and_touches_nothing_else() {
    let dir = broken_copy("every-fixture");
    let mut fixed_any = Vec::new();
    for fixture in fixtures(&dir) {
        let path = dir.join(&fixture).join("SKILL.md");
        let before = std::fs::read(&path).unwrap();
        let problems_before = check(&dir, &fixture);
        let output = cargo_skills_in(&dir)
            .args(["fix", &fixture, "--allow-dirty", "--profile", "extended"])
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        let after = std::fs::read(&path).unwrap();
        let problems_after = check(&dir, &fixture);
        if before == after {
            assert_eq!(problems_after, problems_before, "{fixture}: {stderr}");
            assert!(
                stderr
                    .lines()
                    .last()
                    .unwrap()
                    .starts_with("0 fixes in 0 files"),
                "{fixture}: {stderr}"
            );
            continue;
        }
        fixed_any.push(fixture.clone());
        // What is left is what `check` said minus what was fixed.
        assert!(
            problems_after.len() < problems_before.len(),
            "{fixture}: {problems_before:?} -> {problems_after:?}"
        );
        assert!(
            problems_after
                .iter()
                .all(|p| problems_before.contains(p) || !p.contains("error")),
            "{fixture}: new problems {problems_after:?}"
        );
        // Only the lines that were fixed changed; the body not at all.
        let (before, after) = (
            String::from_utf8(before).unwrap(),
            String::from_utf8(after).unwrap(),
        );
        let fixed_lines: Vec<usize> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("  ")?.split(':').next()?.parse().ok())
            .collect();
        assert_eq!(before.lines().count(), after.lines().count(), "{fixture}");
        for (number, (a, b)) in before.lines().zip(after.lines()).enumerate() {
            if a != b {
                assert!(
                    fixed_lines.contains(&(number + 1)),
                    "{fixture}: line {} changed without a fix: {a:?} -> {b:?}",
                    number + 1
                );
            }
        }
        let body = |text: &str| text.splitn(3, "\n---").nth(2).map(str::to_owned);
        if fixture == "broken-links" {
            // A link's fix-it is in the body: the one file of that name.
            assert!(
                after.contains("[the architecture](resources/architecture-overview.md)"),
                "{after}"
            );
        } else {
            // Every other fix-it edits the frontmatter only.
            assert_eq!(body(&before), body(&after), "{fixture}: the body changed");
        }
    }
    assert_eq!(
        fixed_any,
        [
            "Bad_Name",
            "broken-links",
            "endpoint-problems",
            "unquoted-colon"
        ],
        "the fixtures with a machine-applicable fix-it"
    );
}

#[test]
fn dry_run_prints_a_unified_diff_and_writes_nothing() {
    let dir = broken_copy("dry-run");
    let before = std::fs::read(dir.join("endpoint-problems/SKILL.md")).unwrap();
    let (stdout, stderr) = run(
        &dir,
        &[
            "fix",
            "endpoint-problems",
            "unquoted-colon",
            "--dry-run",
            "--profile",
            "extended",
        ],
        1,
    );
    insta::assert_snapshot!("fix_dry_run_stdout", stdout);
    insta::assert_snapshot!("fix_dry_run_stderr", stderr);
    assert_eq!(
        std::fs::read(dir.join("endpoint-problems/SKILL.md")).unwrap(),
        before
    );
}

fn git(dir: &Path, args: &[&str]) {
    let status = Process::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

#[test]
fn uncommitted_changes_are_not_touched_without_allow_dirty() {
    // Outside any git work tree (this workspace's is not above the temp dir).
    let dir = std::env::temp_dir().join(format!("skills-fix-git-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("skills/a")).unwrap();
    let text = "---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n";
    std::fs::write(dir.join("skills/a/SKILL.md"), text).unwrap();
    // No git: refused, as `cargo fix` refuses without version control.
    let (_, stderr) = run(&dir, &["fix", "skills"], 2);
    assert!(stderr.contains("no git work tree"), "{stderr}");
    git(&dir, &["init", "-q"]);
    // Untracked: uncommitted.
    let (_, stderr) = run(&dir, &["fix", "skills"], 2);
    assert!(
        stderr.contains("uncommitted changes") && stderr.contains("skills/a/SKILL.md"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("skills/a/SKILL.md")).unwrap(),
        text
    );
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "skills"]);
    // Committed: fixed without the flag.
    let (_, stderr) = run(&dir, &["fix", "skills"], 0);
    assert!(
        stderr.starts_with("Fixed skills/a/SKILL.md (1 fix)\n  3:1: S007: quote the value\n"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("skills/a/SKILL.md")).unwrap(),
        "---\nname: a\ndescription: \"Does a. Use when: asked\"\n---\nBody\n"
    );
    // The fix committed, then the file edited again: refused, then allowed.
    git(&dir, &["commit", "-q", "-am", "fixed"]);
    std::fs::write(dir.join("skills/a/SKILL.md"), text).unwrap();
    run(&dir, &["fix", "skills"], 2);
    run(&dir, &["fix", "skills", "--allow-dirty"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_check_prints_the_diff_and_fmt_writes_the_canonical_style() {
    let dir = fresh_dir("fmt");
    copy_dir(&workspace().join("examples/issue-tracker/skills"), &dir);
    let before = std::fs::read_to_string(dir.join("github-issues/SKILL.md")).unwrap();
    let (stdout, stderr) = run(&dir, &["fmt", ".", "--check"], 1);
    insta::assert_snapshot!("fmt_check_stdout", stdout);
    // writing-style is canonical already: its one-line description stays.
    assert_eq!(
        stderr,
        "2 files are not formatted: run `cargo skills fmt`\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("github-issues/SKILL.md")).unwrap(),
        before,
        "--check writes nothing"
    );
    let (_, stderr) = run(&dir, &["fmt", "."], 0);
    assert_eq!(
        stderr,
        "Formatted github-issues/SKILL.md\nFormatted triage-protocol/SKILL.md\n"
    );
    // Formatted: `--check` passes, and the skills still check clean.
    run(&dir, &["fmt", ".", "--check"], 0);
    let (_, stderr) = run(&dir, &["check", "."], 0);
    assert_eq!(stderr, "ok: 3 skills valid, 0 warnings\n");
    // The body is the same bytes, every one of them.
    let after = std::fs::read_to_string(dir.join("github-issues/SKILL.md")).unwrap();
    let body = |text: &str| text.split_once("\n---\n").unwrap().1.to_owned();
    assert_eq!(body(&after), body(&before));
}

#[test]
fn fix_to_portable_writes_out_what_lenient_assumed_and_renames_the_folder() {
    let dir = fresh_dir("fix-to");
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "skills/My_Tool/SKILL.md",
        "---\nname: My Tool\ndescription: Does tools. Use when: asked\nversion: 1.0\ntools: Read, Grep\n---\nBody: kept.\n",
    );
    write(
        "skills/noted/SKILL.md",
        "---\n# kept by hand\nname: noted\ndescription: Notes. Use when asked.\nversion: 2\n---\nBody.\n",
    );
    // Before: neither is portable.
    let (_, before) = run(&dir, &["check", "skills", "--profile", "portable"], 1);
    assert!(before.contains("My_Tool"), "{before}");
    let (stdout, stderr) = run(&dir, &["fix", "skills", "--to", "portable", "--dry-run"], 1);
    insta::assert_snapshot!("fix_to_portable_dry_run", stdout);
    assert!(
        stderr.contains("note: left as it is: skills/noted/SKILL.md has a comment"),
        "{stderr}"
    );
    let (_, stderr) = run(
        &dir,
        &["fix", "skills", "--to", "portable", "--allow-dirty"],
        1,
    );
    assert!(
        stderr.contains("Renamed skills/My_Tool -> skills/my-tool"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(dir.join("skills/my-tool/SKILL.md")).unwrap();
    assert_eq!(
        text,
        "---\nname: my-tool\ndescription: \"Does tools. Use when: asked\"\nmetadata:\n  version: \"1.0\"\n  original-name: My Tool\nallowed-tools: Read Grep\n---\n\nBody: kept.\n"
    );
    assert!(!dir.join("skills/My_Tool").exists());
    // What is left is the commented skill's `version`, which `fix` would not rewrite.
    let (_, after) = run(
        &dir,
        &[
            "check",
            "skills",
            "--profile",
            "portable",
            "--message-format",
            "short",
        ],
        1,
    );
    assert_eq!(
        after,
        "skills/noted/SKILL.md:5:1: error[S113]: `version` is not part of the Agent Skills specification (profile `portable`)\nfailed: 2 skills checked, 1 valid, 1 with errors, 0 with warnings; 1 error, 0 warnings\n"
    );
}

/// `fix --to portable` on a skill with `tools` creates the `tools.yaml`
/// sidecar (it stopped at "cannot write skills/deploy/tools.yaml: No such
/// file or directory" with SKILL.md already rewritten; found by the README
/// test), and the result is portable.
#[test]
fn fix_to_portable_creates_the_tools_sidecar() {
    let dir = fresh_dir("fix-to-sidecar");
    std::fs::create_dir_all(dir.join("skills/deploy")).unwrap();
    std::fs::write(
        dir.join("skills/deploy/SKILL.md"),
        "---\nname: deploy\ndescription: Deploys the app. Use when asked to ship.\ntools:\n  - name: run_job\n    description: Runs a deploy job.\n    endpoint:\n      method: POST\n      url: https://ci.example.com/jobs\n---\nBody.\n",
    )
    .unwrap();
    run(&dir, &["check", "skills", "--profile", "portable"], 1);
    let (_, stderr) = run(
        &dir,
        &["fix", "skills", "--to", "portable", "--allow-dirty"],
        0,
    );
    assert!(
        stderr.contains("Rewrote skills/deploy/tools.yaml"),
        "{stderr}"
    );
    let sidecar = std::fs::read_to_string(dir.join("skills/deploy/tools.yaml")).unwrap();
    assert!(sidecar.contains("run_job"), "{sidecar}");
    let skill = std::fs::read_to_string(dir.join("skills/deploy/SKILL.md")).unwrap();
    assert!(!skill.contains("run_job"), "{skill}");
    run(&dir, &["check", "skills", "--profile", "portable"], 0);
}

#[test]
fn a_skill_file_named_in_the_wrong_case_is_renamed_then_fixed() {
    let dir = fresh_dir("fix-case");
    std::fs::create_dir_all(dir.join("skills/a")).unwrap();
    std::fs::write(
        dir.join("skills/a/skill.md"),
        "---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n",
    )
    .unwrap();
    let (stdout, _) = run(&dir, &["fix", "skills", "--dry-run"], 1);
    assert_eq!(stdout, "rename skills/a/skill.md -> skills/a/SKILL.md\n");
    assert!(dir.join("skills/a/skill.md").is_file());
    let (_, stderr) = run(&dir, &["fix", "skills", "--allow-dirty"], 0);
    assert!(
        stderr.starts_with("Renamed skills/a/skill.md -> skills/a/SKILL.md (S502)\nFixed skills/a/SKILL.md (1 fix)\n"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("skills/a/SKILL.md")).unwrap(),
        "---\nname: a\ndescription: \"Does a. Use when: asked\"\n---\nBody\n"
    );
}

/// Issue 40, item 8: values that are lists or mappings (`tags`,
/// `triggers`, `requires: {mcp: [rube]}`) were not moved into `metadata`,
/// and the migrated skill still failed S113. They move as their JSON text,
/// and a note says so.
#[test]
fn fix_to_portable_moves_lists_and_mappings_as_json_text() {
    let dir = fresh_dir("fix-to-json");
    let path = dir.join("skills/composio/SKILL.md");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "---\nname: composio\ndescription: Connects apps. Use when asked to automate an app.\ntags: [automation, apps]\ntriggers: [connect]\nrequires:\n  mcp: [rube]\n---\nBody.\n",
    )
    .unwrap();
    run(&dir, &["check", "skills", "--profile", "portable"], 1);
    let (_, stderr) = run(
        &dir,
        &["fix", "skills", "--to", "portable", "--allow-dirty"],
        0,
    );
    assert!(
        stderr.contains("`tags`, `triggers`, `requires` moved into `metadata` as JSON text"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("  tags: '[\"automation\",\"apps\"]'\n")
            || text.contains("  tags: \"[\\\"automation\\\",\\\"apps\\\"]\"\n"),
        "{text}"
    );
    assert!(text.contains("requires: "), "{text}");
    let (_, after) = run(&dir, &["check", "skills", "--profile", "portable"], 0);
    assert_eq!(after, "ok: 1 skill valid, 0 warnings\n");
}
