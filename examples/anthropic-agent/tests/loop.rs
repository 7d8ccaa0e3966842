//! The whole loop against the recorded Messages API on loopback, with a real
//! HTTP client: what the agent sent each turn, and what it printed.

use anthropic_agent::{Model, SKILLS, mock, run};
use issue_agent::server::Server;
use serde_json::Value;

#[test]
fn the_loop_loads_the_skill_reads_a_file_calls_a_tool_and_answers() {
    let tracker = Server::start().unwrap();
    let mock = mock::Mock::start(mock::recorded()).unwrap();
    let model = Model {
        base_url: mock.origin.clone(),
        api_key: "recorded".to_owned(),
        model: "claude-recorded".to_owned(),
    };
    let mut out = Vec::new();
    let answer = run(
        &model,
        Some(&tracker.origin()),
        "Which issues are open?",
        &mut out,
    )
    .unwrap();
    assert_eq!(
        answer,
        "acme/app has open issues; new bugs get the `bug` label."
    );
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("tool: load_skill {\"name\":\"tracker\"}\n  -> SKILL: tracker\n"),
        "{out}"
    );
    assert!(out.contains("tool: read_skill_resource"), "{out}");
    assert!(out.contains("  -> # Labels\n"), "{out}");
    assert!(
        out.contains("tool: list_issues {\"repo\":\"acme/app\"}\n  -> 200 "),
        "{out}"
    );

    let sent = mock.received();
    assert_eq!(sent.len(), 4);
    // Every request carries the toolset: its instructions and its tools.
    let toolset = skills::Toolset::new(&SKILLS);
    for request in &sent {
        assert_eq!(request["system"], toolset.instructions());
        assert_eq!(
            request["tools"],
            toolset.definitions(skills::model::Provider::Anthropic)
        );
    }
    // Each result quotes its call's id; the load gives the rendered skill.
    let result = |turn: usize| -> &Value {
        &sent[turn]["messages"].as_array().unwrap().last().unwrap()["content"][0]
    };
    assert_eq!(result(1)["tool_use_id"], "toolu_01");
    assert!(
        result(1)["content"]
            .as_str()
            .unwrap()
            .starts_with(SKILLS.get("tracker").unwrap().rendered())
    );
    assert_eq!(result(2)["tool_use_id"], "toolu_02");
    assert_eq!(
        result(2)["content"],
        SKILLS
            .get("tracker")
            .unwrap()
            .file("references/labels.md")
            .unwrap()
            .text()
            .unwrap()
    );
    assert_eq!(result(3)["tool_use_id"], "toolu_03");
    assert!(
        result(3)["content"].as_str().unwrap().starts_with("200 "),
        "{}",
        result(3)
    );
    // The tracker saw the one HTTP call.
    assert_eq!(tracker.requests().len(), 1);
}

/// The binary runs the same loop with `--mock`, as the README shows.
#[test]
fn the_binary_runs_against_the_recorded_api() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_anthropic-agent"))
        .arg("--mock")
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.starts_with("user: "), "{out}");
    assert!(
        out.ends_with("model: acme/app has open issues; new bugs get the `bug` label.\n"),
        "{out}"
    );
}
