//! `cargo skills lsp` through a real client: pygls's `LanguageClient`
//! (PyPI `pygls` 2.1.1, installed into a virtual environment under the
//! target's temporary folder; the test fails, not skips, when it cannot be)
//! drives one editing session on a package written here: diagnostics after
//! open, pulled, hover on a key, the quick fix applied as an incremental change and
//! re-checked, half a frontmatter, an unknown method, shutdown and exit.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use support::fresh_dir;

/// The virtual environment's python, with pygls, set up once per binary.
fn python_with_pygls() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pygls-2.1.1");
        let python = venv.join("bin/python3");
        if venv.join("ready").exists() {
            return python;
        }
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .expect("python3 is needed to run the LSP client");
        assert!(made.success(), "python3 -m venv failed");
        let installed = Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "pygls==2.1.1"])
            .output()
            .unwrap();
        assert!(installed.status.success(), "pip install: {installed:?}");
        std::fs::write(venv.join("ready"), "").unwrap();
        python
    })
}

/// A package whose one skill has an error with a machine-applicable fix
/// (a lower-case method) after text beyond the Basic Multilingual Plane on
/// its line, so that a UTF-16 position differs from a byte or a char one.
fn package(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    let skill = dir.join("skills/tracker");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: tracker\ndescription: Look up issues in the team's tracker. Use when the user asks about an issue by number.\ntools:\n  - name: get_issue\n    description: One issue by its number.\n    parameters:\n      type: object\n      properties:\n        number: { type: integer }\n      required: [number]\n    endpoint: { url: \"https://tracker.example/issues/{{number}}?via=𝄞é\", method: get }\n---\n# Tracker\n\nLook the issue up with `get_issue`.\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_real_client_sees_diagnostics_applies_a_quick_fix_and_shuts_the_server_down() {
    let dir = package("lsp-session");
    let client = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp/client.py");
    let output = Command::new(python_with_pygls())
        .arg(&client)
        .arg(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg(&dir)
        .arg("skills/tracker/SKILL.md")
        .output()
        .unwrap();
    assert!(output.status.success(), "the client failed: {output:?}");
    let seen: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(seen["server"], "cargo-skills");
    // Incremental sync (2), so the quick fix travels as a range.
    assert_eq!(seen["sync"], 2);
    assert_eq!(seen["opened"], serde_json::json!(["S310"]));
    assert_eq!(seen["pulled"], seen["opened"]);
    // Hover says what `explain` says of the key, over the key's range.
    let explained = Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .args(["explain", "endpoint.method"])
        .output()
        .unwrap();
    let first_line = String::from_utf8(explained.stdout).unwrap();
    let first_line = first_line.lines().next().unwrap();
    assert_eq!(seen["hover"], first_line);
    let at = seen["hover_column"].as_u64().unwrap();
    assert_eq!(seen["hover_range"], serde_json::json!([at, at + 6]));
    assert_eq!(seen["hover_body"], serde_json::Value::Null);
    // `get` on line 11 (from 0), after a URL with `𝄞` (two UTF-16 units,
    // four bytes, one char) and `é` (one unit, two bytes).
    let before =
        "    endpoint: { url: \"https://tracker.example/issues/{{number}}?via=𝄞é\", method: ";
    let column = before.encode_utf16().count();
    assert_ne!(column, before.len());
    assert_ne!(column, before.chars().count());
    assert_eq!(
        seen["opened_range"],
        serde_json::json!([11, column, 11, column + 3])
    );
    assert_eq!(
        seen["actions"],
        serde_json::json!([
            ["use upper case", "quickfix"],
            ["Fix all in this file (1 fix)", "source.fixAll"]
        ])
    );
    // The fix applied and the document checked again: clean, at version 2.
    assert_eq!(seen["fixed"], serde_json::json!([]));
    assert_eq!(seen["fixed_version"], 2);
    // Half a frontmatter is a diagnostic, not a crash.
    assert_eq!(seen["half"], serde_json::json!(["S003"]));
    assert_eq!(seen["unknown"], "JsonRpcMethodNotFound");
    assert_eq!(seen["still_answering"], true);
    assert_eq!(seen["exit"], 0);
}
