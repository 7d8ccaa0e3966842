//! Every shell line of the README (issue 57, item 8): the ones that can run
//! offline run, through a `cargo` on `PATH` that hands `cargo skills` to
//! this build, from the state the README describes; the rest are listed
//! below with why. A README line that is neither fails the test, so a new
//! command in the README is run here or explained.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::fresh_dir;

/// Lines not run here, and why (each must still be in the README).
const NOT_RUN: &[(&str, &str)] = &[
    (
        "cargo run -p issue-agent -- --demo",
        "tests/example_binary.rs runs the example",
    ),
    (
        "cargo test --workspace && cargo test --manifest-path rig/Cargo.toml --workspace",
        "this is that command",
    ),
    (
        "cargo skills check 'mcp+stdio:my-server --stdio'",
        "needs a server: tests/check_mcp.rs starts real ones",
    ),
    (
        "cargo skills serve path/to/skills",
        "an MCP session on stdin: tests/serve.rs drives one",
    ),
    (
        "cargo skills lsp",
        "an LSP session on stdin: tests/lsp.rs drives one through a real client",
    ),
    (
        "cargo skills add anthropics/skills --skill pdf",
        "network (GitHub): tests/vendoring.rs adds from local git repositories",
    ),
    (
        "cargo install --locked --path cargo-skills --no-default-features",
        "a release build of the CLI: CI's clippy builds the lean CLI, tests/features.rs checks its tree",
    ),
    (
        "cargo run -p issue-tracker -- create_issue '{\"repo\": \"acme/app\", \"title\": \"Crash on start\"}'",
        "tests/example_binary.rs runs the example against a local server",
    ),
    (
        "cargo run -p skill-host -- --watch ~/.agents/skills",
        "runs until stopped: tests/watch.rs drives the watcher",
    ),
    (
        "cargo install --locked --path examples/mcp-server",
        "a release build; tests/serve.rs drives the example server",
    ),
    (
        "claude mcp add issue-tracker -- \"$(command -v mcp-server)\"",
        "Claude Code's CLI",
    ),
    (
        "claude mcp add my-skills -- cargo skills serve \"$PWD/skills\" --skip-invalid",
        "Claude Code's CLI",
    ),
    (
        "cargo skills add anthropics/skills --list",
        "network (GitHub): tests/lock_round2.rs lists a local repository",
    ),
    (
        "cargo skills add anthropics/skills --skill pdf --skill docx",
        "network (GitHub)",
    ),
    (
        "cargo skills add https://github.com/anthropics/skills/tree/main/skills/pdf",
        "network (GitHub): tests/vendoring.rs parses tree URLs",
    ),
    (
        "cargo skills add https://git.example.com/team/skills.git#v2 --all",
        "an example host: tests/vendoring.rs adds from file:// URLs with #ref",
    ),
    (
        "cargo skills test --router anthropic:claude-sonnet-4-5 --record tests/trigger-record.json",
        "a model's API and its key: tests/trigger_models.rs records against a local server",
    ),
    (
        "cargo skills test --replay tests/trigger-record.json",
        "needs a record: tests/trigger_models.rs records one and replays it",
    ),
];

/// Placeholders in the README's lines, and what they stand for here.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("[NAME ...]", "deploy"),
    ("[--dry-run]", "--dry-run"),
    ("[--allow-outside]", "--allow-outside"),
    ("NAME", "deploy"),
    ("path/to/skills", "skills"),
    ("path/to/skill", "skills/deploy"),
    ("collection", "skills"),
];

/// Quick-start lines that are right to exit 1 where they run: (line start,
/// the code the output must name). Every other line exits 0.
const QUICK_START_EXIT_ONE: &[(&str, &str)] = &[
    // `new --tool` writes an `extended` skill: `portable` refuses `tools`
    // (until `fix --to portable`, further down, moves them to a sidecar).
    (
        "cargo skills check path/to/skills --profile portable",
        "S113",
    ),
    // The quick start locks nothing: the gate says so.
    ("cargo skills check --locked", "S519"),
];

/// A README line in a shell block: the command, the comment cut.
#[derive(Debug, Clone)]
struct Line {
    /// The first line of its block (1-based), which names the block.
    block: usize,
    command: String,
}

fn readme_lines() -> Vec<Line> {
    let readme = std::fs::read_to_string(support::workspace().join("README.md")).unwrap();
    let mut lines = Vec::new();
    let mut block: Option<usize> = None;
    for (index, text) in readme.lines().enumerate() {
        if let Some(fence) = text.strip_prefix("```") {
            block = match block {
                None if fence == "sh" => Some(index + 1),
                None => Some(0),
                Some(_) => None,
            };
            continue;
        }
        match block {
            Some(start) if start > 0 && !text.trim().is_empty() => lines.push(Line {
                block: start,
                command: command_of(text),
            }),
            _ => {}
        }
    }
    lines
}

/// A line without its trailing `# comment` (a `#` after a space, outside quotes).
fn command_of(text: &str) -> String {
    let mut quote = None;
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if previous == ' ' => return text[..at].trim_end().to_owned(),
            _ => {}
        }
        previous = c;
    }
    text.trim_end().to_owned()
}

fn not_run(command: &str) -> bool {
    NOT_RUN.iter().any(|(line, _)| *line == command)
}

fn with_placeholders(command: &str) -> String {
    PLACEHOLDERS
        .iter()
        .fold(command.to_owned(), |line, (from, to)| {
            line.replace(from, to)
        })
}

/// A folder on `PATH` whose `cargo` runs this build for `cargo skills`, and
/// the real cargo for the rest (`cargo metadata`).
fn cargo_shim() -> PathBuf {
    // One folder per caller: tests run in parallel, and a shared one was
    // emptied by one test while another ran its `cargo`.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let bin = fresh_dir(&format!("readme-bin-{n}"));
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = skills ]; then exec '{}' \"$@\"; fi\nexec '{real}' \"$@\"\n",
        env!("CARGO_BIN_EXE_cargo-skills"),
    );
    let cargo = bin.join("cargo");
    std::fs::write(&cargo, script).unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Runs `command` (a README line) with `sh` in `dir`; returns the exit code
/// and everything it printed.
fn run(bin: &Path, dir: &Path, command: &str) -> (i32, String) {
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let output = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), printed)
}

/// `command` exits 0, or 1 naming the code `exit_one` gives it.
fn assert_runs(bin: &Path, dir: &Path, line: &Line, exit_one: &[(&str, &str)]) {
    let command = with_placeholders(&line.command);
    let (code, printed) = run(bin, dir, &command);
    let expected = exit_one
        .iter()
        .find(|(start, _)| line.command.starts_with(start));
    match expected {
        Some((_, diagnostic)) => assert!(
            code == 1 && printed.contains(diagnostic),
            "README.md block at line {}: `{command}` should fail with {diagnostic}, exited {code}:\n{printed}",
            line.block
        ),
        None => assert_eq!(
            code, 0,
            "README.md block at line {}: `{command}` exited {code}:\n{printed}",
            line.block
        ),
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A crate with nothing but a manifest and `main`, committed.
fn empty_crate(dir: &Path) {
    write(
        &dir.join("Cargo.toml"),
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(&dir.join("src/main.rs"), "fn main() {}\n");
    commit(dir);
}

fn commit(dir: &Path) {
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "state",
            "--allow-empty",
        ],
    ] {
        let status = Command::new("git")
            .args(args)
            .current_dir(dir)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-R")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

const DEPLOY: &str = "---\nname: deploy\ndescription: Deploys the app to staging or production. Use when asked to ship a build.\n---\nRun the pipeline; see [the checklist](references/checklist.md).\n";

/// Every line the README shows is run below or listed in [`NOT_RUN`], and
/// every entry of [`NOT_RUN`] is still in the README.
#[test]
fn every_readme_line_is_run_or_says_why_not() {
    let lines = readme_lines();
    assert!(lines.len() > 30, "{lines:?}");
    let run_here = |line: &Line| {
        line.command.starts_with("cargo skills ")
            && [QUICK_START, FILES, VENDORING, TRIGGERS, SIGNING]
                .contains(&first_command(line.block, &lines))
    };
    let orphans: Vec<&Line> = lines
        .iter()
        .filter(|line| !not_run(&line.command) && !run_here(line))
        .collect();
    assert!(
        orphans.is_empty(),
        "README lines neither run by tests/readme.rs nor in its NOT_RUN: {orphans:#?}"
    );
    for (line, _) in NOT_RUN {
        assert!(
            lines.iter().any(|l| l.command == *line),
            "NOT_RUN names `{line}`, which the README no longer has"
        );
    }
}

/// The block a line is in, named by the block's first command.
fn first_command(block: usize, lines: &[Line]) -> &str {
    lines
        .iter()
        .find(|line| line.block == block)
        .map(|line| line.command.as_str())
        .unwrap_or_default()
}

const QUICK_START: &str = "cargo skills new deploy --tool run_job";
const FILES: &str = "cargo skills show pdf --files";
const VENDORING: &str = "cargo skills add anthropics/skills --list";
const TRIGGERS: &str = "cargo skills test";
const SIGNING: &str = "cargo skills sign skills/deploy --key deploy.key --cert-chain deploy.pem --cert-chain certs/vendor.pem";

fn block(first: &str) -> Vec<Line> {
    let lines = readme_lines();
    let start = lines
        .iter()
        .find(|line| line.command == first)
        .unwrap_or_else(|| panic!("the README has no block starting `{first}`"))
        .block;
    lines
        .into_iter()
        .filter(|line| line.block == start && !not_run(&line.command))
        .collect()
}

/// The quick start, in order, in a new crate: `new` first, then each
/// command on what it made (committed, as `fix` wants a clean tree).
#[test]
fn the_quick_start_runs_in_order_in_a_new_crate() {
    let bin = cargo_shim();
    let dir = fresh_dir("readme-quick-start");
    empty_crate(&dir);
    let lines = block(QUICK_START);
    assert_eq!(lines[0].command, QUICK_START);
    assert_runs(&bin, &dir, &lines[0], &[]);
    commit(&dir);
    for line in &lines[1..] {
        assert_runs(&bin, &dir, line, QUICK_START_EXIT_ONE);
    }
    let schema = std::fs::read_to_string(dir.join("skills.schema.json")).unwrap();
    assert!(schema.contains("\"$defs\""), "{schema}");
}

/// `show pdf --files` on a skill with a reference and a hidden file.
#[test]
fn the_files_line_runs_on_a_skill_with_files() {
    let bin = cargo_shim();
    let dir = fresh_dir("readme-files");
    write(
        &dir.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill or read a PDF form.\n---\nSee [forms](references/forms.md).\n",
    );
    write(&dir.join("skills/pdf/references/forms.md"), "# Forms\n");
    write(&dir.join("skills/pdf/.DS_Store"), "x");
    empty_crate(&dir);
    for line in block(FILES) {
        let (code, printed) = run(&bin, &dir, &line.command);
        assert_eq!(code, 0, "{}:\n{printed}", line.command);
        assert!(
            printed.contains("references/forms.md") && printed.contains(".DS_Store"),
            "{printed}"
        );
    }
}

/// Vendoring: `add` from a folder beside the crate, then every other line
/// of the block from a fresh copy of that state (the lines are a menu, not
/// a sequence: `remove` would leave `verify` nothing).
#[test]
fn the_vendoring_lines_run_from_a_vendored_skill() {
    let bin = cargo_shim();
    let root = fresh_dir("readme-vendoring");
    write(&root.join("shared-skills/deploy/SKILL.md"), DEPLOY);
    write(
        &root.join("shared-skills/deploy/references/checklist.md"),
        "# Checklist\n",
    );
    let added = root.join("added");
    empty_crate(&added);
    let lines = block(VENDORING);
    let (add, rest): (Vec<_>, Vec<_>) = lines
        .into_iter()
        .partition(|line| line.command.starts_with("cargo skills add "));
    assert_eq!(add.len(), 1, "{add:?}");
    assert_runs(&bin, &added, &add[0], &[]);
    assert!(added.join("skills/deploy/SKILL.md").is_file());
    assert!(added.join("skills-lock.json").is_file());
    commit(&added);
    for (index, line) in rest.iter().enumerate() {
        let dir = root.join(format!("line-{index}"));
        copy_tree(&added, &dir);
        assert_runs(&bin, &dir, line, &[]);
    }
}

/// The trigger-test lines, in a crate whose skills have cases of their own
/// and a set's file beside them.
#[test]
fn the_trigger_test_lines_run_on_skills_with_cases() {
    let bin = cargo_shim();
    let dir = fresh_dir("readme-triggers");
    write(
        &dir.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fill in PDF forms, merge PDF files and extract their text.\n---\nBody.\n",
    );
    write(&dir.join("skills/deploy/SKILL.md"), DEPLOY);
    write(
        &dir.join("skills/deploy/references/checklist.md"),
        "# Checklist\n",
    );
    write(
        &dir.join("skills/pdf/evals/eval_queries.json"),
        r#"[{"query": "merge these two PDFs", "should_trigger": true}]"#,
    );
    write(
        &dir.join("cases.json"),
        r#"{"queries": [{"id": "1", "text": "ship the build to production", "expected_skill": "deploy"}]}"#,
    );
    empty_crate(&dir);
    for line in block(TRIGGERS) {
        assert_runs(&bin, &dir, &line, &[]);
    }
}

#[path = "../../skills-compiler/tests/support/pki.rs"]
mod pki;

/// The signing lines, in order, in a crate with a skill and a publisher's
/// key, certificate and root (made here): sign, then check with the root
/// trusted and signatures required.
#[test]
fn the_signing_lines_sign_then_verify() {
    let bin = cargo_shim();
    let dir = fresh_dir("readme-signing");
    write(&dir.join("skills/deploy/SKILL.md"), DEPLOY);
    write(
        &dir.join("skills/deploy/references/checklist.md"),
        "# Checklist\n",
    );
    let ca = pki::ca("CN=Vendor Root", pki::Curve::P256);
    let leaf = pki::leaf(&ca, "CN=Vendor Skills", pki::Curve::P256);
    write(&dir.join("certs/vendor.pem"), &ca.pem());
    write(&dir.join("deploy.pem"), &leaf.pem());
    write(&dir.join("deploy.key"), &leaf.key.pem());
    empty_crate(&dir);
    let lines = block(SIGNING);
    assert_eq!(lines.len(), 3, "{lines:?}");
    for line in &lines {
        assert_runs(&bin, &dir, line, &[]);
    }
    assert!(dir.join("skills/deploy/skill.oms.sig").is_file());
}
