//! A rig agent built from compiled skills: `release` (a reference and a
//! script) and `tracker` (an HTTP tool). `skills_rig` gives the agent its
//! tools and the catalog in one call; the model here is scripted (rig's
//! Anthropic provider replaying recorded responses,
//! [`skills_rig::scripted`]), the HTTP tool goes to a real local server
//! ([`tracker`]), and the script runs as a real process with the host's
//! approval.

pub mod tracker;

use rig_agent::AgentBuilder;
use rig_core::providers::anthropic::wire::AnthropicConfig;
use serde_json::{Value, json};
use skills::Toolset;
use skills::scripts::Scripts;
use skills_rig::{AgentBuilderExt, ReqwestSender, SkillTools};

/// The skills, compiled into this binary.
pub mod agent {
    skills::include_skills!("skills");
}

/// The question the demo asks.
pub const PROMPT: &str = "We are on 1.4.2 of acme/app and added a feature. What is the next version, and does anything block the release?";

/// What the demo did: the agent's answer, what the model was sent at each
/// turn, and what the tracker was asked.
#[derive(Debug)]
pub struct Demo {
    /// The agent's final answer.
    pub answer: String,
    /// Each request the agent sent the model, in order.
    pub requests: Vec<Value>,
    /// The replies the model gave, in order.
    pub replies: Vec<Value>,
    /// The request lines the tracker received.
    pub tracker: Vec<String>,
}

/// One reply of the scripted model: optional text, then a tool call.
fn tool_use(turn: usize, text: &str, name: &str, input: Value) -> Value {
    json!({
        "id": format!("msg_{turn}"),
        "type": "message",
        "role": "assistant",
        "model": "claude-scripted",
        "content": [
            {"type": "text", "text": text},
            {"type": "tool_use", "id": format!("toolu_{turn}"), "name": name, "input": input}
        ],
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "usage": {"input_tokens": 100, "output_tokens": 20}
    })
}

/// The model's replies, turn by turn: load the skill, read its policy, run
/// its script, call the tracker, answer.
pub fn script() -> Vec<Value> {
    vec![
        tool_use(
            1,
            "A release question: I load the release skill.",
            "load_skill",
            json!({"name": "release"}),
        ),
        tool_use(
            2,
            "The skill says to read the version policy first.",
            "read_skill_resource",
            json!({"name": "release", "path": "references/policy.md"}),
        ),
        tool_use(
            3,
            "A feature is a minor bump; the skill's script computes the version.",
            "run_skill_script",
            json!({"name": "release", "path": "scripts/next_version.py", "args": ["1.4.2", "minor"]}),
        ),
        tool_use(
            4,
            "Now the open issues.",
            "list_issues",
            json!({"repo": "acme/app"}),
        ),
        json!({
            "id": "msg_5",
            "type": "message",
            "role": "assistant",
            "model": "claude-scripted",
            "content": [{"type": "text", "text": "The next version is 1.5.0. Issue #12 (\"Crash when the config is empty\") is labelled blocker: close it before the release."}],
            "stop_reason": "end_turn",
            "stop_sequence": null,
            "usage": {"input_tokens": 300, "output_tokens": 40}
        }),
    ]
}

/// Runs the agent's whole loop against the scripted model and a local
/// tracker; the approval prints what it allows.
pub async fn demo(approve: impl Fn(&str) + Send + Sync + 'static) -> Result<Demo, String> {
    let tracker = tracker::Tracker::start()
        .await
        .map_err(|error| format!("the tracker could not start: {error}"))?;
    let scripted = skills_rig::scripted::ScriptedAnthropic::new(script());
    let model = AnthropicConfig::new("scripted-key")
        .connect(scripted.clone())
        .completion("claude-scripted");

    let scripts = Scripts::new().approve(move |run| {
        approve(&format!("{} {} {:?}", run.skill, run.script, run.argv));
        Ok(())
    });
    let sender = ReqwestSender::new(std::time::Duration::from_secs(10))
        .map_err(|error| format!("no HTTP client: {error}"))?;
    let skills = SkillTools::new(Toolset::new(&agent::SKILLS).with_scripts(scripts))
        .sender(sender)
        .send_to(&tracker.origin);
    let agent = AgentBuilder::new(model)
        .preamble("You are a release assistant.")
        .max_tokens(1024)
        .skills(&skills)
        .build();
    let answer = agent
        .prompt(PROMPT)
        .max_turns(8)
        .await
        .map_err(|error| format!("the agent failed: {error}"))?;
    Ok(Demo {
        answer: answer.to_string(),
        requests: scripted.requests(),
        replies: script(),
        tracker: tracker.received(),
    })
}

/// The tool results in the last message of `request`: what the model
/// received from its previous tool call (`(tool_use_id, text, is_error)`).
pub fn tool_results(request: &Value) -> Vec<(String, String, bool)> {
    let Some(last) = request["messages"].as_array().and_then(|m| m.last()) else {
        return Vec::new();
    };
    last["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block["type"] == "tool_result")
        .map(|block| {
            let text = match &block["content"] {
                Value::String(text) => text.clone(),
                Value::Array(parts) => parts
                    .iter()
                    .map(|part| {
                        part["text"]
                            .as_str()
                            .map_or_else(|| part.to_string(), str::to_owned)
                    })
                    .collect::<Vec<_>>()
                    .join(""),
                other => other.to_string(),
            };
            (
                block["tool_use_id"].as_str().unwrap_or_default().to_owned(),
                text,
                block["is_error"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}
