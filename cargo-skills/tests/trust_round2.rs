//! Trust, round 2 (issue 75): a lock that never lies, signatures per
//! source, `sign` for many folders, `add` and trust, `sync --dry-run`, and
//! the MCP client's `initialize`. Every signature is made here with the
//! openssl recipe SECURITY.md gives; every source is a real git repository.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{fresh_dir, git, openssl_recipe, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}. Use when asked to {name}.\n---\nBody.\n")
}

fn lock_of(app: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(app.join("skills-lock.json")).unwrap()).unwrap()
}

/// A publisher: the recipe's PKI in `publisher/`, and a git repository
/// whose `skills/pdf` is signed with it, served by a `file://` URL.
struct Publisher {
    pki: PathBuf,
    url: String,
}

fn publisher(dir: &Path) -> Publisher {
    let pki = dir.join("publisher");
    openssl_recipe(&pki);
    let work = dir.join("upstream");
    write(&work.join("skills/pdf/SKILL.md"), &skill("pdf"));
    write(&work.join("skills/pdf/references/guide.md"), "# Guide\n");
    output(
        &work,
        &[
            "skills",
            "sign",
            "skills/pdf",
            "--key",
            pki.join("signer.key").to_str().unwrap(),
            "--cert-chain",
            pki.join("signer.pem").to_str().unwrap(),
            "--cert-chain",
            pki.join("ca.pem").to_str().unwrap(),
        ],
        0,
    );
    git(&work, &["init", "-q"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "v1"]);
    git(dir, &["clone", "-q", "--bare", "upstream", "upstream.git"]);
    let url = format!("file://{}", dir.join("upstream.git").display());
    Publisher { pki, url }
}

/// A package `app` that trusts `anchor` (copied to `certs/ca.pem`) with
/// `require_signatures = <required>` (a TOML value, or none).
fn package(dir: &Path, anchor: &Path, required: Option<&str>) -> PathBuf {
    let app = dir.join("app");
    let required = required
        .map(|value| format!("require_signatures = {value}\n"))
        .unwrap_or_default();
    write(
        &app.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [package.metadata.skills]\ntrust = [\"certs/ca.pem\"]\n{required}\n[workspace]\n"
        ),
    );
    write(&app.join("src/main.rs"), "fn main() {}\n");
    std::fs::create_dir_all(app.join("certs")).unwrap();
    std::fs::copy(anchor, app.join("certs/ca.pem")).unwrap();
    app
}

/// Item 1: `lock NAME` on a vendored, signed skill edited by one byte kept
/// `sourceType: git`, the URL and the commit, recorded the edited hash and
/// dropped `signer`; `sync` in a fresh checkout then failed and `update
/// --dry-run` claimed upstream changed. Now the entry becomes a local copy
/// (no commit, no signer, `vendoredFrom` kept), said in one line; S520's
/// help says so first; a fresh clone syncs; and locking unchanged bytes
/// keeps the signer.
#[test]
fn locking_an_edited_vendored_skill_records_a_local_copy_that_a_fresh_clone_syncs() {
    let dir = fresh_dir("trust2-lock");
    let publisher = publisher(&dir);
    let app = package(&dir, &publisher.pki.join("ca.pem"), None);
    let (_, said) = output(
        &app,
        &["skills", "add", &publisher.url, "--skill", "pdf"],
        0,
    );
    assert!(
        said.contains("signed by CN=Example Skills Signer, chain to CN=Example Skills CA ("),
        "{said}"
    );
    let added = lock_of(&app)["skills"]["pdf"].clone();
    assert_eq!(added["signer"]["subject"], "CN=Example Skills Signer");
    assert!(added["commit"].is_string(), "{added}");

    // Unchanged bytes, locked again: where they came from and who signed
    // them are still true.
    output(&app, &["skills", "lock", "pdf"], 0);
    assert_eq!(lock_of(&app)["skills"]["pdf"], added);

    // One byte edited.
    let guide = app.join("skills/pdf/references/guide.md");
    std::fs::write(&guide, "# Guide!\n").unwrap();
    let (_, said) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(said.contains("error[S520]"), "{said}");
    assert!(
        said.contains("`cargo skills lock pdf` records it as a local copy"),
        "{said}"
    );
    let (_, said) = output(&app, &["skills", "lock", "pdf"], 0);
    assert!(
        said.contains("Locked pdf in skills-lock.json as a local copy"),
        "{said}"
    );
    assert!(said.contains("skill.oms.sig is its publisher's"), "{said}");
    let entry = lock_of(&app)["skills"]["pdf"].clone();
    assert_eq!(entry["sourceType"], "local", "{entry}");
    assert_eq!(entry["source"], "./skills/pdf", "{entry}");
    for gone in ["commit", "signer", "sourceUrl", "ref", "skillPath"] {
        assert!(entry.get(gone).is_none(), "{gone} kept: {entry}");
    }
    assert_eq!(entry["vendoredFrom"]["commit"], added["commit"], "{entry}");
    assert_eq!(entry["vendoredFrom"]["sourceType"], "git", "{entry}");
    let (stdout, _) = output(&app, &["skills", "verify"], 0);
    assert!(stdout.contains("pdf: matches"), "{stdout}");

    // The stale signature is the user's to remove (or re-sign): then the
    // package's own rules hold it, and a fresh clone syncs.
    std::fs::remove_file(app.join("skills/pdf/skill.oms.sig")).unwrap();
    output(&app, &["skills", "lock", "pdf"], 0);
    git(&app, &["init", "-q"]);
    git(&app, &["add", "-A"]);
    git(&app, &["commit", "-q", "-m", "app"]);
    let clone = dir.join("clone");
    git(
        &dir,
        &[
            "clone",
            "-q",
            app.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let (_, said) = output(&clone, &["skills", "sync"], 0);
    assert!(said.contains("pdf: matches the lock"), "{said}");
    let (_, said) = output(&clone, &["skills", "update", "--dry-run"], 1);
    assert_eq!(
        said,
        "error: nothing to update: every locked skill is a local copy without a source to fetch\n"
    );
    output(&clone, &["skills", "check", "--locked"], 0);

    // Removed in the clone, a local copy has nowhere to come from: a clear
    // refusal naming the entry, nothing written.
    std::fs::remove_dir_all(clone.join("skills/pdf")).unwrap();
    let (_, said) = output(&clone, &["skills", "sync"], 1);
    assert!(said.contains("records a copy of itself"), "{said}");
    assert!(
        said.contains("Restore the folder from version control"),
        "{said}"
    );
    assert!(!clone.join("skills/pdf").exists());

    // An entry of a kind no command fetches: refused, named, nothing written.
    let lock = std::fs::read_to_string(clone.join("skills-lock.json")).unwrap();
    std::fs::write(
        clone.join("skills-lock.json"),
        lock.replace("\"sourceType\": \"local\"", "\"sourceType\": \"svn\""),
    )
    .unwrap();
    let (_, said) = output(&clone, &["skills", "sync"], 1);
    assert!(
        said.contains("the lock's entry `pdf` has `sourceType` `svn`, which no command fetches"),
        "{said}"
    );
    assert!(!clone.join("skills/pdf").exists());
}

/// Item 2: `require_signatures` was all or nothing. `"vendored"` requires
/// a verified signature of every skill the lock records from a source and
/// leaves the package's own unsigned skill a warning; `true` fails on it;
/// an unknown value is a located error naming the allowed ones. Item 3:
/// `sign --all` signs the own skill and leaves the vendored one's
/// publisher signature alone.
#[test]
fn vendored_skills_must_be_signed_and_the_packages_own_may_not_be() {
    let dir = fresh_dir("trust2-vendored");
    let publisher = publisher(&dir);
    let app = package(&dir, &publisher.pki.join("ca.pem"), Some("\"vendored\""));
    output(
        &app,
        &["skills", "add", &publisher.url, "--skill", "pdf"],
        0,
    );
    write(&app.join("skills/notes/SKILL.md"), &skill("notes"));
    output(&app, &["skills", "lock", "notes"], 0);

    let (_, said) = output(&app, &["skills", "check"], 0);
    assert!(
        said.contains("warning[S527]: unsigned: it has no `skill.oms.sig`"),
        "{said}"
    );
    assert!(said.contains("skills/notes"), "{said}");

    // A vendored skill whose signature is gone fails under "vendored".
    let signature = app.join("skills/pdf/skill.oms.sig");
    let kept = std::fs::read(&signature).unwrap();
    std::fs::remove_file(&signature).unwrap();
    let (_, said) = output(&app, &["skills", "check"], 1);
    assert!(said.contains("error[S527]"), "{said}");
    assert!(said.contains("skills/pdf"), "{said}");
    std::fs::write(&signature, &kept).unwrap();

    // The command line's `--require-signatures` is every skill.
    let (_, said) = output(&app, &["skills", "check", "--require-signatures"], 1);
    assert!(said.contains("error[S527]"), "{said}");
    output(
        &app,
        &["skills", "check", "--require-signatures=vendored"],
        0,
    );

    // `true` in the manifest: the own skill fails.
    let manifest = std::fs::read_to_string(app.join("Cargo.toml")).unwrap();
    let with = |value: &str| {
        std::fs::write(
            app.join("Cargo.toml"),
            manifest.replace(
                "require_signatures = \"vendored\"",
                &format!("require_signatures = {value}"),
            ),
        )
        .unwrap();
    };
    with("true");
    let (_, said) = output(&app, &["skills", "check"], 1);
    assert!(said.contains("error[S527]"), "{said}");

    // An unknown value: located in the manifest, with the allowed values.
    with("\"yes\"");
    let (_, said) = output(&app, &["skills", "check"], 2);
    assert!(
        said.contains("Cargo.toml:8:22: invalid [package.metadata.skills]"),
        "{said}"
    );
    assert!(
        said.contains("expected `true`, `false` or `\"vendored\"`"),
        "{said}"
    );
    with("\"vendored\"");

    // The run-time loader, with the same choice.
    let loaded = skills::loader::Loader::new()
        .trust(app.join("certs/ca.pem"))
        .require_vendored_signatures()
        .load(app.join("skills"))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(loaded.set().len(), 2);
    let error = skills::loader::Loader::new()
        .trust(app.join("certs/ca.pem"))
        .require_signatures()
        .load(app.join("skills"))
        .unwrap_err();
    assert!(error.errors().any(|d| d.code.as_str() == "S527"), "{error}");

    // `sign --all`: the own skill is signed, the vendored one left as its
    // publisher signed it; then `true` passes too.
    let own = dir.join("own");
    openssl_recipe(&own);
    let (stdout, said) = output(
        &app,
        &[
            "skills",
            "sign",
            "--all",
            "--key",
            own.join("signer.key").to_str().unwrap(),
            "--cert-chain",
            own.join("signer.pem").to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(
        stdout,
        "Signed skills/notes: wrote skills/notes/skill.oms.sig\n"
    );
    assert!(
        said.contains("note: skills/pdf left as it is: vendored from"),
        "{said}"
    );
    assert_eq!(std::fs::read(&signature).unwrap(), kept);

    // One certificate per `--cert-chain`: a folder after it is a folder,
    // and a second file after one flag is named for what it is.
    let (_, said) = output(
        &app,
        &[
            "skills",
            "sign",
            "--key",
            own.join("signer.key").to_str().unwrap(),
            "--cert-chain",
            own.join("signer.pem").to_str().unwrap(),
            own.join("ca.pem").to_str().unwrap(),
        ],
        2,
    );
    assert!(
        said.contains(
            "is a file, not a skill folder; each certificate takes its own `--cert-chain`"
        ),
        "{said}"
    );
    output(
        &app,
        &[
            "skills",
            "sign",
            "--key",
            own.join("signer.key").to_str().unwrap(),
            "--cert-chain",
            own.join("signer.pem").to_str().unwrap(),
            "skills/notes",
        ],
        0,
    );
    // Trust the package's own CA beside the publisher's.
    let both = format!(
        "{}{}",
        std::fs::read_to_string(publisher.pki.join("ca.pem")).unwrap(),
        std::fs::read_to_string(own.join("ca.pem")).unwrap()
    );
    std::fs::write(app.join("certs/ca.pem"), both).unwrap();
    with("true");
    output(&app, &["skills", "lock", "notes"], 0);
    output(&app, &["skills", "check"], 0);
}

/// Item 2 in a real cargo build: `include_skills!` and `skills_build`
/// read `"vendored"` from the manifest: the package builds with its own
/// skill unsigned, and fails under `true`.
#[test]
fn a_build_takes_vendored_and_fails_under_true() {
    let dir = fresh_dir("trust2-build");
    let publisher = publisher(&dir);
    let app = package(&dir, &publisher.pki.join("ca.pem"), Some("\"vendored\""));
    output(
        &app,
        &["skills", "add", &publisher.url, "--skill", "pdf"],
        0,
    );
    write(&app.join("skills/notes/SKILL.md"), &skill("notes"));
    output(&app, &["skills", "lock", "notes"], 0);
    let workspace = support::workspace().canonicalize().unwrap();
    let manifest = std::fs::read_to_string(app.join("Cargo.toml"))
        .unwrap()
        .replace(
            "edition = \"2021\"\n",
            &format!(
                "edition = \"2021\"\npublish = false\n\n[dependencies]\nskills = {{ package = \"skills-runtime\", path = \"{ws}/skills\" }}\n\n\
                 [build-dependencies]\nskills-build = {{ path = \"{ws}/skills-build\" }}\n",
                ws = workspace.display()
            ),
        );
    std::fs::write(app.join("Cargo.toml"), &manifest).unwrap();
    write(
        &app.join("build.rs"),
        "fn main() {\n    skills_build::track(\"skills\");\n}\n",
    );
    write(
        &app.join("src/main.rs"),
        "mod agent {\n    skills::include_skills!(\"skills\");\n}\n\nfn main() {\n    print!(\"{}\", agent::SKILLS.len());\n}\n",
    );
    std::fs::copy(workspace.join("Cargo.lock"), app.join("Cargo.lock")).unwrap();
    let run = || {
        Command::new(env!("CARGO"))
            .args(["run", "--quiet"])
            .current_dir(&app)
            .env(
                "CARGO_TARGET_DIR",
                workspace.join("target/temp-crates/target"),
            )
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap()
    };
    let built = run();
    let said = String::from_utf8_lossy(&built.stderr).into_owned();
    assert!(built.status.success(), "{said}");
    // Both skills compiled in: the vendored one verified, ours unsigned
    // (a warning, which `--quiet` does not print).
    assert_eq!(String::from_utf8_lossy(&built.stdout), "2");

    std::fs::write(
        app.join("Cargo.toml"),
        manifest.replace(
            "require_signatures = \"vendored\"",
            "require_signatures = true",
        ),
    )
    .unwrap();
    let refused = run();
    let said = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("error[S527]: unsigned: it has no `skill.oms.sig`"),
        "{said}"
    );
}

/// Item 4: `add --force` wrote a skill whose signature failed under the
/// package's `trust`, and the refusal offered `--force`. A signature that
/// does not verify is refused with or without it, nothing written;
/// `--list` has a header and the signer.
#[test]
fn add_force_never_overrides_trust_and_list_shows_the_signer() {
    let dir = fresh_dir("trust2-force");
    let publisher = publisher(&dir);
    let stranger = dir.join("stranger");
    openssl_recipe(&stranger);
    let app = package(&dir, &stranger.join("ca.pem"), None);
    for force in [false, true] {
        let mut args = vec!["skills", "add", &publisher.url, "--skill", "pdf"];
        if force {
            args.push("--force");
        }
        let (_, said) = output(&app, &args, 1);
        assert!(said.contains("error[S525]"), "{said}");
        assert!(
            said.contains("the signature of pdf does not verify under the package's `trust`"),
            "{said}"
        );
        assert!(!said.contains("`--force` writes"), "{said}");
        assert!(!app.join("skills/pdf").exists(), "--force={force} wrote it");
        assert!(!app.join("skills-lock.json").exists());
    }
    let (stdout, _) = output(&app, &["skills", "add", &publisher.url, "--list"], 0);
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("NAME\tPATH\tLICENSE\tADD\tSCRIPTS\tSIGNER\tDESCRIPTION")
    );
    assert!(
        lines
            .next()
            .is_some_and(|line| line.contains("\tsignature refused\t")),
        "{stdout}"
    );
    std::fs::copy(publisher.pki.join("ca.pem"), app.join("certs/ca.pem")).unwrap();
    let (stdout, _) = output(&app, &["skills", "add", &publisher.url, "--list"], 0);
    assert!(
        stdout
            .contains("pdf\tskills/pdf/SKILL.md\t-\tvalid\tno scripts\tCN=Example Skills Signer\t"),
        "{stdout}"
    );
    let (_, said) = output(
        &app,
        &["skills", "add", &publisher.url, "--skill", "pdf"],
        0,
    );
    assert!(
        said.contains("signed by CN=Example Skills Signer"),
        "{said}"
    );
}

/// Item 6: `sync --dry-run` named the skill only. It names each file it
/// would restore, add or remove.
#[test]
fn sync_dry_run_names_each_file() {
    let dir = fresh_dir("trust2-sync-files");
    let publisher = publisher(&dir);
    let app = package(&dir, &publisher.pki.join("ca.pem"), None);
    output(
        &app,
        &["skills", "add", &publisher.url, "--skill", "pdf"],
        0,
    );
    std::fs::write(app.join("skills/pdf/references/guide.md"), "# mine\n").unwrap();
    write(&app.join("skills/pdf/notes.txt"), "added here\n");
    std::fs::remove_file(app.join("skills/pdf/skill.oms.sig")).unwrap();
    let before = support::listing(&app.join("skills"));
    let (_, said) = output(&app, &["skills", "sync", "--dry-run"], 0);
    assert!(
        said.contains("Would restore pdf in skills/pdf from"),
        "{said}"
    );
    assert!(
        said.contains(
            "  pdf: remove notes.txt (added here), restore references/guide.md (edited here), add skill.oms.sig (missing here)"
        ),
        "{said}"
    );
    assert_eq!(
        support::listing(&app.join("skills")),
        before,
        "--dry-run wrote"
    );
    output(&app, &["skills", "sync"], 0);
    output(&app, &["skills", "check", "--locked"], 0);
}

/// Item 7: the per-request limit did not apply to `initialize`: a server
/// that never answers it was given up at the session's 120 s. It is given
/// up as any request is, at 30 s, and says which request had no answer.
#[test]
fn a_server_silent_at_initialize_is_given_up_at_the_request_limit() {
    let dir = fresh_dir("trust2-mcp-silent");
    let mut child = support::cargo_skills_in(&dir);
    let started = std::time::Instant::now();
    let output = child
        .args(["skills", "check", "mcp+stdio:sleep 600"])
        .timeout(std::time::Duration::from_secs(100))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`initialize` had no answer within 30 s"),
        "{stderr}"
    );
    // Said for the record, not asserted: the session limit is 120 s.
    eprintln!("given up after {:?}", started.elapsed());
}

/// Item 5 through `check`: a publisher-shaped collection of 70 skills,
/// one with `permissions` as a list, passes `--profile lenient` (the
/// permissions left out with a warning; no count limit unless the package
/// sets one); the default profile refuses both.
#[test]
fn check_lenient_passes_what_hosts_load() {
    let dir = fresh_dir("trust2-lenient");
    for n in 0..70 {
        write(
            &dir.join(format!("skills/skill-{n:02}/SKILL.md")),
            &skill(&format!("skill-{n:02}")),
        );
    }
    write(
        &dir.join("skills/shell-tools/SKILL.md"),
        "---\nname: shell-tools\ndescription: Runs shell tools. Use when asked to run a tool.\npermissions: [file_read, file_write, shell]\n---\nBody.\n",
    );
    let (_, stderr) = output(
        &dir,
        &["skills", "check", "skills", "--profile", "lenient"],
        0,
    );
    assert!(
        stderr.contains("ok: 71 skills valid, 1 warning"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning[S404]: `permissions` must be a mapping, found a list; ignored"),
        "{stderr}"
    );
    let (_, stderr) = output(&dir, &["skills", "check", "skills"], 1);
    assert!(
        stderr.contains("error[S505]: 71 skills found; the limit is 64"),
        "{stderr}"
    );
    assert!(stderr.contains("error[S404]"), "{stderr}");
}
