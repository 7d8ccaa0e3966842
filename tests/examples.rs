//! The bundled example skills are valid in the default profile and cover what
//! the examples must show: a plain skill, a protocol, and tools with GET (path
//! and query placeholders), POST with a JSON body, and DELETE under confirmation.

use std::path::Path;

use skills_compiler::ir::{Kind, Method, Policy};
use skills_compiler::{Config, compile};

#[test]
fn the_issue_tracker_example_is_valid_and_covers_the_format() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker");
    let compilation = compile(&base, &Config::default());
    assert!(
        compilation.diagnostics.is_empty(),
        "{:#?}",
        compilation.diagnostics
    );
    let skills = compilation.skills().unwrap();
    let names: Vec<&str> = skills.skills.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["github-issues", "triage-protocol", "writing-style"]);

    let Kind::Protocol(protocol) = &skills.get("triage-protocol").unwrap().table.kind else {
        panic!("triage-protocol is a protocol");
    };
    assert_eq!(protocol.steps.len(), 3);
    assert!(
        !protocol.on_deviation.is_empty()
            && !protocol.on_blocked.is_empty()
            && !protocol.on_already_done.is_empty()
    );
    assert_eq!(skills.get("writing-style").unwrap().table.kind, Kind::Skill);

    let tools = &skills.get("github-issues").unwrap().tools;
    let summary: Vec<(&str, Method, Policy)> = tools
        .iter()
        .map(|t| (t.name(), t.endpoint().unwrap().method, t.policy()))
        .collect();
    assert_eq!(
        summary,
        [
            ("list_issues", Method::Get, Policy::Allow),
            ("create_issue", Method::Post, Policy::Allow),
            ("delete_issue", Method::Delete, Policy::Confirm),
        ]
    );
    let list = tools[0].endpoint().unwrap();
    assert_eq!(list.origin, "https://tracker.example.com");
    assert_eq!(
        skills_core::template_params(list.path()).collect::<Vec<_>>(),
        ["repo"]
    );
    let query: Vec<&str> = list.query().iter().map(|(name, _)| name.as_ref()).collect();
    assert_eq!(query, ["state", "limit"]);
    assert!(tools[1].endpoint().unwrap().body.is_some());
}
