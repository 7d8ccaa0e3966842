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

/// What the client script `tests/lsp/SCRIPT` saw, driving the server on
/// the workspace `dir` with `args` after it: its one line of JSON.
fn run_client(script: &str, dir: &Path, args: &[&str]) -> serde_json::Value {
    let client = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lsp")
        .join(script);
    let output = Command::new(python_with_pygls())
        .arg(&client)
        .arg(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{script} {args:?} failed: {output:?}"
    );
    serde_json::from_slice(&output.stdout).unwrap()
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
    let seen = run_client("client.py", &dir, &["skills/tracker/SKILL.md"]);
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
    // Formatting is what `fmt` writes: one edit, clean, then none.
    assert_eq!(seen["format_edits"], 1);
    let formatted = seen["formatted_text"].as_str().unwrap();
    std::fs::write(dir.join("skills/tracker/SKILL.md"), formatted).unwrap();
    let fmt = Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .args(["skills", "fmt", "--check", "skills"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        fmt.status.success(),
        "fmt --check after the server's formatting: {fmt:?}"
    );
    assert_eq!(seen["formatted"], serde_json::json!([]));
    assert_eq!(seen["format_again"], 0);
    // Half a frontmatter is a diagnostic, not a crash.
    assert_eq!(seen["half"], serde_json::json!(["S003"]));
    assert_eq!(seen["unknown"], "JsonRpcMethodNotFound");
    assert_eq!(seen["still_answering"], true);
    assert_eq!(seen["exit"], 0);
}

/// A package of two skills whose bodies link to a file of the skill, a
/// heading of it, a heading of the body, the other skill, and a file that
/// is not there.
fn linked_package(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    let tracker = dir.join("skills/tracker");
    std::fs::create_dir_all(tracker.join("references")).unwrap();
    std::fs::write(tracker.join("SKILL.md"), TRACKER).unwrap();
    std::fs::write(
        tracker.join("references/api.md"),
        "# API\n\n## Errors\n\nA 404 means no such issue.\n",
    )
    .unwrap();
    // A skill of someone else's, vendored through the lock: its method in
    // lower case has a machine-applicable fix.
    let vendor = dir.join("vendor/shared");
    std::fs::create_dir_all(&vendor).unwrap();
    std::fs::write(vendor.join("SKILL.md"), SHARED).unwrap();
    let notes = dir.join("skills/notes");
    std::fs::create_dir_all(notes.join("evals")).unwrap();
    std::fs::write(
        notes.join("evals/eval_queries.json"),
        r#"[{"query": "note down that the deploy failed", "should_trigger": true},
            {"query": "keep a note: call Ana on Friday", "should_trigger": true},
            {"query": "translate this paragraph into French", "should_trigger": true}]"#,
    )
    .unwrap();
    std::fs::write(
        notes.join("SKILL.md"),
        "---\nname: notes\ndescription: Keep notes on issues. Use when the user asks to note something down.\n---\n# Notes\n\nThe tracker's [errors](../tracker/references/api.md#errors).\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    for args in [
        &["skills", "lock"][..],
        &["skills", "add", "./vendor", "--skill", "shared"],
    ] {
        let ran = Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(ran.status.success(), "{args:?}: {ran:?}");
    }
    dir
}

const SHARED: &str = "---\nname: shared\ndescription: Shares files. Use when asked to share a file.\nmade-by: someone\n---\n# Shared\n";

const TRACKER: &str = "---\nname: tracker\ndescription: Look up issues in the team's tracker. Use when the user asks about an issue by number.\ntools:\n  - name: get_issue\n    description: One issue by its number.\n    parameters:\n      type: object\n      properties:\n        number: { type: integer }\n      required: [number]\n    endpoint: { url: \"https://tracker.example/issues/{{number}}\", method: GET }\n---\n# Tracker\n\nLook the issue up with `get_issue`; its errors are in [the API notes](references/api.md#errors).\nSee [usage](#usage), [notes](../notes/SKILL.md) and the [old notes](references/gone.md).\n\n## Usage\n\nAsk by number.\n";

/// `[line, start, line, end]` of `needle` in `TRACKER`, in UTF-16 units.
fn spot_of(needle: &str) -> serde_json::Value {
    let at = TRACKER.find(needle).unwrap();
    let line = TRACKER[..at].matches('\n').count();
    let start = TRACKER[TRACKER[..at].rfind('\n').map_or(0, |n| n + 1)..at]
        .encode_utf16()
        .count();
    let end = start + needle.encode_utf16().count();
    serde_json::json!([line, start, line, end])
}

#[test]
fn a_real_client_follows_links_lists_symbols_and_finds_references() {
    let dir = linked_package("lsp-navigate");
    let seen = run_client("navigate.py", &dir, &["skills/tracker/SKILL.md"]);
    let json = |text: &str| -> serde_json::Value { serde_json::from_str(text).unwrap() };
    // Each code links to its page in the reference `explain` prints.
    let page = "https://github.com/skills-rs/skills/blob/main/docs/diagnostics.md#";
    let diagnostics = seen["diagnostics"].as_array().unwrap();
    let codes: Vec<_> = diagnostics.iter().map(|d| d[0].as_str().unwrap()).collect();
    assert_eq!(codes, ["S516", "W014"], "{seen}");
    for diagnostic in diagnostics {
        let href = diagnostic[1].as_str().unwrap();
        let code = diagnostic[0].as_str().unwrap().to_lowercase();
        assert!(href.starts_with(&format!("{page}{code}-")), "{href}");
    }
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"),
    )
    .unwrap();
    assert!(reference.contains("\n## S516: "), "the page the link names");
    // The workspace's other skill files, as `check` finds them on disk;
    // the open one is reported by its own pull.
    assert_eq!(
        seen["workspace"],
        serde_json::json!([
            ["skills/notes/SKILL.md", ["W014"]],
            ["skills/shared/SKILL.md", ["S112"]],
        ])
    );
    // Over `description`, each host's share of its listing budget and what
    // it does with the entry: the figures `cargo skills budget` prints.
    let lenses = seen["lenses"].as_array().unwrap();
    let titles: Vec<&str> = lenses.iter().map(|l| l[1].as_str().unwrap()).collect();
    assert!(!titles.is_empty(), "{seen}");
    for lens in lenses {
        assert_eq!(lens[0], serde_json::json!([2, 0, 2, 11]), "{lens}");
    }
    // Over `name`, the skill's trigger cases routed offline, with the
    // command that routes them again: the same figures as `cargo skills
    // test`'s for that skill.
    let routed = &seen["routed_lens"][0];
    assert_eq!(routed[0], serde_json::json!([1, 0, 1, 4]), "{seen}");
    assert_eq!(routed[2], "cargo-skills.test");
    let title = routed[1].as_str().unwrap();
    // The French request names nothing the skill does: it fails.
    assert_eq!(title, "2 of 3 trigger cases route here (offline router)");
    assert_eq!(seen["routed_ran"]["message"], title);
    assert_eq!(seen["routed_ran"]["cases"], 3);
    let tested = Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .args(["skills", "test", "skills"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let tested = String::from_utf8_lossy(&tested.stdout);
    assert_eq!(seen["routed_ran"]["passed"], 2);
    assert!(tested.contains("notes: won 2 of 3"), "{tested}");
    // A skill with errors is not listed: no lens says it is.
    assert_eq!(seen["tracker_lenses"], 0);
    let budget = Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .args(["skills", "budget", "--format", "json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let budget: serde_json::Value = serde_json::from_slice(&budget.stdout).unwrap();
    for title in &titles {
        let (host, rest) = title.split_once(": ").unwrap();
        assert!(rest.contains("% of the budget, "), "{title}");
        assert!(
            budget.to_string().contains(host),
            "{host} is not in {budget}"
        );
    }
    assert!(
        titles.iter().any(|t| t.starts_with("claude-code: ")),
        "{titles:?}"
    );
    // Keys and tools, then headings nested by level (7 property, 12
    // function, 15 string).
    assert_eq!(
        seen["symbols"],
        json(
            r#"[["name",7],["description",7],["tools",7,[["get_issue",12]]],["Tracker",15,[["Usage",15]]]]"#
        )
    );
    // The frontmatter, `tools:`, the tool, and each section.
    assert_eq!(
        seen["folds"],
        json("[[0,12],[3,11],[4,11],[13,20],[18,20]]")
    );
    // Links to files that are there; the missing one and `#usage` are not.
    assert_eq!(
        seen["links"],
        serde_json::json!([
            [
                spot_of("references/api.md#errors"),
                "skills/tracker/references/api.md"
            ],
            [spot_of("../notes/SKILL.md"), "skills/notes/SKILL.md"],
        ])
    );
    assert_eq!(
        seen["definition_file_heading"],
        json(r#"["skills/tracker/references/api.md",[2,0,2,9]]"#)
    );
    assert_eq!(
        seen["definition_here"],
        json(r#"["skills/tracker/SKILL.md",[18,0,18,8]]"#)
    );
    assert_eq!(
        seen["definition_other_skill"],
        json(r#"["skills/notes/SKILL.md",[0,0,0,0]]"#)
    );
    assert_eq!(seen["definition_prose"], serde_json::Value::Null);
    // A tool's hover: what it does, its endpoint, its parameters' schema
    // as compiled (so none while the skill has an error); a placeholder's:
    // the parameter it fills.
    assert_eq!(seen["hover_tool_broken_skill"], serde_json::Value::Null);
    let tool = seen["hover_tool"].as_str().unwrap();
    assert!(
        tool.starts_with("**tool `get_issue`**\n\nOne issue by its number."),
        "{tool}"
    );
    assert!(
        tool.contains("`GET https://tracker.example/issues/{{number}}`"),
        "{tool}"
    );
    assert!(tool.contains("\"number\""), "{tool}");
    let placeholder = seen["hover_placeholder"].as_str().unwrap();
    assert!(
        placeholder.starts_with("`{{number}}`: required parameter of `get_issue`"),
        "{placeholder}"
    );
    assert!(placeholder.contains("\"integer\""), "{placeholder}");
    // A link's hover shows its target from the heading; a broken one says
    // why, as `check` does.
    let hover = seen["hover_link"].as_str().unwrap();
    assert!(
        hover.starts_with("`skills/tracker/references/api.md`"),
        "{hover}"
    );
    assert!(
        hover.contains("## Errors\n\nA 404 means no such issue."),
        "{hover}"
    );
    assert!(!hover.contains("# API"), "{hover}");
    let broken = seen["hover_broken"].as_str().unwrap();
    assert!(broken.starts_with("**Broken link** (S516)"), "{broken}");
    assert!(broken.contains("references/gone.md"), "{broken}");
    // Who links to `references/api.md`: this skill and the other one.
    let notes_line = serde_json::json!([6, 23, 6, 58]);
    assert_eq!(
        seen["references"],
        serde_json::json!([
            ["skills/notes/SKILL.md", notes_line],
            [
                "skills/tracker/SKILL.md",
                spot_of("references/api.md#errors")
            ],
        ])
    );
    // Completion: the body's anchors after `#`, the skill's files in a
    // link (not `SKILL.md`), and keys the frontmatter lacks.
    assert_eq!(
        seen["complete_anchor"],
        serde_json::json!(["tracker", "usage"])
    );
    assert_eq!(
        seen["complete_file"],
        serde_json::json!(["references/api.md"])
    );
    let keys = seen["complete_key"].as_array().unwrap();
    assert!(keys.contains(&"license".into()), "{keys:?}");
    assert!(!keys.contains(&"name".into()), "{keys:?}");
    // Rename: the heading's title and every link to its anchor, at once.
    // `[line, start, line, end]` of `needle` without its last character.
    let short = |needle: &str| {
        let spot = spot_of(needle);
        serde_json::json!([spot[0], spot[1], spot[2], spot[3].as_u64().unwrap() - 1])
    };
    assert_eq!(
        seen["prepared"],
        serde_json::json!([short("Usage\n"), "Usage"])
    );
    assert_eq!(
        seen["renamed"],
        serde_json::json!([
            ["skills/tracker/SKILL.md", short("usage)"), "how-to-ask"],
            ["skills/tracker/SKILL.md", short("Usage\n"), "How to ask"],
        ])
    );
    assert_eq!(seen["rename_prose"], "JsonRpcInvalidParams");
    // The vendored skill: judged by the vendored rules (a warning), told
    // where it came from and how to change it, and offered no edit.
    let vendored = seen["vendored"].as_array().unwrap();
    assert!(!vendored.is_empty(), "{seen}");
    for diagnostic in vendored {
        let message = diagnostic[1].as_str().unwrap();
        assert!(
            message.contains("vendored from ./vendor") && message.contains("`cargo skills sync`"),
            "{message}"
        );
    }
    assert_eq!(seen["vendored_actions"], 0);
    // Its `tools.yaml` is the vendored skill's too: the lower-case method
    // is said, with the note, and not offered its quick fix.
    let tools = seen["vendored_tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "{seen}");
    assert_eq!(tools[0][0], "S310");
    assert!(
        tools[0][1]
            .as_str()
            .unwrap()
            .contains("`cargo skills sync`"),
        "{seen}"
    );
    assert_eq!(seen["vendored_tools_actions"], 0);
    // `tools.yaml` as the editor holds it (not on disk): its lower-case
    // method, where it is in that file.
    let method = "    endpoint: { url: \"https://notes.example/all\", method: ";
    let column = method.len();
    assert_eq!(
        seen["tools_yaml"],
        serde_json::json!([["S310", [3, column, 3, column + 3]]])
    );
    assert_eq!(seen["tools_yaml_symbols"], serde_json::Value::Null);
    assert_eq!(seen["unknown_symbols"], serde_json::Value::Null);
    assert_eq!(seen["exit"], 0);
}

/// Thousands of random edits (fences, half links, placeholders, surrogate
/// pairs, CRLF, a BOM), each followed by a request at a random place: the
/// server answers every one (an error answer counts, a crash or a hang does
/// not), and the text it tracked through the incremental changes is the
/// client's: its diagnostics equal those of the same text opened whole.
#[test]
fn a_real_client_makes_thousands_of_random_edits_and_the_server_keeps_up() {
    let dir = linked_package("lsp-edits");
    let edits = 2_000;
    for seed in ["1", "2"] {
        let count = edits.to_string();
        let seen = run_client("edits.py", &dir, &["skills/tracker/SKILL.md", seed, &count]);
        assert_eq!(seen["answered"], edits, "seed {seed}: {seen}");
        // Error answers only of the kinds a request can earn: a rename off
        // a heading (invalid params, -32602), a document `fmt` leaves as it
        // is (request failed, -32803). Never an internal error (-32603).
        for (kind, _) in seen["errors"].as_object().unwrap() {
            assert!(
                ["-32602", "-32803"].contains(&kind.as_str()),
                "seed {seed}: {kind}: {seen}"
            );
        }
        assert_eq!(seen["incremental"], seen["whole"], "seed {seed}");
        assert!(seen["final_bytes"].as_u64().unwrap() > 0);
        assert_eq!(seen["exit"], 0);
    }
}

/// What bad input gets: a 10 MB skill file, a BOM with CRLF line ends,
/// invalid UTF-8 on disk (and a link into such a file), a symlink loop in
/// the skills root, and requests on a document never opened. Every request
/// is answered, none with an internal error, and the server exits cleanly.
#[test]
fn hostile_documents_get_answers_not_crashes() {
    let dir = linked_package("lsp-hostile");
    let skills = dir.join("skills");
    let make = |name: &str, bytes: &[u8]| {
        std::fs::create_dir_all(skills.join(name)).unwrap();
        std::fs::write(skills.join(name).join("SKILL.md"), bytes).unwrap();
    };
    let mut huge =
        b"---\nname: huge\ndescription: A big one. Use when testing size.\n---\n".to_vec();
    while huge.len() < 10 << 20 {
        huge.extend_from_slice(
            b"# Part\n\nSee [the API](references/api.md#errors) and more text.\n",
        );
    }
    make("huge", &huge);
    make(
        "crlf",
        "\u{feff}---\r\nname: crlf\r\ndescription: Windows line ends. Use when testing CRLF.\r\ntools:\r\n  - name: t\r\n    description: A tool.\r\n    endpoint: { url: \"https://x.example/𝄞\", method: get }\r\n---\r\n# Title\r\n".as_bytes(),
    );
    make(
        "latin",
        b"---\nname: latin\ndescription: caf\xe9. Use when testing bytes.\n---\nSee [bad](bad.txt).\n",
    );
    std::fs::write(skills.join("latin/bad.txt"), b"\xff\xfe\x00 not text").unwrap();
    std::os::unix::fs::symlink("..", skills.join("tracker/references/loop")).unwrap();
    std::os::unix::fs::symlink("loop-b", skills.join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", skills.join("loop-b")).unwrap();
    let files = [
        "skills/huge/SKILL.md",
        "skills/crlf/SKILL.md",
        "skills/latin/SKILL.md",
        "skills/tracker/SKILL.md",
    ];
    let seen = run_client("hostile.py", &dir, &files);
    for file in files {
        let answered = seen[file]["answered"].as_array().unwrap();
        assert_eq!(answered.len(), 8, "{file}: {seen}");
        assert!(
            answered
                .iter()
                .all(|a| !a.as_str().unwrap().starts_with("error")),
            "{file}: {answered:?}"
        );
    }
    // The 10 MB file is over the size limit: said, not read into a crash.
    let huge_codes = seen["skills/huge/SKILL.md"]["codes"].as_array().unwrap();
    assert!(!huge_codes.is_empty(), "{seen}");
    // BOM and CRLF: the lower-case method is found where it is (line 6, in
    // UTF-16 units after `𝄞`), the `\r` a character of its line.
    assert_eq!(
        seen["skills/crlf/SKILL.md"]["codes"],
        serde_json::json!(["S310"])
    );
    let before = "    endpoint: { url: \"https://x.example/𝄞\", method: ";
    let column = before.encode_utf16().count();
    assert_eq!(
        seen["skills/crlf/SKILL.md"]["first"],
        serde_json::json!([[6, column, 6, column + 3]])
    );
    // Not UTF-8 on disk: the editor shows it with replacement characters,
    // and that text is what is checked (the link into the binary file is
    // there, so nothing is wrong with it).
    assert_eq!(
        seen["skills/latin/SKILL.md"]["codes"],
        serde_json::json!([])
    );
    // A document never opened: empty answers, and the pull a report.
    assert_eq!(
        seen["never opened"],
        serde_json::json!([
            "null", "null", "null", "null", "null", "null", "null", "answer"
        ])
    );
    assert_eq!(seen["exit"], 0);
}
