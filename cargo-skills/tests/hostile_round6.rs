//! Hostile and careless input, round 6 (issue 71): signatures, trigger
//! cases, model replies and the lock, each case through the command a user
//! (or an attacker's pull request) runs. Every hostile input is made here.

mod support;

use std::path::{Path, PathBuf};

use support::{fresh_dir, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A skills root with `deploy` and `notes`.
fn root(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    for (skill, description) in [
        ("deploy", "Deploy the app to staging or production."),
        ("notes", "Take meeting notes and file them."),
    ] {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            &format!(
                "---\nname: {skill}\ndescription: {description} Use when asked.\n---\nBody.\n"
            ),
        );
    }
    dir
}

/// A secret the test puts in a file outside the skill, as a key in the
/// environment of CI would be.
const SECRET: &str = "ANTHROPIC_API_KEY=sk-ant-not-a-real-key-0123456789";

/// Item 1: `evals/eval_queries.json` linked to a file outside the skill
/// (`/proc/self/environ` in the report; a file with a secret here) was read
/// and its line quoted in every output format. A case file is opened as
/// the skill's files are: a link out of the skill is not read, and nothing
/// of the target is printed.
#[test]
fn a_case_file_linked_out_of_the_skill_is_not_read_or_quoted() {
    let dir = root("round6-case-link");
    write(&dir.join("outside/secrets.env"), &format!("{SECRET}\n"));
    std::fs::create_dir_all(dir.join("skills/deploy/evals")).unwrap();
    std::os::unix::fs::symlink(
        dir.join("outside/secrets.env"),
        dir.join("skills/deploy/evals/eval_queries.json"),
    )
    .unwrap();
    for format in ["human", "json", "github"] {
        let assert = support::cargo_skills_in(&dir)
            .args(["test", "skills", "--message-format", format])
            .assert();
        let output = assert.get_output();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!all.contains("sk-ant"), "{format}: {all}");
        assert!(!all.contains("ANTHROPIC_API_KEY"), "{format}: {all}");
        assert_eq!(output.status.code(), Some(2), "{format}: {all}");
        assert!(
            all.contains("not read: it is not a file of the skill"),
            "{format}: {all}"
        );
    }
    // `/proc/self/environ` itself, which says it is empty: the same.
    let proc_dir = root("round6-case-proc");
    std::fs::create_dir_all(proc_dir.join("skills/deploy/evals")).unwrap();
    std::os::unix::fs::symlink(
        "/proc/self/environ",
        proc_dir.join("skills/deploy/evals/eval_queries.json"),
    )
    .unwrap();
    let assert = support::cargo_skills_in(&proc_dir)
        .env("ANTHROPIC_API_KEY", "sk-ant-from-the-environment")
        .args(["test", "skills"])
        .assert();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(!stderr.contains("sk-ant"), "{stderr}");
}

/// Item 1, the other half: a file named with `--cases` that is not a case
/// file at all is reported at a place, and its text is never quoted.
#[test]
fn a_file_that_is_not_a_case_file_is_not_quoted() {
    let dir = root("round6-not-cases");
    write(&dir.join("secrets.env"), &format!("{SECRET}\nOTHER=1\n"));
    write(&dir.join("secrets.csv"), &format!("{SECRET}\nOTHER=1\n"));
    for file in ["secrets.env", "deploy=secrets.csv"] {
        let (stdout, stderr) = output(&dir, &["test", "skills", "--cases", file], 2);
        assert!(
            !stdout.contains("sk-ant") && !stderr.contains("sk-ant"),
            "{stderr}"
        );
        assert!(stderr.contains("nothing was routed"), "{stderr}");
    }
}

/// Item 8: every problem held a copy of the whole file (10,000 bad rows:
/// 2.4 GB). The file is kept once, and the problems of one file are capped,
/// the rest counted.
#[test]
fn many_bad_rows_are_capped_and_counted() {
    let dir = root("round6-many-rows");
    let mut csv = String::from("id,should_trigger,prompt\n");
    for n in 0..10_000 {
        csv.push_str(&format!("{n},maybe,ship it\n"));
    }
    write(&dir.join("skills/deploy/evals/cases.csv"), &csv);
    let (_, stderr) = output(
        &dir,
        &[
            "test",
            "skills",
            "--cases",
            "deploy=skills/deploy/evals/cases.csv",
        ],
        2,
    );
    let shown = stderr.matches("error[S60").count();
    assert_eq!(shown, 51, "{stderr}");
    assert!(
        stderr.contains("9950 more problems in this file are not shown"),
        "{stderr}"
    );
    assert!(stderr.contains("cases.csv:2:1"), "{stderr}");

    let mut ids = String::from("[");
    for n in 0..8_000 {
        ids.push_str(&format!(
            "{}{{\"id\": \"same\", \"query\": \"ship release {n}\", \"should_trigger\": true}}",
            if n == 0 { "" } else { "," }
        ));
    }
    ids.push(']');
    write(&dir.join("skills/deploy/evals/eval_queries.json"), &ids);
    let (_, stderr) = output(&dir, &["test", "skills"], 2);
    assert!(
        stderr.contains("7949 more problems in this file are not shown"),
        "{stderr}"
    );
}

/// Item 9: `--cases /dev/zero` read without end (13.8 GB); a case file
/// that is a device, or a link to one, is refused before any read.
#[test]
fn a_case_file_that_is_a_device_is_refused_before_reading() {
    let dir = root("round6-cases-device");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.json")).unwrap();
    for file in ["/dev/zero", "zero.json", "deploy=/dev/zero"] {
        let (_, stderr) = output(&dir, &["test", "skills", "--cases", file], 2);
        assert!(stderr.contains("not a regular file"), "{file}: {stderr}");
    }
}

/// Item 15: an OpenAI CSV saved by Excel starts with a byte order mark, and
/// was refused; a case file nested 40 deep was said to be a frontmatter.
#[test]
fn a_bom_csv_is_read_and_deep_case_files_are_named_as_case_files() {
    let dir = root("round6-bom");
    write(
        &dir.join("deploy.csv"),
        "\u{feff}id,should_trigger,prompt\r\n1,true,deploy the app to production\r\n",
    );
    let (stdout, stderr) = output(&dir, &["test", "skills", "--cases", "deploy=deploy.csv"], 0);
    assert!(stdout.contains("1 of 1 cases passed"), "{stdout}{stderr}");

    let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
    write(&dir.join("deep.json"), &deep);
    let (_, stderr) = output(&dir, &["test", "skills", "--cases", "deep.json"], 2);
    assert!(
        stderr.contains("the case file nests deeper than"),
        "{stderr}"
    );
    assert!(!stderr.contains("frontmatter"), "{stderr}");
    assert!(!stderr.contains("max_yaml_depth"), "{stderr}");
}

/// A package `app` in `dir`, and a git repository `upstream` with the skill
/// `pdf` (plus `extra` files, path to text), served as a `file://` URL.
fn package_and_source(dir: &Path, extra: &[(&str, &str)]) -> (PathBuf, PathBuf, String) {
    let work = dir.join("upstream");
    write(
        &work.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\nBody.\n",
    );
    for (path, text) in extra {
        write(&work.join("skills/pdf").join(path), text);
    }
    support::git(&work, &["init", "-q"]);
    support::git(&work, &["add", "-A"]);
    support::git(&work, &["commit", "-q", "-m", "v1"]);
    let app = dir.join("app");
    write(
        &app.join("Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    );
    write(&app.join("src/main.rs"), "fn main() {}\n");
    let url = format!("file://{}", work.display());
    (app, work, url)
}

/// Item 14: a lock `commit` of `master` was fetched, and `sync` said
/// "Restored ... at master". A commit is a full object id; anything else
/// is refused when the lock is read, by every command, nothing written.
#[test]
fn a_lock_commit_that_is_not_a_commit_id_is_refused() {
    let dir = fresh_dir("round6-lock-commit");
    let (app, _, url) = package_and_source(&dir, &[]);
    output(&app, &["skills", "add", &url, "--skill", "pdf"], 0);
    let lock_path = app.join("skills-lock.json");
    let mut lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&lock_path).unwrap()).unwrap();
    let commit = lock["skills"]["pdf"]["commit"].as_str().unwrap().to_owned();
    assert_eq!(commit.len(), 40, "{commit}");
    for bad in ["master", "HEAD", &commit[..12], &format!("{commit}0")] {
        lock["skills"]["pdf"]["commit"] = bad.into();
        let text = serde_json::to_string_pretty(&lock).unwrap();
        std::fs::write(&lock_path, &text).unwrap();
        std::fs::remove_dir_all(app.join("skills/pdf")).unwrap_or_default();
        let (_, stderr) = output(&app, &["skills", "sync"], 1);
        assert!(
            stderr.contains(&format!(
                "has a `commit` that is `{bad}`, not a full commit id"
            )),
            "{bad}: {stderr}"
        );
        assert!(!stderr.contains("Restored"), "{stderr}");
        assert!(!app.join("skills/pdf").exists(), "{bad}: sync wrote");
        assert_eq!(std::fs::read_to_string(&lock_path).unwrap(), text);
    }
}

/// Item 15: a bare repository inside a vendored skill (`HEAD`, `config`,
/// `objects/`) was copied as plain files; git run inside the skill would
/// take it. It is refused, nothing written, as a `.git` is left behind.
#[test]
fn a_bare_repository_inside_a_source_skill_is_not_vendored() {
    let dir = fresh_dir("round6-bare-repo");
    let (app, _, url) = package_and_source(
        &dir,
        &[
            ("scripts/HEAD", "ref: refs/heads/main\n"),
            ("scripts/config", "[core]\n\tfsmonitor = touch /tmp/owned\n"),
            ("scripts/objects/info/packs", "\n"),
        ],
    );
    let (_, stderr) = output(&app, &["skills", "add", &url, "--skill", "pdf"], 1);
    assert!(
        stderr.contains("`pdf/scripts/` is a git repository"),
        "{stderr}"
    );
    assert!(!app.join("skills/pdf").exists());
    assert!(!app.join("skills-lock.json").exists());
}

/// Item 15: `check --locked` with a symlink added to a locked skill said
/// S520 and counted it against no skill.
#[test]
fn an_added_symlink_counts_against_its_skill() {
    let dir = fresh_dir("round6-locked-link");
    let (app, _, url) = package_and_source(&dir, &[]);
    output(&app, &["skills", "add", &url, "--skill", "pdf"], 0);
    std::os::unix::fs::symlink("SKILL.md", app.join("skills/pdf/again.md")).unwrap();
    let (_, stderr) = output(&app, &["skills", "check", "--locked"], 1);
    assert!(stderr.contains("error[S520]"), "{stderr}");
    assert!(
        stderr.contains("1 skill checked, 0 valid, 1 with errors"),
        "{stderr}"
    );
}
