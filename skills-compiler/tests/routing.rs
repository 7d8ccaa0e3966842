//! Trigger tests' rules: the router reads what the host lists (cut where it
//! cuts, hidden skills left out), and the figures and gates of a run.
// Trigger tests are built only with `ops` (the macro does not compile them).
#![cfg(feature = "ops")]

mod support;

use skills_compiler::ops::budget::Budget;
use skills_compiler::ops::trigger::cases::{Case, Expected};
use skills_compiler::ops::trigger::{Catalogue, Gates, evaluate};
use support::{Tree, lenient};

fn case(id: &str, query: &str, expected: Expected) -> Case {
    Case {
        id: id.to_owned(),
        query: query.to_owned(),
        expected,
        file: "cases.json".to_owned(),
        span: None,
    }
}

fn skill(name: &str) -> Expected {
    Expected::Skill {
        name: name.to_owned(),
        acceptable: Vec::new(),
    }
}

/// Claude Code lists a description with its `when_to_use` cut at 1,536
/// characters: a case whose words sit past the cut cannot find the skill,
/// one whose words sit before it can.
#[test]
fn a_case_whose_words_sit_past_the_hosts_cut_fails() {
    let filler = "Handles the quarterly ledger reconciliation workflow. ".repeat(18);
    let tree = Tree::new(&[
        (
            "skills/ledger/SKILL.md",
            format!(
                "---\nname: ledger\ndescription: {}\nwhen_to_use: {} Also for zanzibar kumquat exports.\n---\nBody.\n",
                filler.trim_end(),
                filler.trim_end()
            )
            .as_bytes(),
        ),
        (
            "skills/notes/SKILL.md",
            b"---\nname: notes\ndescription: Takes meeting notes and writes summaries.\n---\nBody.\n",
        ),
    ]);
    let compilation = tree.compile(&lenient());
    let skills = compilation.skills().expect("valid").skills.clone();
    let skills: Vec<_> = skills.iter().map(|s| (**s).clone()).collect();
    let catalogue = Catalogue::of(Budget::ClaudeCode, &skills);
    let listed = catalogue.text("ledger").unwrap();
    assert!(
        listed.chars().count() < 1_600 && !listed.contains("zanzibar"),
        "{listed}"
    );
    let router = catalogue.router();
    assert_eq!(router.route("zanzibar kumquat exports").chosen(), None);
    assert_eq!(
        router.route("quarterly ledger reconciliation").chosen(),
        Some("ledger")
    );
    // Codex lists the description alone (no `when_to_use`): the same.
    let codex = Catalogue::of(Budget::Codex, &skills).router();
    assert_eq!(codex.route("zanzibar kumquat exports").chosen(), None);
}

#[test]
fn a_skill_that_opts_out_of_implicit_invocation_is_not_listed() {
    let tree = Tree::new(&[(
        "skills/rotate/SKILL.md",
        b"---\nname: rotate\ndescription: Rotates the production database credentials.\ndisable-model-invocation: true\n---\nBody.\n",
    )]);
    let compilation = tree.compile(&lenient());
    let skills: Vec<_> = compilation
        .skills()
        .unwrap()
        .skills
        .iter()
        .map(|s| (**s).clone())
        .collect();
    let claude = Catalogue::of(Budget::ClaudeCode, &skills);
    assert_eq!(claude.names().count(), 0);
    assert_eq!(claude.hidden, ["rotate"]);
    // Codex does not read the key: it lists the skill.
    assert_eq!(
        Catalogue::of(Budget::Codex, &skills)
            .names()
            .collect::<Vec<_>>(),
        ["rotate"]
    );
}

/// A skill whose should-trigger cases mostly fail fails the run, even when
/// the set's figures clear every gate; the pair that takes its cases is
/// named; precision, recall and F1 are each skill's own.
#[test]
fn a_skill_that_loses_its_cases_fails_the_run_though_the_set_passes() {
    let catalogue = Catalogue::from_entries(
        Budget::ClaudeCode,
        &[
            (
                "pdf",
                "Fill in PDF forms, merge PDF files and extract their text.",
            ),
            (
                "deploy",
                "Deploy the app to staging or production and roll back a bad release.",
            ),
            (
                "release-notes",
                "Write release notes from the pull requests merged since the last tag.",
            ),
        ],
    );
    let router = catalogue.router();
    let mut cases: Vec<Case> = (0..10)
        .map(|i| case(&format!("p{i}"), "merge these PDF files", skill("pdf")))
        .collect();
    cases.push(case(
        "r1",
        "roll back the production release",
        skill("release-notes"),
    ));
    cases.push(case("r2", "write release notes", skill("release-notes")));
    cases.push(case(
        "n1",
        "tell me a joke",
        Expected::Nothing { acceptable: vec![] },
    ));
    let routed = |query: &str| Ok::<_, ()>(router.route(query));
    let report = evaluate(&cases, routed, 1, &Gates::default()).unwrap();
    let summary = &report.summary;
    assert_eq!(summary.cases, 13);
    assert_eq!(summary.passed, 12);
    assert!(
        summary.accuracy > 0.9 && summary.misroute < 0.1,
        "{summary:?}"
    );
    let set_failures: Vec<_> = summary
        .failures
        .iter()
        .filter(|f| f.skill.is_none())
        .collect();
    assert!(set_failures.is_empty(), "{set_failures:?}");
    let gates: Vec<(&str, &str)> = summary
        .failures
        .iter()
        .map(|f| (f.skill.as_deref().unwrap(), f.gate))
        .collect();
    assert_eq!(
        gates,
        [
            ("release-notes", "recall"),
            ("release-notes", "accuracy"),
            ("release-notes", "misroute")
        ]
    );
    assert_eq!(summary.attractors.len(), 1);
    assert_eq!(summary.attractors[0].expected, "release-notes");
    assert_eq!(summary.attractors[0].chosen, "deploy");
    let figures = |name: &str| summary.skills.iter().find(|s| s.skill == name).unwrap();
    assert_eq!(
        (figures("pdf").precision, figures("pdf").recall),
        (1.0, 1.0)
    );
    assert_eq!(figures("release-notes").recall, 0.5);
    assert_eq!(figures("deploy").precision, 0.0);
    assert_eq!(figures("deploy").taken, 1);
    // Without per-skill gates, the set's figures decide.
    let lenient_gates = Gates {
        per_skill: false,
        ..Gates::default()
    };
    let report = evaluate(&cases, routed, 1, &lenient_gates).unwrap();
    assert!(report.summary.failures.is_empty());
}

/// Several runs: a case passes when at least half of them choose right; a
/// router's error stops the run and is never a routing failure.
#[test]
fn runs_vote_and_a_router_error_stops_the_run() {
    let cases = vec![case("a", "q", skill("pdf"))];
    let mut turn = 0;
    let flaky = |_: &str| {
        turn += 1;
        Ok::<_, ()>(skills_core::route::Ranked::only(if turn % 3 == 0 {
            None
        } else {
            Some("pdf")
        }))
    };
    let report = evaluate(&cases, flaky, 3, &Gates::default()).unwrap();
    assert_eq!(
        report.outcomes[0].runs,
        [Some("pdf".to_owned()), Some("pdf".to_owned()), None]
    );
    assert!(report.outcomes[0].pass);
    let failing = |_: &str| Err::<skills_core::route::Ranked, _>("429 Too Many Requests");
    assert_eq!(
        evaluate(&cases, failing, 3, &Gates::default()).unwrap_err(),
        "429 Too Many Requests"
    );
}
