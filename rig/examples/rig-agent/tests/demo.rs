//! The rig agent's whole loop (issue 42): load a skill, read a reference,
//! run a script, call an HTTP tool against a real local server, answer;
//! what the model received at each step, as Anthropic would have received it.

use std::sync::{Arc, Mutex};

use rig_agent_example::{demo, tool_results};
use serde_json::Value;

#[tokio::test]
async fn the_agent_loads_reads_runs_and_calls_as_the_model_asks() {
    let approved = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&approved);
    let done = demo(move |run| record.lock().unwrap().push(run.to_owned()))
        .await
        .unwrap();
    assert_eq!(done.requests.len(), 5, "one request per turn");

    // Turn 1: the catalog in the system prompt, every tool offered.
    let first = &done.requests[0];
    let system = first["system"].to_string();
    assert!(system.contains("You are a release assistant."), "{system}");
    assert!(system.contains("- release: Prepares a release"), "{system}");
    assert!(
        system.contains("- tracker: Reads the issue tracker"),
        "{system}"
    );
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "load_skill",
            "read_skill_resource",
            "run_skill_script",
            "list_issues"
        ]
    );
    let load = first["tools"][0]["input_schema"]["properties"]["name"]["enum"].clone();
    assert_eq!(load, serde_json::json!(["release", "tracker"]));

    // What each tool call returned, as the next request carries it.
    let result = |turn: usize| -> (String, String, bool) {
        let results = tool_results(&done.requests[turn]);
        assert_eq!(results.len(), 1, "turn {turn}: {results:?}");
        results.into_iter().next().unwrap()
    };
    let (id, skill, error) = result(1);
    assert_eq!((id.as_str(), error), ("toolu_1", false));
    assert!(
        skill.contains("Run `scripts/next_version.py <current> <bump>`"),
        "{skill}"
    );
    assert!(
        skill.contains("- scripts/next_version.py ("),
        "the file list: {skill}"
    );

    let (_, policy, error) = result(2);
    assert!(!error);
    assert!(policy.starts_with("# Version policy"), "{policy}");

    let (_, ran, error) = result(3);
    assert!(!error, "{ran}");
    let ran: Value = serde_json::from_str(&ran).unwrap();
    assert_eq!(ran["exit_code"], 0);
    assert_eq!(ran["stdout"], "1.5.0\n");
    assert_eq!(
        *approved.lock().unwrap(),
        [r#"release scripts/next_version.py ["1.4.2", "minor"]"#]
    );

    let (_, issues, error) = result(4);
    assert!(!error, "{issues}");
    let issues: Value = serde_json::from_str(&issues).unwrap();
    assert_eq!(issues[0]["labels"][0], "blocker");
    assert_eq!(
        done.tracker,
        ["GET /api/repos/acme%2Fapp/issues?state=open HTTP/1.1"]
    );

    assert!(
        done.answer.starts_with("The next version is 1.5.0."),
        "{}",
        done.answer
    );
}
