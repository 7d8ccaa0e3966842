//! The example binary as an MCP host starts it: over its stdio.

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;

mod agent {
    skills::include_skills!("../issue-tracker/skills", track = false);
}

#[tokio::test]
async fn the_binary_serves_its_compiled_skills_with_their_build_time_digests() {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"));
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "create_issue"));
    let skills = client.list_all_skills().await.unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s.name()).collect();
    assert_eq!(names, agent::SKILLS.names().collect::<Vec<_>>());
    for (served, compiled) in skills.iter().zip(agent::SKILLS.iter()) {
        let entry = serde_json::to_value(served).unwrap();
        assert_eq!(
            entry["resources"][0]["digest"],
            format!("sha256:{}", compiled.sha256_hex())
        );
    }
    client.cancel().await.unwrap();
}
