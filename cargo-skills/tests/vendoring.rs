//! Skills in (issue 39): `cargo skills add`, `update`, `remove`, `lock`,
//! `verify` and `check --locked`, against real git repositories made here
//! (bare, served by `file://` URLs: nothing reaches the internet), and the
//! whole cycle through a real cargo build with `locked = true`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{cargo_skills_in, fresh_dir, git, output};

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}. Use when asked to {name}.\n---\nBody.\n")
}

#[cfg(unix)]
fn set_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

/// A source repository: a work tree to commit in, and a bare clone served
/// by a `file://` URL that the work tree pushes to.
struct Source {
    work: PathBuf,
    bare: PathBuf,
}

impl Source {
    /// Two skills under `skills/` (one with an executable script and a
    /// binary asset) and one nested in a plugin, committed and tagged `v1`.
    fn new(dir: &Path) -> Source {
        let work = dir.join("source");
        let bare = dir.join("source.git");
        write(&work.join("skills/pdf/SKILL.md"), skill("pdf").as_bytes());
        write(
            &work.join("skills/pdf/scripts/run.py"),
            b"#!/usr/bin/env python3\nprint(1)\n",
        );
        #[cfg(unix)]
        set_executable(&work.join("skills/pdf/scripts/run.py"));
        let binary: Vec<u8> = (0..=255).rev().collect();
        write(&work.join("skills/pdf/assets/logo.bin"), &binary);
        write(&work.join("skills/docx/SKILL.md"), skill("docx").as_bytes());
        write(
            &work.join("plugins/office/skills/xlsx/SKILL.md"),
            skill("xlsx").as_bytes(),
        );
        git(&work, &["init", "-q"]);
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-q", "-m", "start"]);
        git(&work, &["tag", "v1"]);
        git(dir, &["clone", "-q", "--bare", "source", "source.git"]);
        git(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);
        Source { work, bare }
    }

    fn url(&self) -> String {
        format!("file://{}", self.bare.display())
    }

    /// Commits `text` to `path` and pushes `main`.
    fn commit(&self, path: &str, text: &str) {
        write(&self.work.join(path), text.as_bytes());
        git(&self.work, &["add", "-A"]);
        git(&self.work, &["commit", "-q", "-m", "edit"]);
        git(&self.work, &["push", "-q", "origin", "main"]);
    }
}

/// A package outside any workspace, with `src/main.rs` so cargo reads it.
fn package(dir: &Path, metadata: &str) -> PathBuf {
    let package = dir.join("app");
    write(
        &package.join("Cargo.toml"),
        format!("[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n{metadata}\n[workspace]\n").as_bytes(),
    );
    write(&package.join("src/main.rs"), b"fn main() {}\n");
    package
}

fn lock_of(package: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(package.join("skills-lock.json")).unwrap())
        .unwrap()
}

#[test]
fn add_lists_offers_then_adds_and_locks_what_was_named() {
    let dir = fresh_dir("vendor-add");
    let source = Source::new(&dir);
    let app = package(&dir, "");
    let url = source.url();

    // A header, then name, path, licence, whether `add` takes it, scripts,
    // signer, description (issue 57, item 8; issue 75, item 4).
    let (stdout, _) = output(&app, &["skills", "add", &url, "--list"], 0);
    assert_eq!(
        stdout,
        "NAME\tPATH\tLICENSE\tADD\tSCRIPTS\tSIGNER\tDESCRIPTION\n\
         docx\tskills/docx/SKILL.md\t-\tvalid\tno scripts\tunsigned\tDoes docx. Use when asked to docx.\n\
         pdf\tskills/pdf/SKILL.md\t-\tvalid\tscripts\tunsigned\tDoes pdf. Use when asked to pdf.\n\
         xlsx\tplugins/office/skills/xlsx/SKILL.md\t-\tvalid\tno scripts\tunsigned\tDoes xlsx. Use when asked to xlsx.\n"
    );
    assert!(!app.join("skills").exists(), "--list writes nothing");

    let (_, stderr) = output(&app, &["skills", "add", &url], 2);
    assert!(
        stderr.contains("offers 3 skills (docx, pdf, xlsx)"),
        "{stderr}"
    );

    let (_, stderr) = output(
        &app,
        &["skills", "add", &format!("{url}#v1"), "--skill", "pdf"],
        0,
    );
    assert!(stderr.contains("Added pdf to skills/pdf"), "{stderr}");
    let copied = app.join("skills/pdf");
    assert_eq!(
        std::fs::read(copied.join("assets/logo.bin")).unwrap(),
        std::fs::read(source.work.join("skills/pdf/assets/logo.bin")).unwrap()
    );
    #[cfg(unix)]
    assert!(is_executable(&copied.join("scripts/run.py")));
    assert!(!app.join("skills/docx").exists());
    // No checkout or staging folder is left in the root.
    let left: Vec<_> = std::fs::read_dir(app.join("skills"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["pdf"]);

    let lock = lock_of(&app);
    let entry = &lock["skills"]["pdf"];
    assert_eq!(entry["source"], url.as_str());
    assert_eq!(entry["sourceUrl"], url.as_str());
    assert_eq!(entry["ref"], "v1");
    assert_eq!(entry["sourceType"], "git");
    assert_eq!(entry["skillPath"], "skills/pdf/SKILL.md");
    assert_eq!(
        entry["commit"],
        git(&source.work, &["rev-parse", "v1"]).trim()
    );
    let keys: Vec<&str> = entry
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 8, "{keys:?}");
    let files: Vec<&str> = entry["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 3);
    assert!(files[2].starts_with("scripts/run.py 100755 "), "{files:?}");

    // The nested skill, by name; then a name already present from
    // elsewhere is refused, and the same source again is an update.
    output(&app, &["skills", "add", &url, "--skill", "xlsx"], 0);
    assert!(app.join("skills/xlsx/SKILL.md").is_file());
    write(&dir.join("other/pdf/SKILL.md"), skill("pdf").as_bytes());
    let (_, stderr) = output(&app, &["skills", "add", "../other"], 1);
    assert!(
        stderr.contains(
            "`skills/pdf` is already in the skills root and did not come from `../other`"
        ),
        "{stderr}"
    );
    output(
        &app,
        &["skills", "add", &format!("{url}#v1"), "--skill", "pdf"],
        0,
    );
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert_eq!(stdout, "pdf: matches\nxlsx: matches\n");
}

#[test]
fn bad_sources_are_clear_errors_and_write_nothing() {
    let dir = fresh_dir("vendor-bad");
    let source = Source::new(&dir);
    let app = package(&dir, "");
    let url = source.url();
    let cases: Vec<(String, i32, &str)> = vec![
        (
            format!("file://{}/nothing.git", dir.display()),
            1,
            "cannot fetch `HEAD`",
        ),
        (
            format!("{url}#no-such-ref"),
            1,
            "cannot fetch `no-such-ref`",
        ),
        ("../nowhere".to_owned(), 1, "does not exist"),
        (
            "just-a-word".to_owned(),
            2,
            "is not a git URL, a GitHub `owner/repo`",
        ),
        ("acme/skills/../../etc".to_owned(), 2, "must stay inside it"),
    ];
    for (source, code, says) in &cases {
        let (_, stderr) = output(&app, &["skills", "add", source, "--all"], *code);
        assert!(stderr.contains(says), "{source}: {stderr}");
    }
    // A repository without skills, a `../` sub-path, a symlink, two skills of one name.
    write(&dir.join("empty/README.md"), b"# Nothing\n");
    let (_, stderr) = output(&app, &["skills", "add", "../empty", "--all"], 1);
    assert!(stderr.contains("has no skill"), "{stderr}");
    let (_, stderr) = output(&app, &["skills", "add", &url, "--path", "../x", "--all"], 2);
    assert!(stderr.contains("must stay inside it"), "{stderr}");
    write(&dir.join("linked/a/SKILL.md"), skill("a").as_bytes());
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/hostname", dir.join("linked/a/secret")).unwrap();
        let (_, stderr) = output(&app, &["skills", "add", "../linked", "--all"], 1);
        assert!(stderr.contains("`a/secret` is a symlink"), "{stderr}");
    }
    write(
        &dir.join("twins/skills/a/SKILL.md"),
        skill("same").as_bytes(),
    );
    write(
        &dir.join("twins/skills/b/SKILL.md"),
        skill("same").as_bytes(),
    );
    let (_, stderr) = output(&app, &["skills", "add", "../twins", "--all"], 1);
    assert!(stderr.contains("has two skills named `same`"), "{stderr}");
    // A skill no host would load (vendored skills are held to `lenient`:
    // an empty description) is refused with its diagnostics unless --force.
    write(
        &dir.join("broken/SKILL.md"),
        b"---\nname: broken\ndescription: \"\"\n---\nBody.\n",
    );
    let (_, stderr) = output(&app, &["skills", "add", "../broken"], 1);
    assert!(stderr.contains("error[S10"), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(!app.join("skills-lock.json").exists());
    let left: Vec<_> = std::fs::read_dir(&app)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 2, "only Cargo.toml and src: {left:?}");
    output(&app, &["skills", "add", "../broken", "--force"], 0);
    assert!(app.join("skills/broken/SKILL.md").is_file());
}

#[test]
fn update_fetches_the_ref_again_and_a_failure_leaves_everything_as_it_was() {
    let dir = fresh_dir("vendor-update");
    let source = Source::new(&dir);
    let app = package(&dir, "");
    let url = source.url();
    output(&app, &["skills", "add", &format!("{url}#main"), "--all"], 0);
    let before = lock_of(&app);
    source.commit(
        "skills/pdf/SKILL.md",
        &skill("pdf").replace("Body.", "Body, edited."),
    );

    let (_, stderr) = output(&app, &["skills", "update", "--dry-run"], 0);
    assert!(stderr.contains("docx: unchanged"), "{stderr}");
    // An upstream change is said as one, never as an edit (issue 57, item 1).
    assert!(
        stderr.contains("pdf: upstream changed SKILL.md"),
        "{stderr}"
    );
    assert_eq!(lock_of(&app), before, "--dry-run writes nothing");

    // The source gone: the update fails and nothing changes.
    std::fs::rename(&source.bare, dir.join("moved.git")).unwrap();
    let (_, stderr) = output(&app, &["skills", "update"], 1);
    assert!(stderr.contains("cannot fetch"), "{stderr}");
    assert_eq!(lock_of(&app), before);
    assert_eq!(
        std::fs::read_to_string(app.join("skills/pdf/SKILL.md")).unwrap(),
        skill("pdf")
    );
    std::fs::rename(dir.join("moved.git"), &source.bare).unwrap();

    output(&app, &["skills", "update", "pdf"], 0);
    let after = lock_of(&app);
    assert_ne!(
        after["skills"]["pdf"]["commit"],
        before["skills"]["pdf"]["commit"]
    );
    assert_eq!(after["skills"]["docx"], before["skills"]["docx"]);
    assert!(
        std::fs::read_to_string(app.join("skills/pdf/SKILL.md"))
            .unwrap()
            .contains("edited")
    );

    output(&app, &["skills", "remove", "docx"], 0);
    assert!(!app.join("skills/docx").exists());
    assert!(lock_of(&app)["skills"].get("docx").is_none());
    let (_, stderr) = output(&app, &["skills", "remove", "docx"], 2);
    assert!(stderr.contains("`docx` is neither in"), "{stderr}");
}

#[test]
fn check_locked_reports_modified_missing_and_unlocked_skills() {
    let dir = fresh_dir("vendor-verify");
    let source = Source::new(&dir);
    let app = package(&dir, "");
    output(&app, &["skills", "add", &source.url(), "--all"], 0);
    output(&app, &["skills", "check", "--locked", "skills"], 0);
    output(&app, &["skills", "check", "--locked", "skills/pdf"], 0);

    write(&app.join("skills/pdf/references/new.md"), b"# New\n");
    write(
        &app.join("skills/docx/SKILL.md"),
        skill("docx").replace("Body.", "Edited.").as_bytes(),
    );
    std::fs::remove_dir_all(app.join("skills/xlsx")).unwrap();
    write(&app.join("skills/mine/SKILL.md"), skill("mine").as_bytes());
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert_eq!(
        stdout,
        "docx: modified: SKILL.md (edited)\nmine: unlocked\npdf: modified: references/new.md (added)\nxlsx: missing (looked in skills/xlsx, .agents/skills/xlsx, .claude/skills/xlsx, .codex/skills/xlsx)\n"
    );
    let (_, stderr) = output(
        &app,
        &[
            "skills",
            "check",
            "--frozen",
            "skills",
            "--message-format",
            "short",
        ],
        1,
    );
    assert!(
        stderr.contains("skills-lock.json:4:5: error[S520]: `skills/docx` differs from its entry in `skills-lock.json`: SKILL.md (edited)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skills/mine: error[S520]: `skills/mine` is not in `skills-lock.json`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`xlsx` is locked in `skills-lock.json`, and `skills/xlsx` does not exist"),
        "{stderr}"
    );
    // One skill named alone is checked against its own entry, and only it.
    let (_, stderr) = output(
        &app,
        &[
            "skills",
            "check",
            "--locked",
            "skills/docx",
            "--message-format",
            "short",
        ],
        1,
    );
    assert!(
        stderr.contains("`skills/docx` differs from its entry"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("xlsx") && !stderr.contains("mine"),
        "{stderr}"
    );

    // `lock` records the hand-made skill as a local copy of itself.
    let (_, stderr) = output(&app, &["skills", "lock"], 0);
    assert_eq!(stderr, "Locked mine in skills-lock.json\n");
    let lock = lock_of(&app);
    assert_eq!(lock["skills"]["mine"]["source"], "./skills/mine");
    assert_eq!(lock["skills"]["mine"]["sourceType"], "local");

    // A lock that is not JSON is an error naming it.
    write(
        &app.join("skills-lock.json"),
        b"{\"version\": 1, \"skills\": {",
    );
    let (_, stderr) = output(&app, &["skills", "check", "--locked", "skills"], 1);
    assert!(
        stderr.contains("error[S519]: `skills-lock.json` is not JSON"),
        "{stderr}"
    );
}

/// The lock Vercel's `skills` CLI wrote for skills it installed into
/// `.claude/skills` (the fixture of skills-compiler's lock tests, and the
/// tree it locked) verifies when the package's root is that folder.
#[test]
fn a_lock_vercels_cli_wrote_verifies() {
    let dir = fresh_dir("vendor-vercel");
    let app = package(
        &dir,
        "\n[package.metadata.skills]\ndir = \".claude/skills\"\n",
    );
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../skills-compiler/tests/fixtures/lock/vercel-1.7.4-local.json");
    std::fs::copy(&fixture, app.join("skills-lock.json")).unwrap();
    let root = app.join(".claude/skills");
    write(
        &root.join("pdf/SKILL.md"),
        b"---\nname: pdf\ndescription: Reads PDF files. Use when the user asks about a PDF.\n---\nRun `scripts/run.py`.\n",
    );
    write(
        &root.join("pdf/scripts/run.py"),
        b"#!/usr/bin/env python3\nprint(\"ok\")\n",
    );
    let binary: Vec<u8> = (0..=255).collect();
    write(&root.join("pdf/assets/logo.bin"), &binary);
    write(&root.join("pdf/references/Guide.md"), b"# Guide\n");
    write(&root.join("pdf/references/guide-notes.md"), b"# Notes\n");
    write(&root.join("pdf/references/a b.txt"), b"x\n");
    write(
        &root.join("docx/SKILL.md"),
        b"---\nname: docx\ndescription: Writes Word documents. Use when the user asks for a .docx file.\n---\nWrite it.\n",
    );
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    // Vercel's entries have no per-file lines: the check is by
    // `computedHash` alone, and says so (issue 58, item 18).
    assert_eq!(
        stdout,
        "docx: matches (by `computedHash` only: no per-file lines, so modes are not checked; `cargo skills lock docx` adds them)\n\
         pdf: matches (by `computedHash` only: no per-file lines, so modes are not checked; `cargo skills lock pdf` adds them)\n"
    );
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 0);
    assert_eq!(stderr.matches("warning[W026]").count(), 2, "{stderr}");
    assert!(
        stderr.ends_with("ok: 2 skills valid, 2 warnings\n"),
        "{stderr}"
    );
    write(&root.join("pdf/references/Guide.md"), b"# Guide, edited\n");
    let (stdout, _) = output(&app, &["skills", "verify"], 1);
    assert!(
        stdout.ends_with("pdf: modified (the entry names no files)\n"),
        "{stdout}"
    );
}

/// add, a build with `locked = true`, an edit that fails the build naming
/// the file, `update`, and the build passes again: a real cargo build of a
/// crate that uses `include_skills!` with `skills_build::track`.
#[test]
fn the_whole_cycle_through_a_real_build() {
    let dir = fresh_dir("vendor-cycle");
    let source = Source::new(&dir);
    let app = dir.join("agent");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    write(
        &app.join("Cargo.toml"),
        format!(
            "[package]\nname = \"agent\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nskills = {{ package = \"skills-runtime\", path = \"{ws}/skills\" }}\n\n\
             [build-dependencies]\nskills-build = {{ path = \"{ws}/skills-build\" }}\n\n\
             [package.metadata.skills]\nlocked = true\n\n[workspace]\n",
            ws = workspace.display()
        )
        .as_bytes(),
    );
    write(
        &app.join("build.rs"),
        b"fn main() {\n    skills_build::track(\"skills\");\n}\n",
    );
    write(
        &app.join("src/main.rs"),
        b"mod agent {\n    skills::include_skills!(\"skills\");\n}\n\nfn main() {\n    print!(\"{}\", agent::SKILLS.catalog());\n}\n",
    );
    std::fs::copy(workspace.join("Cargo.lock"), app.join("Cargo.lock")).unwrap();
    let build = || {
        Command::new(env!("CARGO"))
            .args(["build", "--quiet"])
            .current_dir(&app)
            .env(
                "CARGO_TARGET_DIR",
                workspace.join("target/temp-crates/target"),
            )
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap()
    };
    let ok = |output: &std::process::Output| {
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let added = cargo_skills_in(&app)
        .args(["skills", "add", &source.url(), "--skill", "pdf"])
        .output()
        .unwrap();
    ok(&added);
    ok(&build());

    write(
        &app.join("skills/pdf/SKILL.md"),
        skill("pdf").replace("Body.", "Tampered.").as_bytes(),
    );
    let failed = build();
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success());
    assert!(stderr.contains("S520"), "{stderr}");
    assert!(
        stderr.contains(
            "`skills/pdf` differs from its entry in `skills-lock.json`: SKILL.md (edited)"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("cargo skills update pdf"), "{stderr}");

    let updated = cargo_skills_in(&app)
        .args(["skills", "update", "pdf"])
        .output()
        .unwrap();
    ok(&updated);
    ok(&build());

    // An edit of the lock alone rebuilds too (the build script tracks it).
    let text = std::fs::read_to_string(app.join("skills-lock.json")).unwrap();
    let hash = lock_of(&app)["skills"]["pdf"]["files"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let tampered = hash
        .replace("SKILL.md 100644 ", "SKILL.md 100644 0")
        .chars()
        .take(hash.len())
        .collect::<String>();
    write(
        &app.join("skills-lock.json"),
        text.replace(&hash, &tampered).as_bytes(),
    );
    let failed = build();
    assert!(!failed.status.success(), "an edited lock is seen");
}

/// Provenance that `gh skill` and skill-embed write (issue 39, item 5):
/// no warning, stripped by `fix --strip-provenance`, and read by `add` as
/// a local skill's origin.
#[test]
fn provenance_written_by_other_tools_is_recognised_stripped_and_read() {
    let dir = fresh_dir("vendor-provenance");
    let app = package(&dir, "");
    let text = "---\nname: pdf\ndescription: Reads PDFs. Use when asked about a PDF.\nmetadata:\n  author: me\n  github-repo: https://github.com/anthropics/skills\n  github-ref: refs/tags/v1\n  github-tree-sha: 0123456789abcdef\n  github-path: skills/pdf\n  github-pinned: \"true\"\n  local-path: /home/me/.agents/skills/pdf\nx-embedded-source: anthropics/skills\n---\nBody.\n";
    write(&dir.join("installed/pdf/SKILL.md"), text.as_bytes());

    let (_, stderr) = output(&dir, &["skills", "check", "installed"], 0);
    assert_eq!(stderr, "ok: 1 skill valid, 0 warnings\n");
    let (_, stderr) = output(
        &dir,
        &["skills", "check", "installed", "--profile", "portable"],
        1,
    );
    assert!(
        stderr.contains("remove it with `cargo skills fix --strip-provenance`"),
        "{stderr}"
    );

    // Added from where gh installed it, the lock names where gh got it.
    output(&app, &["skills", "add", "../installed/pdf"], 0);
    let entry = &lock_of(&app)["skills"]["pdf"];
    assert_eq!(entry["source"], "anthropics/skills");
    assert_eq!(entry["sourceType"], "github");
    assert_eq!(entry["ref"], "v1");
    assert_eq!(entry["skillPath"], "skills/pdf/SKILL.md");

    let (_, stderr) = output(
        &dir,
        &[
            "skills",
            "fix",
            "--strip-provenance",
            "--allow-dirty",
            "installed",
        ],
        0,
    );
    assert!(
        stderr.contains("Stripped install provenance from installed/pdf/SKILL.md"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("installed/pdf/SKILL.md")).unwrap(),
        "---\nname: pdf\ndescription: Reads PDFs. Use when asked about a PDF.\nmetadata:\n  author: me\n---\nBody.\n"
    );
}
