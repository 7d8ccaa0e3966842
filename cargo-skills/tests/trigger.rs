//! `cargo skills test` and `cargo skills route` as a user runs them (issue
//! 59): every case format, the JSON lines and the human report, the gates
//! and exit codes, and what malformed case files get.

mod support;

use std::path::{Path, PathBuf};

use support::{fresh_dir, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A skills root of four skills; `hidden` opts out of implicit invocation.
fn root(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    for (skill, description, extra) in [
        (
            "pdf",
            "Fill in PDF forms, merge PDF files and extract their text.",
            "",
        ),
        (
            "release-notes",
            "Write release notes from the pull requests merged since the last tag.",
            "",
        ),
        (
            "deploy",
            "Deploy the app to staging or production and roll back a bad release.",
            "",
        ),
        (
            "hidden",
            "Rotate the production database credentials.",
            "disable-model-invocation: true\n",
        ),
    ] {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            &format!(
                "---\nname: {skill}\ndescription: {description} Use when asked.\n{extra}---\nBody.\n"
            ),
        );
    }
    dir
}

const SET: &str = r#"{"queries": [
  {"id": "a", "text": "merge these two PDFs into one", "expected_skill": "pdf", "acceptable_skills": []},
  {"id": "b", "text": "write the release notes for the new tag", "expected_skill": "release-notes"},
  {"id": "c", "text": "roll back the production deploy", "expected_skill": "deploy"},
  {"id": "d", "text": "what's the weather in Lisbon?", "expected_skill": null}
]}"#;

/// `cargo skills test skills --cases cases.json --message-format FORMAT`
/// in `dir`, which must exit with `code`.
fn test_cases(dir: &Path, format: &str, code: i32) -> (String, String) {
    output(
        dir,
        &[
            "test",
            "skills",
            "--cases",
            "cases.json",
            "--message-format",
            format,
        ],
        code,
    )
}

fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn a_set_file_and_a_skills_own_cases_route_and_pass_the_gates() {
    let dir = root("trigger-pass");
    write(&dir.join("cases.json"), SET);
    write(
        &dir.join("skills/pdf/evals/eval_queries.json"),
        r#"[{"query": "extract the text of this PDF", "should_trigger": true},
            {"text": "roll back the production deploy", "should_trigger": false}]"#,
    );
    let (stdout, _) = test_cases(&dir, "json", 0);
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 7, "{stdout}");
    let first = &lines[0];
    assert_eq!(first["type"], "case");
    assert_eq!(first["id"], "pdf#1");
    assert_eq!(first["expected"], serde_json::json!(["pdf"]));
    assert_eq!(first["chosen"], "pdf");
    assert_eq!(first["pass"], true);
    assert_eq!(first["runs"], serde_json::json!(["pdf"]));
    assert_eq!(first["ranked"][0]["skill"], "pdf");
    // A skill's should-not-trigger case: anything but it.
    assert_eq!(lines[1]["expected"], serde_json::Value::Null);
    assert_eq!(lines[1]["not"], "pdf");
    assert_eq!(lines[1]["chosen"], "deploy");
    assert_eq!(lines[1]["pass"], true);
    // No skill expected, none chosen.
    assert_eq!(lines[5]["id"], "d");
    assert_eq!(lines[5]["chosen"], serde_json::Value::Null);
    let summary = &lines[6];
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["cases"], 6);
    assert_eq!(summary["accuracy"], 1.0);
    assert_eq!(summary["misroute"], 0.0);
    assert_eq!(summary["pass"], true);
    // Byte-identical on a second run.
    let (again, _) = test_cases(&dir, "json", 0);
    assert_eq!(stdout, again);
}

#[test]
fn a_failing_case_is_named_under_its_skill_with_the_pair_to_separate() {
    let dir = root("trigger-fail");
    write(
        &dir.join("cases.json"),
        r#"{"queries": [
  {"id": "p1", "text": "merge these two PDFs into one", "expected_skill": "pdf"},
  {"id": "p2", "text": "roll back the production release", "expected_skill": "pdf"},
  {"id": "h1", "text": "rotate the production database credentials", "expected_skill": "hidden"}
]}"#,
    );
    let (stdout, stderr) = output(&dir, &["test", "skills", "--cases", "cases.json"], 1);
    assert!(
        stdout.contains("pdf: won 1 of 2, ranked first 1, in the top 3 1\n  FAIL p2 \"roll back the production release\" -> deploy"),
        "{stdout}"
    );
    assert!(stdout.contains("pdf -> deploy (1 case)"), "{stdout}");
    // A skill the host does not list is never chosen implicitly.
    assert!(
        stdout.contains("hidden: won 0 of 1, ranked first 0, in the top 3 0\n  FAIL h1"),
        "{stdout}"
    );
    // What the ranking knew, and the cut in force.
    assert!(
        stdout.contains("ranking: top-1 0.333, top-3 0.333; 0 failures abstained with the right skill ranked first\ncut: 0.250"),
        "{stdout}"
    );
    assert!(
        stderr.contains("gate failed: recall of the set"),
        "{stderr}"
    );
    assert!(
        stderr.contains("gate failed: recall of `hidden` is 0.000"),
        "{stderr}"
    );
    // The manifest's gates: a run that asks less passes.
    write(
        &dir.join("Cargo.toml"),
        "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.skills.test]\nrecall = 0.3\naccuracy = 0.3\nmisroute = 0.5\nper_skill = false\n\n[workspace]\n",
    );
    write(&dir.join("src/lib.rs"), "");
    output(&dir, &["test", "--cases", "cases.json"], 0);
}

#[test]
fn the_importers_read_aigent_waza_and_openai_cases() {
    let dir = root("trigger-importers");
    write(
        &dir.join("aigent-tests.yml"),
        "queries:\n  - input: merge these two PDFs into one\n    should_match: true\n  - input: what's the weather in Lisbon?\n    should_match: false\n",
    );
    write(
        &dir.join("skills/deploy/eval.yaml"),
        "should_trigger_prompts:\n  - prompt: roll back the production deploy\n    reason: rollback\n    confidence: high\nshould_not_trigger_prompts:\n  - prompt: merge these two PDFs into one\n",
    );
    write(
        &dir.join("skills/release-notes/cases.csv"),
        "id,should_trigger,prompt\nr1,true,\"write the release notes for the new tag\"\nr2,false,\"merge these two PDFs, please\"\n",
    );
    let (stdout, _) = output(
        &dir,
        &[
            "test",
            "skills",
            "--cases",
            "pdf=aigent-tests.yml",
            "--cases",
            "skills/deploy/eval.yaml",
            "--cases",
            "skills/release-notes/cases.csv",
            "--message-format",
            "json",
        ],
        0,
    );
    let lines = json_lines(&stdout);
    let ids: Vec<&str> = lines[..6]
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["pdf#1", "pdf#2", "deploy#1", "deploy#2", "r1", "r2"]);
    assert_eq!(lines[6]["cases"], 6);
    assert_eq!(lines[6]["pass"], true);
}

/// What malformed case files get: located diagnostics with codes, exit 2,
/// nothing routed; never a panic.
#[test]
fn malformed_case_files_get_located_diagnostics_and_exit_2() {
    let dir = root("trigger-bad");
    for (file, text, expected) in [
        (
            "types.json",
            "{\"queries\": [\n  {\"id\": \"a\", \"text\": 5, \"expected_skill\": \"pdf\"}\n]}",
            "error[S602]: `text` must be a string, found an integer\n --> types.json:2:23",
        ),
        (
            "array.json",
            "{\"queries\": {\"id\": \"a\"}}",
            "error[S602]: `queries` must be an array, found a mapping",
        ),
        (
            "unknown.json",
            "{\"queries\": [{\"id\": \"a\", \"text\": \"merge PDFs\", \"expected_skill\": \"pfd\"}]}",
            "error[S603]: no skill of the set is named `pfd`",
        ),
        (
            "dupes.json",
            "{\"queries\": [\n{\"id\": \"a\", \"text\": \"merge PDFs\", \"expected_skill\": \"pdf\"},\n{\"id\": \"a\", \"text\": \"deploy it\", \"expected_skill\": \"deploy\"}]}",
            "error[S604]: two cases have the id `a`\n --> dupes.json:3:1",
        ),
        (
            "syntax.json",
            "{\"queries\": [{\"id\": \"a\",, }]}",
            "error[S601]",
        ),
        (
            "deep.json",
            &format!("{}{}", "[".repeat(200), "]".repeat(200)),
            "error[S601]",
        ),
        (
            "loose.json",
            "[{\"query\": \"merge PDFs\", \"should_trigger\": \"yes\"}]",
            "error[S602]: these cases belong to one skill",
        ),
    ] {
        write(&dir.join(file), text);
        let (stdout, stderr) = output(&dir, &["test", "skills", "--cases", file], 2);
        assert!(stdout.is_empty(), "{file}: {stdout}");
        assert!(stderr.contains(expected), "{file}: {stderr}");
        assert!(stderr.contains("nothing was routed"), "{file}: {stderr}");
    }
    // Did you mean.
    let (_, stderr) = output(&dir, &["test", "skills", "--cases", "unknown.json"], 2);
    assert!(stderr.contains("did you mean `pdf`?"), "{stderr}");
    // One skill's format with a wrong type, in the skill's own file.
    write(
        &dir.join("skills/pdf/evals/eval_queries.json"),
        "[{\"query\": \"merge PDFs\", \"should_trigger\": \"yes\"}]",
    );
    let (_, stderr) = output(&dir, &["test", "skills"], 2);
    assert!(
        stderr.contains("error[S602]: `should_trigger` must be true or false, found a string")
            && stderr.contains("skills/pdf/evals/eval_queries.json:1:44"),
        "{stderr}"
    );
    std::fs::remove_file(dir.join("skills/pdf/evals/eval_queries.json")).unwrap();
    // Over 16 MiB: refused before it is read.
    let big = dir.join("big.json");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(17 * 1024 * 1024).unwrap();
    let (_, stderr) = output(&dir, &["test", "skills", "--cases", "big.json"], 2);
    assert!(stderr.contains("error[S605]"), "{stderr}");
    // No cases at all: said, not a pass.
    let (_, stderr) = output(&dir, &["test", "skills"], 2);
    assert!(stderr.contains("no trigger cases"), "{stderr}");
    // An unknown router: a usage error.
    write(&dir.join("ok.json"), SET);
    let (_, stderr) = output(
        &dir,
        &["test", "skills", "--cases", "ok.json", "--router", "magic"],
        2,
    );
    assert!(stderr.contains("unknown router `magic`"), "{stderr}");
}

#[test]
fn a_query_with_control_characters_prints_inert() {
    let dir = root("trigger-inert");
    write(
        &dir.join("cases.json"),
        "{\"queries\": [{\"id\": \"x\", \"text\": \"merge\\u001b[31m PDFs\\n::error::x\", \"expected_skill\": \"deploy\"}]}",
    );
    let (stdout, _) = output(&dir, &["test", "skills", "--cases", "cases.json"], 1);
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
    assert!(!stdout.contains("\n::error"), "{stdout:?}");
}

#[test]
fn route_prints_the_ranking_and_the_choice() {
    let dir = root("trigger-route");
    let (stdout, _) = output(&dir, &["route", "merge two PDFs", "skills"], 0);
    assert!(
        stdout.starts_with("1.0000  pdf\n") || stdout.contains("  pdf\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("chosen: pdf\n"), "{stdout}");
    let (stdout, _) = output(&dir, &["route", "tell me a joke", "skills"], 0);
    assert!(
        stdout.ends_with("chosen: none (no skill's confidence reaches the cut, 0.250)\n"),
        "{stdout}"
    );
    let (stdout, _) = output(&dir, &["route", "run release notes now", "skills"], 0);
    assert!(
        stdout.ends_with("chosen: release-notes (the query names it)\n"),
        "{stdout}"
    );
}

/// Our own cases over the corpus catalogue: the held-out half stays well
/// above the issue's bar (BENCHMARKS.md has the figures).
#[test]
fn our_held_out_cases_route_over_the_corpus() {
    let workspace = support::workspace();
    if !workspace.join("../shared/corpus").is_dir() {
        eprintln!("skipped: ../shared/corpus is not here");
        return;
    }
    let roots = std::fs::read_to_string(workspace.join("tests/routing/catalogue.txt")).unwrap();
    let mut args: Vec<&str> = vec!["test"];
    args.extend(roots.lines());
    args.extend([
        "--recursive",
        "--profile",
        "lenient",
        "--cases",
        "tests/routing/held-out.json",
        "--message-format",
        "json",
    ]);
    let run = support::cargo_skills_in(&workspace)
        .args(&args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let accuracy = summary["accuracy"].as_f64().unwrap();
    assert!(accuracy >= 0.85, "held-out top-1 {accuracy}");
}

/// A skill's `evals/` is one of its files (listed, checked, installed,
/// packed) but the generated tables leave it out unless the package sets
/// `embed_evals`.
#[test]
fn evals_are_left_out_of_the_generated_tables_unless_asked() {
    let dir = root("trigger-embed");
    write(&dir.join("skills/pdf/references/forms.md"), "# Forms\n");
    write(
        &dir.join("skills/pdf/evals/eval_queries.json"),
        r#"[{"query": "merge two PDFs", "should_trigger": true}]"#,
    );
    let manifest =
        "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";
    write(&dir.join("Cargo.toml"), manifest);
    write(&dir.join("src/lib.rs"), "");
    let (expanded, _) = output(&dir, &["expand"], 0);
    assert!(expanded.contains("references/forms.md"), "{expanded}");
    assert!(!expanded.contains("eval_queries.json"), "{expanded}");
    let (files, _) = output(&dir, &["show", "pdf", "--files"], 0);
    assert!(files.contains("evals/eval_queries.json"), "{files}");
    write(
        &dir.join("Cargo.toml"),
        &manifest.replace(
            "[workspace]",
            "[package.metadata.skills]\nembed_evals = true\n\n[workspace]",
        ),
    );
    let (expanded, _) = output(&dir, &["expand"], 0);
    assert!(expanded.contains("evals/eval_queries.json"), "{expanded}");
    // The writers of a skill directory carry it: install and pack.
    output(
        &dir,
        &["install", "pdf", "--to", "out", "--from", "skills"],
        0,
    );
    assert!(dir.join("out/pdf/evals/eval_queries.json").is_file());
    output(
        &dir,
        &["pack", "pdf", "--out", "zips", "--from", "skills"],
        0,
    );
    let mut zip =
        zip::ZipArchive::new(std::fs::File::open(dir.join("zips/pdf.zip")).unwrap()).unwrap();
    let names: Vec<String> = (0..zip.len())
        .map(|i| zip.by_index(i).unwrap().name().unwrap().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .any(|name| name.ends_with("evals/eval_queries.json")),
        "{names:?}"
    );
}

/// Two skills that take each other's cases get W028 at the description,
/// with the requests; a skill that wins none of its cases gets W029.
#[test]
fn descriptions_that_lose_their_cases_get_warnings_with_the_requests() {
    let dir = fresh_dir("trigger-lints");
    for (skill, description) in [
        (
            "alpha",
            "Exports quarterly finance reports as Excel spreadsheets.",
        ),
        (
            "beta",
            "Imports vendor spreadsheets into inventory reports.",
        ),
    ] {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            &format!("---\nname: {skill}\ndescription: {description}\n---\nBody.\n"),
        );
    }
    write(
        &dir.join("cases.json"),
        r#"{"queries": [
  {"id": "a", "text": "import the vendor spreadsheet into the inventory report", "expected_skill": "alpha"},
  {"id": "b", "text": "export the quarterly finance report to excel", "expected_skill": "beta"}
]}"#,
    );
    let (_, stderr) = output(&dir, &["test", "skills", "--cases", "cases.json"], 1);
    assert!(
        stderr.contains("warning[W028]: 1 of `alpha`'s cases went to `beta`: \"import the vendor spreadsheet into the inventory report\"; and 1 of `beta`'s went to `alpha`: \"export the quarterly finance report to excel\"")
            && stderr.contains("--> skills/alpha/SKILL.md:3:14"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning[W028]").count(), 1, "{stderr}");
    assert!(
        stderr.contains("warning[W029]: `beta` won none of its 1 case; lost: \"export the quarterly finance report to excel\"")
            // The help names what differs, and asks for no pasted words.
            && stderr.contains("these requests speak of \"export\", \"finance\", \"quarterly\"")
            && !stderr.contains("put the words"),
        "{stderr}"
    );
    let (stdout, _) = test_cases(&dir, "json", 1);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let codes: Vec<&str> = summary["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["W028", "W029", "W029"]);
}

/// `--message-format github`: each failing case an annotation at its line
/// in the case file, each missed gate one more; `sarif`: one log whose
/// results are the failing cases, valid against the SARIF 2.1.0 schema.
#[test]
fn failing_cases_are_github_annotations_and_sarif_results() {
    let dir = root("trigger-github");
    write(
        &dir.join("cases.json"),
        "{\"queries\": [\n  {\"id\": \"p1\", \"text\": \"merge these two PDFs into one\", \"expected_skill\": \"pdf\"},\n  {\"id\": \"p2\", \"text\": \"roll back the production release\", \"expected_skill\": \"pdf\"}\n]}",
    );
    let (stdout, _) = test_cases(&dir, "github", 1);
    assert!(
        stdout.starts_with("::error file=cases.json,line=3,col=3"),
        "{stdout}"
    );
    assert!(stdout.contains("S606"), "{stdout}");
    assert!(stdout.contains("case `p2`"), "{stdout}");
    assert!(
        stdout.contains("::error title=cargo skills test::recall of the set is 0.500"),
        "{stdout}"
    );
    let (stdout, _) = test_cases(&dir, "sarif", 1);
    let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let errors = support::sarif_schema()
        .iter_errors(&log)
        .map(|e| e.to_string())
        .collect::<Vec<_>>();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{stdout}");
    assert_eq!(results[0]["ruleId"], "S606");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        3
    );
}
