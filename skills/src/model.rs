//! Tool calls as model APIs hand them over, and results as they take them
//! back: Anthropic Messages (`tool_use` / `tool_result` blocks), OpenAI Chat
//! Completions (`tool_calls` / `role: tool` messages) and OpenAI Responses
//! (`function_call` / `function_call_output` items). JSON in, JSON out:
//! serde_json only, no client.
//!
//! ```
//! use serde_json::json;
//! use skills::model::{Provider, tool_uses};
//!
//! let response = json!({"content": [
//!     {"type": "text", "text": "Let me look."},
//!     {"type": "tool_use", "id": "toolu_1", "name": "list_issues", "input": {"repo": "a/b"}}
//! ]});
//! let uses = tool_uses(Provider::Anthropic, &response)?;
//! assert_eq!(uses[0].name, "list_issues");
//! // let call = set.parse_call(&uses[0].name, &uses[0].arguments()?)?; ... send ...
//! let block = uses[0].result("[]", false);
//! assert_eq!(block["tool_use_id"], "toolu_1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::{Map, Value, json};

use crate::set::SkillSet;
use skills_core::Call;
use skills_core::ToolCallError;

/// Which API's shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provider {
    /// Anthropic Messages: `tool_use` content blocks; `tool_result` blocks back.
    Anthropic,
    /// OpenAI Chat Completions: `message.tool_calls`; `role: tool` messages back.
    OpenAiChat,
    /// OpenAI Responses: `function_call` output items; `function_call_output` items back.
    OpenAiResponses,
}

/// One tool call a model made.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolUse {
    /// Whose shape the call came in.
    pub provider: Provider,
    /// The id the result must quote (`tool_use_id`, `tool_call_id`, `call_id`).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// As the provider sent them: a JSON object (Anthropic) or JSON text (OpenAI).
    pub raw_arguments: Value,
}

/// A response that does not have the provider's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelApiError {
    /// Where in the JSON, e.g. `content[1].id`.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for ModelApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at `{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for ModelApiError {}

impl ToolUse {
    /// The arguments as JSON: OpenAI's text parsed, Anthropic's object as is.
    pub fn arguments(&self) -> Result<Value, ToolCallError> {
        match &self.raw_arguments {
            Value::String(text) => {
                serde_json::from_str(text).map_err(|error| ToolCallError::InvalidArguments {
                    tool: self.name.clone(),
                    path: ".".to_owned(),
                    message: format!("the arguments are not JSON: {error}"),
                })
            }
            other => Ok(other.clone()),
        }
    }

    /// Checks the call against `set`: the tool by name across every skill,
    /// the arguments against its schema.
    pub fn parse<'s>(&self, set: &'s SkillSet) -> Result<Call<'s>, ToolCallError> {
        set.parse_call(&self.name, &self.arguments()?)
    }

    /// The result to send back, in the provider's shape. `is_error` marks a
    /// failed call where the API has a flag for it (Anthropic); elsewhere the
    /// text must say so.
    pub fn result(&self, content: &str, is_error: bool) -> Value {
        match self.provider {
            Provider::Anthropic => {
                let mut block = json!({
                    "type": "tool_result",
                    "tool_use_id": self.id,
                    "content": content,
                });
                if is_error {
                    block["is_error"] = Value::Bool(true);
                }
                block
            }
            Provider::OpenAiChat => json!({
                "role": "tool",
                "tool_call_id": self.id,
                "content": content,
            }),
            Provider::OpenAiResponses => json!({
                "type": "function_call_output",
                "call_id": self.id,
                "output": content,
            }),
        }
    }
}

/// The tool calls in a provider's response (or in the part of it that holds
/// them: Anthropic's `content` array or message, an OpenAI Chat message,
/// the Responses `output` array), in order.
pub fn tool_uses(provider: Provider, response: &Value) -> Result<Vec<ToolUse>, ModelApiError> {
    match provider {
        Provider::Anthropic => anthropic(response),
        Provider::OpenAiChat => openai_chat(response),
        Provider::OpenAiResponses => openai_responses(response),
    }
}

fn anthropic(response: &Value) -> Result<Vec<ToolUse>, ModelApiError> {
    let (blocks, path) = match response {
        Value::Array(blocks) => (blocks, String::new()),
        _ => (array(response, "content", "")?, "content".to_owned()),
    };
    let mut uses = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let at = format!("{path}[{i}]");
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let input = block
            .get("input")
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        uses.push(ToolUse {
            provider: Provider::Anthropic,
            id: string(block, "id", &at)?,
            name: string(block, "name", &at)?,
            raw_arguments: input,
        });
    }
    Ok(uses)
}

fn openai_chat(response: &Value) -> Result<Vec<ToolUse>, ModelApiError> {
    // A whole completion: the first choice's message. Else a message.
    let (message, path) = match response.get("choices") {
        Some(_) => {
            let choices = array(response, "choices", "")?;
            let Some(first) = choices.first() else {
                return Ok(Vec::new());
            };
            let message = first
                .get("message")
                .ok_or_else(|| missing("choices[0]", "message"))?;
            (message, "choices[0].message".to_owned())
        }
        None => (response, String::new()),
    };
    let Some(calls) = message.get("tool_calls").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let calls = calls
        .as_array()
        .ok_or_else(|| wrong(&join(&path, "tool_calls"), "an array"))?;
    let mut uses = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        let at = format!("{}[{i}]", join(&path, "tool_calls"));
        if call
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("function")
            != "function"
        {
            continue;
        }
        let function = call
            .get("function")
            .ok_or_else(|| missing(&at, "function"))?;
        let function_at = join(&at, "function");
        uses.push(ToolUse {
            provider: Provider::OpenAiChat,
            id: string(call, "id", &at)?,
            name: string(function, "name", &function_at)?,
            raw_arguments: arguments_text(function, &function_at)?,
        });
    }
    Ok(uses)
}

fn openai_responses(response: &Value) -> Result<Vec<ToolUse>, ModelApiError> {
    let (items, path) = match response {
        Value::Array(items) => (items, String::new()),
        _ => (array(response, "output", "")?, "output".to_owned()),
    };
    let mut uses = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{path}[{i}]");
        if item.get("type").and_then(Value::as_str) != Some("function_call") {
            continue;
        }
        uses.push(ToolUse {
            provider: Provider::OpenAiResponses,
            id: string(item, "call_id", &at)?,
            name: string(item, "name", &at)?,
            raw_arguments: arguments_text(item, &at)?,
        });
    }
    Ok(uses)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn missing(path: &str, key: &str) -> ModelApiError {
    ModelApiError {
        path: join(path, key),
        message: "missing".to_owned(),
    }
}

fn wrong(path: &str, expected: &str) -> ModelApiError {
    ModelApiError {
        path: path.to_owned(),
        message: format!("expected {expected}"),
    }
}

fn array<'v>(value: &'v Value, key: &str, path: &str) -> Result<&'v Vec<Value>, ModelApiError> {
    value
        .get(key)
        .ok_or_else(|| missing(path, key))?
        .as_array()
        .ok_or_else(|| wrong(&join(path, key), "an array"))
}

fn string(value: &Value, key: &str, path: &str) -> Result<String, ModelApiError> {
    value
        .get(key)
        .ok_or_else(|| missing(path, key))?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| wrong(&join(path, key), "a string"))
}

/// OpenAI sends arguments as JSON text; kept as text until parsed, so that a
/// malformed text is a tool-call error with the tool's name.
fn arguments_text(value: &Value, path: &str) -> Result<Value, ModelApiError> {
    match value.get("arguments") {
        None | Some(Value::Null) => Ok(Value::String("{}".to_owned())),
        Some(Value::String(text)) => Ok(Value::String(text.clone())),
        Some(_) => Err(wrong(&join(path, "arguments"), "JSON text (a string)")),
    }
}
