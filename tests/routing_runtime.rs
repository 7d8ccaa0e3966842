//! Run-time routing (issue 74, item 8): `SkillSet::route` reads each
//! skill's body as well, `route_listing` reads what a host lists and gives
//! the scores `cargo skills test` gives for the same text, to the last
//! digit, and a routed toolset for small talk is empty, not an error.

use std::path::{Path, PathBuf};

use skills::Toolset;
use skills::loader::Loader;
use skills_compiler::ops::budget::Budget;
use skills_compiler::ops::trigger::Catalogue;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Three skills whose descriptions say little, and whose bodies say more.
fn root(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for (skill, description, body) in [
        (
            "invoices",
            "Billing helpers for the finance team.",
            "# Refunds\n\nIssue a refund through Stripe, then email the receipt.\n",
        ),
        (
            "oncall",
            "Runbooks for the platform team.",
            "# Paging\n\nAcknowledge the PagerDuty alert, then open an incident channel.\n",
        ),
        (
            "release",
            "Cut a release of the mobile app.",
            "# TestFlight\n\nUpload the build to TestFlight and notify the beta testers.\n",
        ),
    ] {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            &format!("---\nname: {skill}\ndescription: {description}\n---\n{body}"),
        );
    }
    dir
}

#[test]
fn run_time_routing_reads_the_body_and_the_listing_only_router_is_one_call_away() {
    let dir = root("runtime-route-body");
    let loaded = Loader::new().load(dir.join("skills")).unwrap();
    let set = loaded.set();
    // Only the body says "refund" and "PagerDuty".
    assert_eq!(
        set.route("refund this customer through stripe").top(1)[0].skill,
        "invoices"
    );
    assert_eq!(
        set.route("ack the pagerduty alert").top(1)[0].skill,
        "oncall"
    );
    assert!(
        set.route_listing("refund this customer through stripe")
            .ranked
            .is_empty()
    );
}

#[test]
fn the_listing_router_and_the_trigger_tests_agree_to_the_last_digit() {
    let dir = root("runtime-route-agree");
    let loaded = Loader::new().load(dir.join("skills")).unwrap();
    let set = loaded.set();
    let pairs: Vec<(&str, &str)> = set.iter().map(|s| (s.name(), s.description())).collect();
    // Claude Code lists these short descriptions whole: the same text.
    let catalogue = Catalogue::from_entries(Budget::ClaudeCode, &pairs);
    let offline = catalogue.router();
    for query in [
        "cut a release of the mobile app",
        "billing for finance",
        "platform runbooks please",
        "nothing here matches",
    ] {
        let runtime = set.route_listing(query);
        let test = offline.route(query);
        assert_eq!(runtime.ranked, test.ranked, "{query}");
        assert_eq!(runtime.chosen(), test.chosen(), "{query}");
    }
}

#[test]
fn a_routed_toolset_for_small_talk_is_empty_and_the_loop_goes_on() {
    let dir = root("runtime-route-empty");
    let loaded = Loader::new().load(dir.join("skills")).unwrap();
    let set = loaded.set();
    let toolset = Toolset::new(set).routed("lol ok, thanks!", 3);
    assert!(toolset.skills().is_empty());
    let toolset = Toolset::new(set).routed("upload the build to testflight", 2);
    assert_eq!(toolset.skills().names().next(), Some("release"));
}
