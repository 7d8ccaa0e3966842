//! The whole loop of an agent on Anthropic's Messages API: the toolset's
//! instructions as the system prompt, its definitions (the two host tools
//! and the skills' HTTP tools) with every request, `load_skill` and
//! `read_skill_resource` answered by `skills::Toolset`, every other tool
//! call checked, policed and sent, and the results sent back, until the
//! model answers in text.
//!
//! [`mock`] replays recorded Messages API responses on loopback, so that
//! the loop runs, and is tested, without a key.

use std::io::Write;

use serde_json::{Value, json};
use skills::Policy;
use skills::model::{Provider, tool_uses};

pub use issue_agent::agent_skills::SKILLS;

pub mod mock;

/// Where the model is, and how to reach it.
pub struct Model {
    /// `https://api.anthropic.com`, or a mock's origin.
    pub base_url: String,
    pub api_key: String,
    pub model: String,
}

/// Runs the conversation that starts with `user`, writing each step to
/// `out`; the skills' HTTP tools are sent to `tracker` (an origin) when
/// given. Returns the model's last text.
pub fn run(
    model: &Model,
    tracker: Option<&str>,
    user: &str,
    out: &mut impl Write,
) -> Result<String, String> {
    let toolset = skills::Toolset::new(&SKILLS);
    let http: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .timeout_global(Some(std::time::Duration::from_secs(60)))
        .build()
        .into();
    let mut messages = vec![json!({"role": "user", "content": user})];
    for _turn in 0..16 {
        let request = json!({
            "model": model.model,
            "max_tokens": 1024,
            "system": toolset.instructions(),
            "tools": toolset.definitions(Provider::Anthropic),
            "messages": messages,
        });
        let response = post(&http, model, &request)?;
        let content = response["content"].clone();
        messages.push(json!({"role": "assistant", "content": content}));
        let uses = tool_uses(Provider::Anthropic, &response).map_err(|e| e.to_string())?;
        if uses.is_empty() {
            let text = text_of(&content);
            writeln!(out, "model: {text}").map_err(|e| e.to_string())?;
            return Ok(text);
        }
        let mut results = Vec::new();
        for call in &uses {
            writeln!(out, "tool: {} {}", call.name, call.raw_arguments)
                .map_err(|e| e.to_string())?;
            let result = match toolset.answer(call) {
                Some(answer) => answer,
                None => send(&http, call, tracker),
            };
            let shown = result["content"].as_str().unwrap_or_default();
            let first = shown.lines().next().unwrap_or_default();
            writeln!(out, "  -> {first}").map_err(|e| e.to_string())?;
            results.push(result);
        }
        messages.push(json!({"role": "user", "content": results}));
    }
    Err("the model did not finish in 16 turns".to_owned())
}

/// An HTTP tool of the skills: checked against its schema, its build-time
/// policy applied (Deny and Confirm are not sent by this unattended loop),
/// then sent; whatever happens is a result the model reads.
fn send(http: &ureq::Agent, call: &skills::model::ToolUse, tracker: Option<&str>) -> Value {
    let checked = match call.parse(&SKILLS) {
        Ok(checked) => checked,
        Err(error) => return call.result(&format!("Error: {error}"), true),
    };
    match checked.policy() {
        Policy::Allow => {}
        Policy::Deny => {
            return call.result(
                "Error: this skill does not allow the call; nothing was sent",
                true,
            );
        }
        Policy::Confirm => {
            return call.result("Error: the call needs a person's confirmation, and this loop runs unattended; nothing was sent", true);
        }
    }
    let request = match tracker {
        Some(origin) => checked.request_to(origin),
        None => checked.request(),
    };
    let request = match request {
        Ok(request) => request,
        Err(error) => return call.result(&format!("Error: {error}"), true),
    };
    match http.run(request) {
        Ok(mut response) => {
            let status = response.status();
            let body = response.body_mut().read_to_string().unwrap_or_default();
            call.result(&format!("{} {body}", status.as_u16()), !status.is_success())
        }
        Err(error) => call.result(&format!("Error: the request failed: {error}"), true),
    }
}

fn post(http: &ureq::Agent, model: &Model, request: &Value) -> Result<Value, String> {
    let mut response = http
        .post(format!("{}/v1/messages", model.base_url))
        .header("x-api-key", &model.api_key)
        .header("anthropic-version", "2023-06-01")
        .header("content-type", "application/json")
        .send(request.to_string())
        .map_err(|error| format!("the Messages API could not be reached: {error}"))?;
    let status = response.status();
    let body = response
        .body_mut()
        .read_to_string()
        .map_err(|error| format!("the Messages API's answer could not be read: {error}"))?;
    if !status.is_success() {
        return Err(format!("the Messages API answered {status}: {body}"));
    }
    serde_json::from_str(&body)
        .map_err(|error| format!("the Messages API's answer is not JSON: {error}"))
}

fn text_of(content: &Value) -> String {
    content
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}
