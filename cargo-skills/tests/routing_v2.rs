//! Routing v2 as a user meets it (issue 74): `route --explain`, the cut on
//! the command line and in the manifest, explicit invocation per host, the
//! two published `evals/evals.json` shapes, a manifest's case files, skills
//! with errors, and what bad input gets.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{fresh_dir, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A package with four skills (`rotate` hidden from the model) and
/// `[package.metadata.skills.test]` holding `test`.
fn package(name: &str, test: &str) -> PathBuf {
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
            "rotate",
            "Rotate the production database credentials.",
            "disable-model-invocation: true\n",
        ),
    ] {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            &format!("---\nname: {skill}\ndescription: {description}\n{extra}---\nBody.\n"),
        );
    }
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.skills.test]\n{test}\n\n[workspace]\n"
        ),
    );
    write(&dir.join("src/lib.rs"), "");
    dir
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap()
}

#[test]
fn explain_says_what_matched_what_no_skill_has_and_the_distance_to_the_cut() {
    let dir = package("v2-explain", "");
    let query = "hey can you deploy billing-api v3.2.1 to production? CI went green 20 min ago";
    let (stdout, _) = output(&dir, &["route", query, "--explain"], 0);
    assert!(stdout.starts_with("0."), "{stdout}");
    assert!(stdout.contains("  deploy\n"), "{stdout}");
    assert!(stdout.contains("        coverage "), "{stdout}");
    assert!(stdout.contains("deploy               name"), "{stdout}");
    assert!(
        stdout.contains("production           description"),
        "{stdout}"
    );
    // Stemmed, as the router compares them.
    assert!(
        stdout.contains(
            "words no skill has (they count neither way): ago, api, bill, ci, green, hey, min, v3, went\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("cut 0.250: the best is "), "{stdout}");
    assert!(stdout.ends_with("chosen: deploy\n"), "{stdout}");

    let (stdout, _) = output(
        &dir,
        &["route", query, "--explain", "--message-format", "json"],
        0,
    );
    let explained = json(&stdout);
    assert_eq!(explained["chosen"], "deploy");
    assert_eq!(explained["reason"], "confident");
    assert_eq!(explained["threshold"], 0.25);
    assert!(explained["margin"].as_f64().unwrap() > 0.0);
    let matched = explained["ranked"][0]["matched"].as_array().unwrap();
    assert!(
        matched
            .iter()
            .any(|m| m["word"] == "deploy" && m["field"] == "name"),
        "{matched:?}"
    );
    assert!(
        explained["unknown"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w == "bill")
    );
    // The same request without the noise: the same choice and score.
    let (bare, _) = output(
        &dir,
        &["route", "deploy to production", "--message-format", "json"],
        0,
    );
    assert_eq!(json(&bare)["ranked"][0], {
        let mut first = explained["ranked"][0].clone();
        let object = first.as_object_mut().unwrap();
        object.retain(|key, _| key == "skill" || key == "score");
        first
    });

    // A request no skill is for: why, in words.
    let (stdout, _) = output(
        &dir,
        &["route", "what's the weather in Lisbon?", "--explain"],
        0,
    );
    assert!(
        stdout.ends_with(
            "words no skill has (they count neither way): lisbon, weather\ncut 0.250: no skill shares a word with the query\nchosen: none (no skill's confidence reaches the cut, 0.250)\n"
        ),
        "{stdout}"
    );
}

#[test]
fn explain_of_a_long_request_is_bounded() {
    let dir = package("v2-explain-big", "");
    // One argument may hold 128 KiB on Linux; the library's property test
    // explains megabytes.
    let words: String = (0..12_000).map(|n| format!("w{n} pdf ")).collect();
    assert!(words.len() > 100_000);
    let (stdout, _) = output(&dir, &["route", &words, "--explain"], 0);
    assert!(stdout.len() < 4_000, "{} bytes", stdout.len());
    assert!(
        stdout.contains(", and 11980 more"),
        "{}",
        &stdout[..stdout.len().min(2_000)]
    );
}

#[test]
fn the_cut_comes_from_the_flag_then_the_manifest_and_bad_ones_exit_2() {
    let dir = package("v2-threshold", "threshold = 0.95");
    write(
        &dir.join("cases.json"),
        r#"{"queries": [{"id": "a", "text": "merge these two PDFs into one", "expected_skill": "pdf"}]}"#,
    );
    // The manifest's cut: nothing reaches 0.95.
    let (stdout, _) = output(&dir, &["test", "--cases", "cases.json"], 1);
    assert!(stdout.contains("cut: 0.950"), "{stdout}");
    assert!(
        stdout.contains("FAIL a \"merge these two PDFs into one\" -> no skill"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 failure abstained with the right skill ranked first"),
        "{stdout}"
    );
    // The flag wins.
    let (stdout, _) = output(
        &dir,
        &["test", "--cases", "cases.json", "--threshold", "0.1"],
        0,
    );
    assert!(stdout.contains("cut: 0.100"), "{stdout}");
    let (stdout, _) = output(
        &dir,
        &["test", "--cases", "cases.json", "--message-format", "json"],
        1,
    );
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["threshold"], 0.95);
    assert_eq!(summary["top1"], 1.0);
    assert_eq!(summary["abstained_ranked_first"], 1);
    // Outside [0, 1]: refused, nothing routed.
    for bad in ["1.5", "-0.1", "NaN", "high"] {
        let flag = format!("--threshold={bad}");
        let (_, stderr) = output(&dir, &["route", "merge PDFs", &flag], 2);
        assert!(stderr.contains("between 0 and 1"), "{bad}: {stderr}");
    }
    write(
        &dir.join("Cargo.toml"),
        "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.skills.test]\nthreshold = 2.0\n\n[workspace]\n",
    );
    let (_, stderr) = output(&dir, &["test", "--cases", "cases.json"], 2);
    assert!(
        stderr.contains("Cargo.toml:7:13:") && stderr.contains("2 is not a share between 0 and 1"),
        "{stderr}"
    );
}

#[test]
fn a_skill_is_invoked_as_each_host_invokes_it() {
    let dir = package("v2-invoke", "");
    write(
        &dir.join("cases.json"),
        r#"{"queries": [
  {"id": "slash", "text": "/rotate the staging keys", "expected_skill": "rotate"},
  {"id": "dollar", "text": "$rotate the staging keys", "expected_skill": "rotate"},
  {"id": "implicit", "text": "rotate the production database credentials", "expected_skill": "rotate"}
]}"#,
    );
    let chosen = |host: &str, code: i32| -> Vec<Value> {
        let (stdout, _) = output(
            &dir,
            &[
                "test",
                "--cases",
                "cases.json",
                "--host",
                host,
                "--message-format",
                "json",
            ],
            code,
        );
        stdout
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|line| line["type"] == "case")
            .map(|line| line["chosen"].clone())
            .collect()
    };
    let rotate = Value::from("rotate");
    // Claude Code and Zed: `/NAME`; the Agent Skills guide: none. A skill
    // hidden from the model is never chosen without it.
    assert_eq!(
        chosen("claude-code", 1),
        [rotate.clone(), Value::Null, Value::Null]
    );
    assert_eq!(chosen("zed", 1), [rotate.clone(), Value::Null, Value::Null]);
    // Codex and the Agent Skills guide list every skill (neither has
    // `disable-model-invocation`); Codex invokes with `$NAME`.
    assert_eq!(chosen("codex", 0), [rotate.clone(), rotate.clone(), rotate]);
    let reason = |host: &str, query: &str| {
        let (stdout, _) = output(
            &dir,
            &["route", query, "--host", host, "--message-format", "json"],
            0,
        );
        json(&stdout)["reason"].clone()
    };
    assert_eq!(reason("codex", "$deploy it"), "invoked");
    assert_eq!(reason("codex", "/deploy it"), "confident");
    assert_eq!(reason("claude-code", "/deploy it"), "invoked");
    assert_eq!(reason("claude-code", "$deploy it"), "confident");
    assert_eq!(reason("agent-skills", "/deploy it"), "confident");
    assert_eq!(reason("agent-skills", "$deploy it"), "confident");
    let (stdout, _) = output(&dir, &["route", "/pdf merge these"], 0);
    assert!(
        stdout.ends_with("chosen: pdf (the query invokes it)\n"),
        "{stdout}"
    );
}

#[test]
fn both_published_evals_json_shapes_are_read_as_published() {
    let dir = package(
        "v2-evals",
        "per_skill = false\nrecall = 0\naccuracy = 0\nmisroute = 1",
    );
    // A publisher's array, extra keys and all; the same ids as the other file.
    write(
        &dir.join("skills/pdf/evals/evals.json"),
        r#"[
  {"id": "one", "question": "merge these two PDFs into one", "expected_skill": "pdf",
   "expected_script": null, "ground_truth": "...", "expected_behavior": ["merges"]},
  {"id": "two", "question": "tell me a joke", "expected_skill": null, "should_trigger": false},
  {"id": "three", "question": "write release notes or merge a PDF", "expected_skill": null,
   "acceptable_skills": ["release-notes", "pdf"]},
  {"id": "four", "question": "roll back the production deploy", "expected_skill": "pdf", "should_trigger": false}
]"#,
    );
    // The spec's shape: each prompt a should-trigger case of `skill_name`.
    write(
        &dir.join("skills/deploy/evals/evals.json"),
        r#"{"skill_name": "deploy", "evals": [
  {"id": "one", "prompt": "roll back yesterday's production deploy", "expected_output": "rolled back",
   "files": [], "assertions": ["it rolls back"]},
  {"id": "two", "prompt": "deploy the app to staging", "expected_output": "deployed",
   "expectations": ["it deploys"]}
]}"#,
    );
    let (stdout, stderr) = output(&dir, &["test", "--message-format", "json"], 0);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cases: Vec<(&str, &Value, bool)> = lines
        .iter()
        .filter(|l| l["type"] == "case")
        .map(|l| {
            (
                l["id"].as_str().unwrap(),
                &l["chosen"],
                l["pass"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(cases.len(), 6, "{stdout}\n{stderr}");
    assert!(cases.iter().all(|(_, _, pass)| *pass), "{stdout}");
    // Ids repeat across files, not within one: a case is known by both.
    assert_eq!(cases.iter().filter(|(id, _, _)| *id == "one").count(), 2);
    let files: Vec<&str> = lines
        .iter()
        .filter(|l| l["type"] == "case" && l["id"] == "one")
        .map(|l| l["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "skills/deploy/evals/evals.json",
            "skills/pdf/evals/evals.json"
        ]
    );

    // A shape that is almost one of them: located, exit 2, nothing counted.
    write(
        &dir.join("skills/deploy/evals/evals.json"),
        r#"{"skill": "deploy", "cases": [{"prompt": "deploy it"}]}"#,
    );
    let (stdout, stderr) = output(&dir, &["test"], 2);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("error[S602]") && stderr.contains("skills/deploy/evals/evals.json:1:1"),
        "{stderr}"
    );
    // One file, one id twice: S604.
    write(
        &dir.join("skills/deploy/evals/evals.json"),
        r#"{"skill_name": "deploy", "evals": [{"id": "x", "prompt": "deploy"}, {"id": "x", "prompt": "ship"}]}"#,
    );
    let (_, stderr) = output(&dir, &["test"], 2);
    assert!(
        stderr.contains("error[S604]: two cases have the id `x`"),
        "{stderr}"
    );
}

#[test]
fn the_manifest_names_the_case_files_so_ci_needs_no_flag() {
    let dir = package("v2-manifest-cases", "cases = [\"tests/cases.json\"]");
    write(
        &dir.join("tests/cases.json"),
        r#"{"queries": [{"id": "a", "text": "merge these two PDFs into one", "expected_skill": "pdf"}]}"#,
    );
    let (stdout, _) = output(&dir, &["test"], 0);
    assert!(stdout.contains("(1 of 1 cases passed)"), "{stdout}");
    // Read from the package wherever the command runs.
    std::fs::create_dir_all(dir.join("src/deep")).unwrap();
    let (stdout, _) = output(&dir.join("src/deep"), &["test"], 0);
    assert!(stdout.contains("(1 of 1 cases passed)"), "{stdout}");
}

#[test]
fn a_case_for_a_skill_with_errors_fails_with_the_reason_and_the_run_goes_on() {
    let dir = package(
        "v2-left-out",
        "per_skill = false\nrecall = 0\naccuracy = 0\nmisroute = 1",
    );
    write(
        &dir.join("skills/incident-triage/SKILL.md"),
        "---\nname: incident-triage\ndescription: [unclosed\n---\nBody.\n",
    );
    write(
        &dir.join("cases.json"),
        r#"{"queries": [
  {"id": "a", "text": "triage the incident on the payments pager", "expected_skill": "incident-triage"},
  {"id": "b", "text": "another incident to triage", "expected_skill": "incident-triage"},
  {"id": "c", "text": "merge these two PDFs into one", "expected_skill": "pdf"},
  {"id": "d", "text": "anything", "expected_skill": "incident-triag"}
]}"#,
    );
    // A name the set does not have at all is S603 with did-you-mean: exit 2.
    let (_, stderr) = output(&dir, &["test", "--cases", "cases.json"], 2);
    assert!(
        stderr.contains("error[S603]") && stderr.contains("did you mean `incident-triage`?"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(dir.join("cases.json")).unwrap();
    let without = text.replace(
        ",\n  {\"id\": \"d\", \"text\": \"anything\", \"expected_skill\": \"incident-triag\"}",
        "",
    );
    write(&dir.join("cases.json"), &without);
    let (stdout, stderr) = output(&dir, &["test", "--cases", "cases.json"], 1);
    assert_eq!(stderr.matches("error[S607]").count(), 1, "{stderr}");
    assert!(
        stderr.contains("`incident-triage` has errors (S0")
            && stderr.contains("is left out of the catalogue: its cases fail")
            && stderr.contains("`cargo skills check`"),
        "{stderr}"
    );
    assert!(
        stdout.contains("FAIL a \"triage the incident on the payments pager\" -> no skill (it has errors: left out of the catalogue)"),
        "{stdout}"
    );
    // The rest of the run went on.
    assert!(stdout.contains("(1 of 3 cases passed)"), "{stdout}");
}

#[test]
fn a_key_that_is_read_and_changes_nothing_is_a_located_warning() {
    let dir = package("v2-no-effect", "");
    write(
        &dir.join("aigent-tests.yml"),
        "queries:\n  - input: merge these two PDFs into one\n    should_match: true\n    min_score: 0.7\n  - input: split this PDF file\n    should_match: true\n    min_score: 0.9\n",
    );
    write(
        &dir.join("skills/deploy/eval.yaml"),
        "should_trigger_prompts:\n  - prompt: roll back the production deploy\n    reason: rollback\n    confidence: high\n",
    );
    let (_, stderr) = output(
        &dir,
        &[
            "test",
            "--cases",
            "pdf=aigent-tests.yml",
            "--cases",
            "skills/deploy/eval.yaml",
        ],
        0,
    );
    // Once a file, at the key, and the run goes on.
    assert_eq!(stderr.matches("warning[W030]").count(), 2, "{stderr}");
    assert!(
        stderr.contains("warning[W030]: `min_score` (aigent's per-case score) is read and changes nothing: the case is judged by the skill chosen")
            && stderr.contains("--> aigent-tests.yml:4:5"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`confidence` (waza's expected confidence)")
            && stderr.contains("--> skills/deploy/eval.yaml:4:5"),
        "{stderr}"
    );
}
