//! A checked call of one tool, without generated types: what the run-time
//! loader and servers use, and what generated `ToolCall`s become to send.

use serde_json::{Map, Value};

use crate::error::{RequestError, ToolCallError};
use crate::policy::Policy;
use crate::tool::Tool;

/// A tool call whose arguments passed the tool's schema: normalised (defaults
/// filled in, numbers in one spelling) and ready to become a request.
///
/// A call becomes a request only as its policy allows: an `Allow` call at
/// once, a `Confirm` call once [`Call::confirmed`] says the user agreed, a
/// `Deny` call never. So the short path (`parse`, then `request`) cannot send
/// what the skill's permissions forbid.
#[derive(Debug, Clone)]
pub struct Call<'t> {
    tool: &'t Tool,
    arguments: Map<String, Value>,
    /// The user agreed to this call (for a `Confirm` tool).
    confirmed: bool,
}

impl<'t> Call<'t> {
    /// `arguments` must conform to the tool's schema: checked by
    /// [`Tool::parse`], or encoded from a generated arguments type.
    #[doc(hidden)]
    pub fn new(tool: &'t Tool, arguments: Map<String, Value>) -> Self {
        Call {
            tool,
            arguments,
            confirmed: false,
        }
    }

    /// This call, as the user confirmed it: a `Confirm` tool's call then
    /// becomes a request. Ask first (show [`Call::confirmation_text`]); a
    /// `Deny` tool's call stays refused, confirmed or not.
    ///
    /// ```
    /// # use skills_core::{Call, Policy};
    /// # fn demo(call: Call<'_>, ask: impl Fn(&str) -> bool) -> Result<(), skills_core::RequestError> {
    /// let call = match call.policy() {
    ///     Policy::Confirm if ask(&call.confirmation_text()) => call.confirmed(),
    ///     _ => call,
    /// };
    /// let request = call.request()?; // Deny, and an unconfirmed Confirm, are errors
    /// # Ok(()) }
    /// ```
    pub fn confirmed(mut self) -> Call<'t> {
        self.confirmed = true;
        self
    }

    /// The tool called.
    pub fn tool(&self) -> &'t Tool {
        self.tool
    }

    /// The tool's name.
    pub fn name(&self) -> &'t str {
        &self.tool.name
    }

    /// What the runtime must do with this call, decided at build time.
    pub fn policy(&self) -> Policy {
        self.tool.policy
    }

    /// The normalised arguments.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// The normalised arguments, taken.
    pub fn into_arguments(self) -> Map<String, Value> {
        self.arguments
    }

    /// The call as a person confirms it: the tool and its arguments as
    /// compact JSON, with every character that does not show for what it is
    /// written as an escape (`\u{202e}`: text-direction, zero-width and tag
    /// characters, which can hide or reorder text in a prompt), and strings
    /// over [`CONFIRM_MAX_CHARS`] characters cut, visibly.
    ///
    /// ```
    /// # use skills_core::Call;
    /// # fn demo(call: &Call<'_>) {
    /// let question = format!("Allow {}?", call.confirmation_text());
    /// # }
    /// ```
    pub fn confirmation_text(&self) -> String {
        let arguments = Value::Object(self.arguments.clone());
        format!("`{}` with {}", self.name(), shown(&arguments))
    }

    /// The HTTP request this call stands for, to the origin the skill
    /// declares, when its policy lets it be sent (see [`Call`]).
    pub fn request(&self) -> Result<http::Request<Vec<u8>>, RequestError> {
        self.request_to_origin(None)
    }

    /// The same request sent to another `scheme://host[:port]` (staging, tests).
    pub fn request_to(&self, origin: &str) -> Result<http::Request<Vec<u8>>, RequestError> {
        self.request_to_origin(Some(origin))
    }

    fn request_to_origin(
        &self,
        origin: Option<&str>,
    ) -> Result<http::Request<Vec<u8>>, RequestError> {
        let tool = || self.tool.name.to_string();
        // A tool without an endpoint is the application's, policy included.
        let endpoint = self
            .tool
            .endpoint
            .as_ref()
            .ok_or_else(|| RequestError::NoEndpoint { tool: tool() })?;
        match self.tool.policy {
            Policy::Allow => {}
            Policy::Confirm if self.confirmed => {}
            Policy::Confirm => return Err(RequestError::NotConfirmed { tool: tool() }),
            Policy::Deny => return Err(RequestError::Denied { tool: tool() }),
        }
        endpoint.request(&self.tool.name, &self.arguments, origin)
    }
}

/// The most characters of one string shown in [`Call::confirmation_text`].
pub const CONFIRM_MAX_CHARS: usize = 200;

/// `value` as compact JSON for a person: see [`Call::confirmation_text`].
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => {
            let count = text.chars().count();
            let kept: String = text.chars().take(CONFIRM_MAX_CHARS).collect();
            let json = Value::String(kept).to_string();
            let escaped = crate::text::printable(&json).into_owned();
            if count > CONFIRM_MAX_CHARS {
                let rest = count - CONFIRM_MAX_CHARS;
                format!(
                    "{}… ({rest} more characters)\"",
                    &escaped[..escaped.len() - 1]
                )
            } else {
                escaped
            }
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(shown).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(key, value)| {
                    format!("{}:{}", shown(&Value::String(key.clone())), shown(value))
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }
        other => other.to_string(),
    }
}

/// A model's tool-call arguments, in either form model APIs hand them over:
/// JSON text (OpenAI's `arguments`) or a value already parsed (Anthropic's
/// `input`, MCP's `arguments`). Every parse takes one, so each input has
/// one method whatever form its arguments come in.
///
/// ```
/// # use skills_core::Arguments;
/// let text: Arguments = r#"{"repo": "a/b"}"#.into();
/// let value = serde_json::json!({"repo": "a/b"});
/// let parsed: Arguments = (&value).into();
/// # let _ = (text, parsed);
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Arguments<'a> {
    /// JSON text, parsed before it is checked.
    Text(&'a str),
    /// JSON already parsed.
    Json(&'a Value),
}

impl<'a> From<&'a str> for Arguments<'a> {
    fn from(text: &'a str) -> Self {
        Arguments::Text(text)
    }
}

impl<'a> From<&'a String> for Arguments<'a> {
    fn from(text: &'a String) -> Self {
        Arguments::Text(text)
    }
}

impl<'a> From<&'a Value> for Arguments<'a> {
    fn from(value: &'a Value) -> Self {
        Arguments::Json(value)
    }
}

impl Tool {
    /// Checks a model's arguments against the schema. Errors name the
    /// failing field by JSON path.
    ///
    /// The documented ways in are `SkillSet::parse_call` (by tool name
    /// across a set), a generated `ToolCall::parse` (typed) and
    /// `model::ToolUse::parse` (a provider's response); this is what they
    /// share once the tool is found.
    ///
    /// ```
    /// # fn demo(tool: &skills_core::Tool) -> Result<(), Box<dyn std::error::Error>> {
    /// let call = tool.parse(r#"{"repo": "a/b"}"#)?;
    /// let request = call.request()?; // an http::Request<Vec<u8>>
    /// # Ok(()) }
    /// ```
    #[doc(hidden)]
    pub fn parse<'a>(
        &self,
        arguments: impl Into<Arguments<'a>>,
    ) -> Result<Call<'_>, ToolCallError> {
        match arguments.into() {
            Arguments::Json(value) => self.check(value),
            Arguments::Text(text) => {
                let value: Value = serde_json::from_str(text).map_err(|error| {
                    ToolCallError::InvalidArguments {
                        tool: self.name.to_string(),
                        path: ".".to_owned(),
                        message: error.to_string(),
                    }
                })?;
                self.check(&value)
            }
        }
    }

    fn check(&self, arguments: &Value) -> Result<Call<'_>, ToolCallError> {
        let arguments = self.schema.check(&self.name, arguments)?;
        Ok(Call::new(self, arguments))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hidden_characters_are_escaped_and_long_strings_cut_visibly() {
        let shown = shown(
            &json!({"a\u{202e}b": "x\u{202e}gnp.exe\u{200b}\u{e0041}", "n": [1, true, null]}),
        );
        assert_eq!(
            shown,
            "{\"a\\u{202e}b\":\"x\\u{202e}gnp.exe\\u{200b}\\u{e0041}\",\"n\":[1,true,null]}"
        );
        let long = "é".repeat(CONFIRM_MAX_CHARS + 5);
        let cut = super::shown(&json!(long));
        assert!(cut.ends_with("é… (5 more characters)\""), "{cut}");
        assert_eq!(cut.chars().filter(|c| *c == 'é').count(), CONFIRM_MAX_CHARS);
        // Newlines and quotes stay JSON escapes.
        assert_eq!(super::shown(&json!("a\n\"b")), "\"a\\n\\\"b\"");
    }
}
