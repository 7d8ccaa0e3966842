//! The offline router's promises: the same ranking whatever the catalogue's
//! order, ties broken by name, a skill named in the query chosen, no skill
//! for a request no skill is for, and no panic on any text.

use proptest::prelude::*;
use skills_core::route::{Doc, Router};

fn catalogue() -> Vec<(String, String)> {
    [
        (
            "pdf",
            "Fill in PDF forms, merge PDF files and extract their text.",
        ),
        (
            "release-notes",
            "Write release notes from the pull requests merged since the last tag.",
        ),
        (
            "deploy",
            "Deploy the app to staging or production and roll back a bad release.",
        ),
        (
            "slack-digest",
            "Summarise the unread messages of your Slack channels.",
        ),
        (
            "sql-review",
            "Review SQL migrations for locking, missing indexes and data loss.",
        ),
    ]
    .iter()
    .map(|(n, d)| ((*n).to_owned(), (*d).to_owned()))
    .collect()
}

fn router(entries: &[(String, String)]) -> Router {
    let docs: Vec<Doc<'_>> = entries.iter().map(|(n, t)| Doc::new(n, t)).collect();
    Router::new(&docs)
}

#[test]
fn requests_go_to_their_skill_and_others_to_none() {
    let router = router(&catalogue());
    for (query, expected) in [
        ("merge these two PDFs into one file", Some("pdf")),
        ("write the release notes for v2.3", Some("release-notes")),
        ("roll back yesterday's production deploy", Some("deploy")),
        (
            "does this migration lock the users table?",
            Some("sql-review"),
        ),
        ("what's the weather in Lisbon tomorrow?", None),
        ("tell me a joke about cats", None),
    ] {
        assert_eq!(router.route(query).chosen(), expected, "{query}");
    }
}

#[test]
fn a_skill_the_query_names_is_chosen() {
    let router = router(&catalogue());
    let ranked = router.route("use slack digest on the weather channel");
    assert_eq!(ranked.chosen(), Some("slack-digest"));
    assert_eq!(ranked.reason(), Some(skills_core::route::Reason::Named));
}

#[test]
fn ties_are_broken_by_name() {
    let same = "Convert spreadsheets to charts.".to_owned();
    let entries = vec![
        ("zeta".to_owned(), same.clone()),
        ("alpha".to_owned(), same.clone()),
        ("mid".to_owned(), same),
    ];
    // Words every skill has say little about which one fits: the cut is
    // lowered so that the tie itself decides.
    let ranked = router(&entries)
        .threshold(0.0)
        .route("convert this spreadsheet to a chart");
    let order: Vec<&str> = ranked.ranked.iter().map(|s| s.skill.as_str()).collect();
    assert_eq!(order, ["alpha", "mid", "zeta"]);
    assert_eq!(ranked.chosen(), Some("alpha"));
}

proptest! {
    /// The catalogue's order changes nothing: the ranking is a function of
    /// the entries.
    #[test]
    fn the_ranking_does_not_depend_on_the_catalogues_order(
        rotation in 0usize..5,
        query in "[a-zA-Z ]{0,60}",
    ) {
        let mut entries = catalogue();
        let first = router(&entries).route(&query);
        entries.rotate_left(rotation);
        entries.reverse();
        let again = router(&entries).route(&query);
        prop_assert_eq!(first, again);
    }

    /// Any text, in the catalogue or the query (CJK, control characters,
    /// combining marks, emoji): a ranking, scores between 0 and 1, sorted.
    #[test]
    fn any_text_routes_without_a_panic(
        names in prop::collection::vec("\\PC{1,12}", 1..6),
        texts in prop::collection::vec("\\PC{0,80}", 6),
        query in "\\PC{0,120}",
    ) {
        let entries: Vec<(String, String)> = names
            .iter()
            .zip(&texts)
            .map(|(n, t)| (n.clone(), t.clone()))
            .collect();
        let ranked = router(&entries).route(&query);
        for scored in &ranked.ranked {
            prop_assert!((0.0..=1.0).contains(&scored.score), "{}", scored.score);
        }
        prop_assert!(ranked.ranked.windows(2).all(|w| w[0].score >= w[1].score));
        if let Some(chosen) = ranked.chosen() {
            prop_assert_eq!(chosen, ranked.ranked[0].skill.as_str());
        }
    }
}

/// Words a real request carries that no skill has: service names,
/// versions, ticket ids, times.
const NOISE: &[&str] = &[
    "billing-api",
    "v3.2.1",
    "JIRA-4412",
    "zzzz",
    "20min",
    "prod-eu-7",
    "kthxbye",
    "Grüße",
    "晚上",
];

proptest! {
    /// A word no skill has changes nothing: not the choice, not a score.
    #[test]
    fn a_word_no_skill_has_never_moves_the_choice(
        query in "(merge|PDF|release|notes|deploy|roll|back|production|SQL|locking|Slack|unread|tag|the|a) ?{1,8}",
        noise in prop::collection::vec(0..NOISE.len(), 0..6),
        at in 0usize..8,
    ) {
        let router = router(&catalogue());
        let plain = router.route(&query);
        let mut words: Vec<&str> = query.split(' ').collect();
        for (n, pick) in noise.iter().enumerate() {
            words.insert((at + n).min(words.len()), NOISE[*pick]);
        }
        let noisy = router.route(&words.join(" "));
        prop_assert_eq!(plain.chosen(), noisy.chosen());
        prop_assert_eq!(plain.ranked, noisy.ranked);
    }

    /// Explaining is routing: the same ranking and choice, the matched
    /// shares of the best skill summing to its coverage, and never more
    /// than the cap of words listed however long the request.
    #[test]
    fn an_explanation_is_the_routes_and_bounded(query in "\\PC{0,200}", repeat in 1usize..50) {
        let router = router(&catalogue());
        let long = query.repeat(repeat);
        let explained = router.explain(&long, 3);
        prop_assert_eq!(&explained.ranked, &router.route(&long));
        prop_assert!(explained.unknown.len() <= skills_core::route::MAX_WORDS);
        for why in &explained.top {
            prop_assert!(why.matched.len() <= skills_core::route::MAX_WORDS);
            prop_assert!((0.0..=1.0).contains(&why.evidence));
        }
    }
}

#[test]
fn the_cases_of_the_issue_choose_with_noise_as_without() {
    let router = router(&catalogue());
    let bare = router.route("deploy");
    let noisy = router.route("deploy zzzz yyyy");
    assert_eq!(bare.chosen(), Some("deploy"));
    assert_eq!(noisy.chosen(), Some("deploy"));
    assert_eq!(bare.ranked, noisy.ranked);
    // A request as users type it: a service, a version, a time.
    let messy = router
        .route("hey can you deploy billing-api v3.2.1 out to production? CI went green 20 min ago");
    assert_eq!(messy.chosen(), Some("deploy"));
}

#[test]
fn a_skill_is_invoked_by_the_hosts_sigil_hidden_or_not() {
    let entries = catalogue();
    let docs: Vec<Doc<'_>> = entries.iter().map(|(n, t)| Doc::new(n, t)).collect();
    let claude = Router::new(&docs).invoked_by(&['/'], &["rotate-keys"]);
    let ranked = claude.route("/rotate-keys for the staging db");
    assert_eq!(ranked.chosen(), Some("rotate-keys"));
    assert_eq!(ranked.reason(), Some(skills_core::route::Reason::Invoked));
    assert_eq!(claude.route("/pdf").chosen(), Some("pdf"));
    // Another host's sigil invokes nothing, and a path is not a name.
    assert_eq!(claude.route("$rotate-keys now").chosen(), None);
    assert_ne!(
        claude.route("/etc/hosts is broken").reason(),
        Some(skills_core::route::Reason::Invoked)
    );
    let codex = Router::new(&docs).invoked_by(&['$'], &["rotate-keys"]);
    assert_eq!(codex.route("$rotate-keys").chosen(), Some("rotate-keys"));
    // Never chosen unless invoked.
    assert_eq!(codex.route("rotate keys").chosen(), None);
}

#[test]
fn the_cut_decides_and_is_reported() {
    let router = router(&catalogue());
    let query = "merge these two PDFs into one file";
    let score = router.route(query).ranked[0].score;
    assert!(score > 0.25 && score < 1.0, "{score}");
    let above = router.clone().threshold(score - 0.01).route(query);
    let below = router.clone().threshold(score + 0.01).route(query);
    assert_eq!(above.chosen(), Some("pdf"));
    assert_eq!(below.chosen(), None);
    assert_eq!(below.threshold, Some(score + 0.01));
}

#[test]
fn a_one_megabyte_request_is_explained_in_a_few_lines() {
    let router = router(&catalogue());
    let query: String = (0..100_000).map(|n| format!("w{n} pdf ")).collect();
    assert!(query.len() > 1_000_000);
    let explained = router.explain(&query, 3);
    assert_eq!(explained.ranked.chosen(), Some("pdf"));
    assert_eq!(explained.unknown.len(), skills_core::route::MAX_WORDS);
    assert_eq!(explained.unknown_count, 100_000);
    assert!(
        explained
            .top
            .iter()
            .all(|why| why.matched.len() <= skills_core::route::MAX_WORDS)
    );
}
