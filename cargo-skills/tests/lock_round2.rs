//! Lock, round 2 (issue 57): restoring exactly what was locked, and a
//! newcomer's rough edges, each through the command a user runs. Every test
//! here failed on the code before its fix.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{fresh_dir, git, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}. Use when asked to {name}.\n---\nBody.\n")
}

/// Item 6: `fix --to portable` renamed a parent skill's folder before its
/// nested child's, then stopped ("cannot rename .../<child>: No such file
/// or directory") with other renames undone. Renames are planned whole,
/// the deepest first.
#[test]
fn fix_renames_nested_skills_deepest_first_and_all_of_them() {
    let dir = fresh_dir("lock2-nested-renames");
    write(
        &dir.join("skills/Downloads/SKILL.md"),
        "---\nname: Downloads\ndescription: Fetches files. Use when asked to download.\n---\nBody.\n",
    );
    write(
        &dir.join("skills/Downloads/Mirror Sites/SKILL.md"),
        "---\nname: Mirror Sites\ndescription: Lists mirrors. Use when a download is slow.\n---\nBody.\n",
    );
    write(
        &dir.join("skills/Other/SKILL.md"),
        "---\nname: Other\ndescription: Does other things. Use when asked.\n---\nBody.\n",
    );
    let (_, stderr) = output(
        &dir,
        &[
            "skills",
            "fix",
            "skills",
            "--to",
            "portable",
            "--allow-dirty",
        ],
        0,
    );
    assert!(!stderr.contains("cannot rename"), "{stderr}");
    for renamed in [
        "skills/downloads/SKILL.md",
        "skills/downloads/mirror-sites/SKILL.md",
        "skills/other/SKILL.md",
    ] {
        assert!(dir.join(renamed).is_file(), "{renamed}: {stderr}");
    }
    output(
        &dir,
        &["skills", "check", "skills", "--profile", "portable"],
        0,
    );
}

/// A source repository with one skill, served by a `file://` URL.
fn source(dir: &Path) -> (PathBuf, String) {
    let work = dir.join("upstream");
    write(&work.join("skills/pdf/SKILL.md"), &skill("pdf"));
    write(&work.join("skills/pdf/references/guide.md"), "# Guide v1\n");
    git(&work, &["init", "-q"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "v1"]);
    git(dir, &["clone", "-q", "--bare", "upstream", "upstream.git"]);
    git(
        &work,
        &[
            "remote",
            "add",
            "origin",
            dir.join("upstream.git").to_str().unwrap(),
        ],
    );
    (
        work,
        format!("file://{}", dir.join("upstream.git").display()),
    )
}

fn package(dir: &Path) -> PathBuf {
    let app = dir.join("app");
    write(
        &app.join("Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    );
    write(&app.join("src/main.rs"), "fn main() {}\n");
    app
}

/// Item 1: `sync` restores exactly what the lock recorded (the recorded
/// commit, not the branch's newest), verified, all or nothing, the lock left
/// byte for byte: a fresh clone whose vendored folders are missing, or
/// edited, is brought back.
#[test]
fn sync_restores_the_locked_commit_and_leaves_the_lock_byte_for_byte() {
    let dir = fresh_dir("lock2-sync");
    let (upstream, url) = source(&dir);
    let app = package(&dir);
    output(&app, &["skills", "add", &url, "--skill", "pdf"], 0);
    let lock = std::fs::read(app.join("skills-lock.json")).unwrap();
    // Upstream moves on.
    write(
        &upstream.join("skills/pdf/references/guide.md"),
        "# Guide v2\n",
    );
    git(&upstream, &["commit", "-q", "-am", "v2"]);
    git(&upstream, &["push", "-q", "origin", "main"]);

    // Missing (a team that gitignores vendored folders).
    std::fs::remove_dir_all(app.join("skills/pdf")).unwrap();
    let (_, stderr) = output(&app, &["skills", "sync", "--dry-run"], 0);
    assert!(stderr.contains("Would restore pdf"), "{stderr}");
    assert!(!app.join("skills/pdf").exists(), "--dry-run wrote");
    let (_, stderr) = output(&app, &["skills", "sync"], 0);
    assert!(
        stderr.contains("Restored pdf in skills/pdf from"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(app.join("skills/pdf/references/guide.md")).unwrap(),
        "# Guide v1\n",
        "the locked commit, not upstream's newest"
    );
    assert_eq!(std::fs::read(app.join("skills-lock.json")).unwrap(), lock);

    // Edited: every message that means "differs from the lock" offers
    // `sync` to restore and `update` to move.
    write(&app.join("skills/pdf/references/guide.md"), "# mine\n");
    let (stdout, stderr) = output(&app, &["skills", "verify"], 1);
    assert!(stdout.contains("pdf: modified"), "{stdout}");
    assert!(stderr.contains("`cargo skills sync`"), "{stderr}");
    assert!(stderr.contains("`cargo skills update`"), "{stderr}");
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(
        stderr.contains("restore what was locked with `cargo skills sync pdf`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("move to upstream's newest with `cargo skills update pdf`"),
        "{stderr}"
    );
    let (_, stderr) = output(&app, &["skills", "update", "--dry-run"], 0);
    assert!(
        stderr.contains("upstream changed references/guide.md"),
        "{stderr}"
    );
    assert!(!stderr.contains("edited"), "{stderr}");
    output(&app, &["skills", "sync", "pdf"], 0);
    assert_eq!(
        std::fs::read_to_string(app.join("skills/pdf/references/guide.md")).unwrap(),
        "# Guide v1\n"
    );
    let (_, stderr) = output(&app, &["skills", "sync"], 0);
    assert!(stderr.contains("pdf: matches the lock"), "{stderr}");
    assert_eq!(std::fs::read(app.join("skills-lock.json")).unwrap(), lock);
}

/// Item 1, an entry as Vercel's CLI writes it (no `commit`, no `files`):
/// restored from its source at its ref when that still hashes to
/// `computedHash`, refused with why (and nothing written) when upstream
/// has moved.
#[test]
fn sync_of_an_entry_without_a_commit_verifies_against_computed_hash() {
    let dir = fresh_dir("lock2-sync-vercel");
    let (upstream, url) = source(&dir);
    let app = package(&dir);
    output(&app, &["skills", "add", &url, "--skill", "pdf"], 0);
    let mut lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(app.join("skills-lock.json")).unwrap())
            .unwrap();
    let entry = lock["skills"]["pdf"].as_object_mut().unwrap();
    entry.remove("commit");
    entry.remove("files");
    let text = serde_json::to_string_pretty(&lock).unwrap() + "\n";
    write(&app.join("skills-lock.json"), &text);
    std::fs::remove_dir_all(app.join("skills/pdf")).unwrap();
    output(&app, &["skills", "sync"], 0);
    assert!(app.join("skills/pdf/SKILL.md").is_file());

    write(
        &upstream.join("skills/pdf/references/guide.md"),
        "# Guide v2\n",
    );
    git(&upstream, &["commit", "-q", "-am", "v2"]);
    git(&upstream, &["push", "-q", "origin", "main"]);
    std::fs::remove_dir_all(app.join("skills/pdf")).unwrap();
    let (_, stderr) = output(&app, &["skills", "sync"], 1);
    assert!(
        stderr.contains("records no commit to go back to"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(!app.join("skills/pdf").exists());
    assert_eq!(
        std::fs::read_to_string(app.join("skills-lock.json")).unwrap(),
        text
    );
}

/// A skill of someone else's, as published: an unknown key (S112 under
/// `extended`) and a link one level too far out of the root (S517).
const PUBLISHED: &str = "---\nname: shared\ndescription: Shares files. Use when asked to share.\nmade-by: someone\n---\nSee [the other skill](../../other-skill/SKILL.md).\n";

/// Items 2 and 3: `add` refused published skills under the package's
/// profile, and a vendored skill's defects failed the package's build. A
/// skill the lock records is held to `lenient` (or `vendored_profile`), its
/// defects warnings that name the upstream; the package's own skills keep
/// the package's profile; and `lenient` takes a link out of the root (hosts
/// load such skills) as a warning.
#[test]
fn vendored_skills_are_held_to_the_lenient_rules_and_name_their_upstream() {
    let dir = fresh_dir("lock2-vendored-rules");
    let app = package(&dir);
    write(&app.join("vendor/shared/SKILL.md"), PUBLISHED);
    write(&app.join("skills/mine/SKILL.md"), &skill("mine"));
    output(&app, &["skills", "lock"], 0);
    let (_, stderr) = output(&app, &["skills", "add", "./vendor", "--skill", "shared"], 0);
    assert!(stderr.contains("Added shared"), "{stderr}");
    let short = ["skills", "check", "--message-format", "short", "--verbose"];
    let (_, stderr) = output(&app, &short, 0);
    assert!(stderr.contains("warning[S112]"), "{stderr}");
    assert!(stderr.contains("warning[S517]"), "{stderr}");
    let (_, stderr) = output(&app, &["skills", "check", "--verbose"], 0);
    assert!(
        stderr.contains("`shared` is vendored from `./vendor` (skills-lock.json): report it there"),
        "{stderr}"
    );
    // The package's own skill with the same defects keeps its profile.
    write(
        &app.join("skills/mine/SKILL.md"),
        &PUBLISHED.replace("shared", "mine"),
    );
    let (_, stderr) = output(&app, &short, 1);
    assert!(
        stderr.contains("skills/mine/SKILL.md:4:1: error[S112]"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skills/shared/SKILL.md:4:1: warning[S112]"),
        "{stderr}"
    );
    // A manifest key sets the vendored skills' rules.
    write(&app.join("skills/mine/SKILL.md"), &skill("mine"));
    let manifest = std::fs::read_to_string(app.join("Cargo.toml")).unwrap();
    write(
        &app.join("Cargo.toml"),
        &manifest.replace(
            "[workspace]",
            "[package.metadata.skills]\nvendored_profile = \"extended\"\n\n[workspace]",
        ),
    );
    let (_, stderr) = output(&app, &["skills", "check", "--message-format", "short"], 1);
    assert!(
        stderr.contains("skills/shared/SKILL.md:4:1: error[S112]"),
        "{stderr}"
    );
}

/// Item 8: a vendored skill's warnings repeated on every command (W008
/// with a 200-character underline); they are one line per skill (W027)
/// unless `--verbose`, in `check` and the commands that print diagnostics
/// on the way, while machine formats keep each one.
#[test]
fn a_vendored_skills_warnings_are_one_line_unless_verbose() {
    let dir = fresh_dir("lock2-vendored-summary");
    let app = package(&dir);
    write(&app.join("vendor/shared/SKILL.md"), PUBLISHED);
    write(&app.join("skills/mine/SKILL.md"), &skill("mine"));
    output(&app, &["skills", "add", "./vendor", "--skill", "shared"], 0);
    let summary = "skills/shared: warning[W027]: `shared`, vendored from `./vendor`, has 2 warnings: S112, S517";
    for command in [
        &["skills", "check", "--message-format", "short"][..],
        &["skills", "list"],
        &["skills", "catalog"],
    ] {
        let (_, stderr) = output(&app, command, 0);
        assert!(stderr.contains(summary), "{command:?}: {stderr}");
        assert!(!stderr.contains("[S112]"), "{command:?}: {stderr}");
        assert_eq!(stderr.matches("shared").count(), 2, "{command:?}: {stderr}");
    }
    let (_, stderr) = output(&app, &["skills", "check"], 0);
    assert!(stderr.contains("warning[W027]"), "{stderr}");
    assert!(stderr.contains("`--verbose` shows each"), "{stderr}");
    // The summary line still counts every warning.
    assert!(stderr.contains("2 warnings"), "{stderr}");
    let (_, stderr) = output(&app, &["skills", "list", "--verbose"], 0);
    assert!(stderr.contains("warning[S112]"), "{stderr}");
    assert!(!stderr.contains("W027"), "{stderr}");
    let (stdout, _) = output(&app, &["skills", "check", "--message-format", "json"], 0);
    assert!(stdout.contains("\"S112\""), "{stdout}");
    assert!(!stdout.contains("W027"), "{stdout}");
}

/// Item 3: `lenient` refused a skill whose link leaves the root (S517),
/// which every host loads; a warning now, the file not embedded.
#[test]
fn lenient_takes_a_link_out_of_the_root_as_a_warning() {
    let dir = fresh_dir("lock2-lenient-link");
    write(
        &dir.join("skills/shared/SKILL.md"),
        &PUBLISHED.replace("made-by: someone\n", ""),
    );
    let (_, stderr) = output(
        &dir,
        &[
            "skills",
            "check",
            "skills",
            "--profile",
            "lenient",
            "--message-format",
            "short",
        ],
        0,
    );
    assert!(stderr.contains("warning[S517]"), "{stderr}");
    assert!(
        stderr.contains("the link is broken wherever the skill is installed"),
        "{stderr}"
    );
    output(
        &dir,
        &["skills", "check", "skills", "--message-format", "short"],
        1,
    );
}

/// Item 4: Vercel's CLI installs a skill for an agent into
/// `.claude/skills/NAME` (or `.agents/skills/NAME`) and records it in the
/// same lock. `verify`, `check --locked` and `sync` find it there and
/// verify it where it is; a skill that is nowhere names where they looked.
#[test]
fn a_skill_installed_for_an_agent_is_verified_and_restored_where_it_is() {
    let dir = fresh_dir("lock2-agent-folders");
    let (_, url) = source(&dir);
    let app = package(&dir);
    output(&app, &["skills", "add", &url, "--skill", "pdf"], 0);
    // As Vercel's CLI lays it out for Claude Code: the skill under
    // `.claude/skills`, the entry in the project's lock.
    std::fs::create_dir_all(app.join(".claude/skills")).unwrap();
    std::fs::rename(app.join("skills/pdf"), app.join(".claude/skills/pdf")).unwrap();
    std::fs::remove_dir(app.join("skills")).unwrap();
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert_eq!(stdout, "pdf (in .claude/skills/pdf): matches\n");

    write(
        &app.join(".claude/skills/pdf/references/guide.md"),
        "# mine\n",
    );
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(
        stdout.starts_with("pdf (in .claude/skills/pdf): modified: references/guide.md (edited)"),
        "{stdout}"
    );
    let (_, stderr) = output(&app, &["skills", "sync"], 0);
    assert!(
        stderr.contains("Restored pdf in .claude/skills/pdf"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(app.join(".claude/skills/pdf/references/guide.md")).unwrap(),
        "# Guide v1\n"
    );
    assert!(
        !app.join("skills/pdf").exists(),
        "restored where it was, not in the root"
    );

    std::fs::remove_dir_all(app.join(".claude/skills/pdf")).unwrap();
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(
        stdout.contains("pdf: missing (looked in skills/pdf, .agents/skills/pdf, .claude/skills/pdf, .codex/skills/pdf)"),
        "{stdout}"
    );
}

/// Item 5: `install` wrote its record `.skills-install.json` inside each
/// installed skill, so `verify` and `--locked` counted it as an added file,
/// and an install into the package's own root broke the lock. The record
/// is not a file of the skill: an installed skill verifies against its
/// entry.
#[test]
fn an_installed_skill_verifies_against_its_lock_entry() {
    let dir = fresh_dir("lock2-install-record");
    let app = package(&dir);
    write(&app.join("skills/mine/SKILL.md"), &skill("mine"));
    write(
        &app.join("skills/mine/scripts/run.sh"),
        "#!/bin/sh\necho run\n",
    );
    output(&app, &["skills", "lock"], 0);
    output(
        &app,
        &[
            "skills", "install", "--from", "skills", "--to", "skills", "--force",
        ],
        0,
    );
    assert!(app.join("skills/mine/.skills-install.json").is_file());
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert_eq!(stdout, "mine: matches\n");
    output(&app, &["skills", "check", "--locked"], 0);
}

/// Vercel's `skills` CLI (npm `skills@1.7.4`, which needs Node 22), set up
/// once under the target's temporary folder with npm: Node 22 comes from
/// npm's `node` package. The test fails, not skips, when it cannot be had.
fn vercel_cli() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vercel-skills-1.7.4");
    let bin = dir.join("node_modules/.bin");
    if bin.join("skills").exists() && bin.join("node").exists() {
        return bin;
    }
    std::fs::create_dir_all(&dir).unwrap();
    let installed = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "node@22",
            "skills@1.7.4",
        ])
        .current_dir(&dir)
        .output()
        .expect("npm (Node's package manager) is needed to install Vercel's skills CLI");
    assert!(installed.status.success(), "npm install: {installed:?}");
    bin
}

/// Items 4 and 9 against the real Vercel CLI: `skills add SRC -a
/// claude-code` writes the skill into `.claude/skills/pdf` and a bare entry
/// into the project's lock; `cargo skills verify` finds it there, says the
/// check is by `computedHash` only, and `lock pdf` adds the per-file lines
/// (keeping the entry's source); the Vercel CLI re-adding the skill drops
/// them again, and `verify` says so; `sync` restores a deleted
/// skill where the agent reads it.
#[test]
fn a_lock_the_vercel_cli_writes_for_an_agent_is_shared() {
    let bin = vercel_cli();
    let dir = fresh_dir("lock2-vercel-cli");
    let app = package(&dir);
    write(&dir.join("src/skills/pdf/SKILL.md"), &skill("pdf"));
    write(
        &dir.join("src/skills/pdf/scripts/run.sh"),
        "#!/bin/sh\necho run\n",
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let vercel_add = || {
        let added = Command::new(bin.join("skills"))
            .args(["add", "../src", "--agent", "claude-code", "--yes", "--copy"])
            .current_dir(&app)
            .env("PATH", &path)
            .env("CI", "1")
            .output()
            .unwrap();
        assert!(added.status.success(), "skills add: {added:?}");
    };
    vercel_add();
    assert!(app.join(".claude/skills/pdf/SKILL.md").is_file());
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(
        stdout.starts_with("pdf (in .claude/skills/pdf): matches (by `computedHash` only"),
        "{stdout}"
    );
    output(&app, &["skills", "lock", "pdf"], 0);
    let lock = std::fs::read_to_string(app.join("skills-lock.json")).unwrap();
    assert!(lock.contains("\"source\": \"../src\""), "{lock}");
    assert!(lock.contains("SKILL.md 100644 "), "{lock}");
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert_eq!(stdout, "pdf (in .claude/skills/pdf): matches\n");

    // The Vercel CLI adding it again drops our keys.
    vercel_add();
    let lock = std::fs::read_to_string(app.join("skills-lock.json")).unwrap();
    assert!(!lock.contains("\"files\""), "{lock}");
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(
        stdout.contains("matches (by `computedHash` only")
            && stdout.contains("`cargo skills lock pdf` adds them"),
        "{stdout}"
    );

    std::fs::remove_dir_all(app.join(".claude/skills/pdf")).unwrap();
    let (_, stderr) = output(&app, &["skills", "sync", "--allow-outside"], 0);
    assert!(
        stderr.contains("Restored pdf in .claude/skills/pdf"),
        "{stderr}"
    );
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(
        stdout.starts_with("pdf (in .claude/skills/pdf): matches"),
        "{stdout}"
    );
}
