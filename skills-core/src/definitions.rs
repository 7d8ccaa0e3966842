//! Tool definitions in each model API's shape, composed from the one stored
//! parameter schema (storing each shape would keep the schema five times in
//! the binary). The CLI prints the same text through these functions.

use crate::policy::Hints;
use crate::tool::Tool;

fn string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// `{"name", "description", "input_schema"}` for Anthropic's Messages API.
pub fn anthropic(name: &str, description: &str, parameters_json: &str) -> String {
    format!(
        r#"{{"name":{},"description":{},"input_schema":{parameters_json}}}"#,
        string(name),
        string(description)
    )
}

/// `{"type": "function", "function": {...}}` for OpenAI's Chat Completions,
/// with `"strict": true` when asked for. Only the keys the API documents:
/// `x-openai-isConsequential` is a GPT Actions (OpenAPI) extension, which
/// the Chat and Responses APIs do not document and may reject; the policy
/// that says "consequential" is enforced by this crate, not by the model.
pub fn openai(name: &str, description: &str, parameters_json: &str, strict: bool) -> String {
    let strict = if strict { r#","strict":true"# } else { "" };
    format!(
        r#"{{"type":"function","function":{{"name":{},"description":{},"parameters":{parameters_json}{strict}}}}}"#,
        string(name),
        string(description),
    )
}

/// `{"type": "function", "name", "description", "parameters"}` for the
/// OpenAI Responses API (its tools are flat, not wrapped in `function`).
pub fn openai_responses(name: &str, description: &str, parameters_json: &str) -> String {
    format!(
        r#"{{"type":"function","name":{},"description":{},"parameters":{parameters_json}}}"#,
        string(name),
        string(description)
    )
}

/// `{"name", "title", "description", "inputSchema", "annotations"}` for
/// MCP, `title` when the tool has one.
pub fn mcp(
    name: &str,
    title: Option<&str>,
    description: &str,
    parameters_json: &str,
    hints: Hints,
) -> String {
    let title = title.map_or_else(String::new, |title| {
        format!(r#""title":{},"#, string(title))
    });
    format!(
        r#"{{"name":{},{title}"description":{},"inputSchema":{parameters_json},"annotations":{{"readOnlyHint":{},"destructiveHint":{},"idempotentHint":{},"openWorldHint":{}}}}}"#,
        string(name),
        string(description),
        hints.read_only,
        hints.destructive,
        hints.idempotent,
        hints.open_world
    )
}

impl Tool {
    /// `{"name", "description", "input_schema"}` for Anthropic's Messages API.
    pub fn anthropic_json(&self) -> String {
        anthropic(&self.name, &self.description, &self.parameters_json)
    }

    /// `{"type": "function", "function": {"name", "description", "parameters"}}` for OpenAI.
    pub fn openai_json(&self) -> String {
        openai(&self.name, &self.description, &self.parameters_json, false)
    }

    /// The same with `"strict": true`, when the schema qualifies for OpenAI's
    /// strict mode (every property required; no defaults; closed objects).
    pub fn openai_strict_json(&self) -> Option<String> {
        self.strict
            .then(|| openai(&self.name, &self.description, &self.parameters_json, true))
    }

    /// `{"type": "function", "name", "description", "parameters"}` for the
    /// OpenAI Responses API.
    pub fn openai_responses_json(&self) -> String {
        openai_responses(&self.name, &self.description, &self.parameters_json)
    }

    /// `{"name", "title", "description", "inputSchema", "annotations"}` for
    /// MCP (`title` when the tool has one), with `readOnlyHint`,
    /// `destructiveHint`, `idempotentHint` and `openWorldHint`.
    pub fn mcp_json(&self) -> String {
        mcp(
            &self.name,
            self.title(),
            &self.description,
            &self.parameters_json,
            self.hints,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HINTS: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: true,
        open_world: true,
        consequential: true,
    };

    #[test]
    fn every_shape_is_json_with_the_schema_inside() {
        let schema = r#"{"type":"object","properties":{}}"#;
        for text in [
            anthropic("t", "say \"hi\"", schema),
            openai("t", "d", schema, true),
            mcp("t", None, "d", schema, HINTS),
            mcp("t", Some("A \"title\"\n"), "d", schema, HINTS),
        ] {
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let found = ["input_schema", "inputSchema"]
                .iter()
                .find_map(|key| value.get(*key))
                .or_else(|| value["function"].get("parameters"));
            assert_eq!(found.unwrap()["type"], "object", "{text}");
        }
        let titled: serde_json::Value =
            serde_json::from_str(&mcp("t", Some("A \"title\"\n"), "d", schema, HINTS)).unwrap();
        assert_eq!(titled["title"], "A \"title\"\n");
        let openai: serde_json::Value =
            serde_json::from_str(&openai("t", "d", schema, false)).unwrap();
        // Only documented keys (issue 24, item 6).
        let mut keys: Vec<&str> = openai["function"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, ["description", "name", "parameters"]);
    }
}
