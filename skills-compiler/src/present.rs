//! How skills are presented to a model: the catalog lines, the Agent Skills
//! XML catalog, the text a model reads when it loads a skill, and each tool's
//! definition for Anthropic, OpenAI and MCP. All computed at build time.

use serde_json::{Map, Value, json};

use crate::ir::{Kind, Method, Policy, Skill, SkillSet, Tool, Version};

/// The most characters of a description in a catalog line.
pub const CATALOG_DESCRIPTION_CHARS: usize = 240;

/// One `- name: description` line per skill.
pub fn catalog(set: &SkillSet) -> String {
    set.skills
        .iter()
        .map(|skill| {
            format!(
                "- {}: {}\n",
                skill.name,
                one_line(&skill.description, CATALOG_DESCRIPTION_CHARS)
            )
        })
        .collect()
}

/// Whitespace runs (newlines included) become one space; longer than `max`
/// characters is cut at a character boundary and ends with `…`.
pub fn one_line(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(max.saturating_sub(1)).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

/// The Agent Skills `<available_skills>` block, as the reference `to-prompt`
/// writes it; locations are the skill files relative to the crate.
pub fn catalog_xml(set: &SkillSet) -> String {
    let mut lines = vec!["<available_skills>".to_owned()];
    for skill in &set.skills {
        lines.extend([
            "<skill>".to_owned(),
            "<name>".to_owned(),
            escape_xml(skill.name.as_str()),
            "</name>".to_owned(),
            "<description>".to_owned(),
            escape_xml(&skill.description),
            "</description>".to_owned(),
            "<location>".to_owned(),
            escape_xml(&skill.path),
            "</location>".to_owned(),
            "</skill>".to_owned(),
        ]);
    }
    lines.push("</available_skills>".to_owned());
    lines.join("\n")
}

pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The text a model reads when it loads the skill.
pub fn rendered(skill: &Skill) -> String {
    let mut lines = Vec::new();
    let version = match &skill.version {
        Version::Number(1) => String::new(),
        Version::Number(n) => format!(" (v{n})"),
        Version::Semver(s) => format!(" (v{s})"),
    };
    let title = if matches!(skill.kind, Kind::Protocol(_)) {
        "PROTOCOL"
    } else {
        "SKILL"
    };
    lines.push(format!("{title}: {}{version}", skill.name));
    lines.push(skill.description.trim().to_owned());
    let mut meta = Vec::new();
    if let Some(area) = &skill.area {
        meta.push(format!("area: {area}"));
    }
    if !skill.tags.is_empty() {
        meta.push(format!("tags: {}", skill.tags.join(", ")));
    }
    if !skill.triggers.is_empty() {
        meta.push(format!("use when: {}", skill.triggers.join("; ")));
    }
    if !meta.is_empty() {
        lines.push(meta.join(" | "));
    }
    if let Kind::Protocol(protocol) = &skill.kind {
        if !protocol.preconditions.is_empty() {
            lines.push(String::new());
            lines.push("Preconditions:".to_owned());
            lines.extend(protocol.preconditions.iter().map(|p| format!("- {p}")));
        }
        lines.push(String::new());
        lines.push("Steps (follow in order):".to_owned());
        lines.extend(
            protocol
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{}. {s}", i + 1)),
        );
        lines.push(String::new());
        lines.push("Post-checks:".to_owned());
        lines.extend(protocol.post_checks.iter().map(|c| format!("- {c}")));
        lines.push(String::new());
        lines.push(format!(
            "If the run goes off plan: {}",
            protocol.on_deviation
        ));
        lines.push(format!(
            "If the protocol cannot be completed: {}",
            protocol.on_blocked
        ));
        lines.push(format!(
            "If a step is already done: {}",
            protocol.on_already_done
        ));
    }
    let body = skill.body.trim();
    if !body.is_empty() {
        lines.push(String::new());
        lines.push(body.to_owned());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Whether the tool only reads.
pub fn read_only(tool: &Tool) -> bool {
    tool.endpoint.as_ref().is_some_and(|e| e.method.is_safe())
}

/// Whether the tool may destroy or overwrite: DELETE, PUT, PATCH, anything
/// that needs confirmation, and tools without an endpoint (nothing proves them harmless).
pub fn destructive(tool: &Tool) -> bool {
    match &tool.endpoint {
        None => true,
        Some(endpoint) => {
            matches!(
                endpoint.method,
                Method::Delete | Method::Put | Method::Patch
            ) || tool.policy == Policy::Confirm
        }
    }
}

/// `{"name", "description", "input_schema"}`.
pub fn anthropic(tool: &Tool) -> String {
    json!({"name": tool.name.as_str(), "description": tool.description, "input_schema": tool.parameters_json}).to_string()
}

/// `{"type": "function", "function": {...}}`.
pub fn openai(tool: &Tool) -> String {
    json!({"type": "function", "function": {"name": tool.name.as_str(), "description": tool.description, "parameters": tool.parameters_json}})
        .to_string()
}

/// The strict variant, when every object requires all its properties and no
/// property has a default (OpenAI's strict mode demands both); every object
/// gets `additionalProperties: false`.
pub fn openai_strict(tool: &Tool) -> Option<String> {
    let mut schema = tool.parameters_json.clone();
    if !strict_compatible(&mut schema) {
        return None;
    }
    Some(
        json!({"type": "function", "function": {"name": tool.name.as_str(), "description": tool.description, "parameters": schema, "strict": true}})
            .to_string(),
    )
}

fn strict_compatible(schema: &mut Value) -> bool {
    let Some(object) = schema.as_object_mut() else {
        return true;
    };
    if object.contains_key("default") {
        return false;
    }
    let is_object = object.get("type").is_some_and(|t| {
        t == "object"
            || t.as_array()
                .is_some_and(|a| a.iter().any(|v| v == "object"))
    });
    if is_object {
        if object
            .get("additionalProperties")
            .is_some_and(|a| a != &Value::Bool(false))
        {
            return false;
        }
        let names: Vec<String> = object
            .get("properties")
            .and_then(Value::as_object)
            .map_or_else(Vec::new, |p| p.keys().cloned().collect());
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |r| r.iter().filter_map(Value::as_str).collect());
        if names.iter().any(|name| !required.contains(&name.as_str())) {
            return false;
        }
        object.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for key in ["properties", "$defs"] {
        if let Some(children) = object.get_mut(key).and_then(Value::as_object_mut)
            && !children.values_mut().all(strict_compatible)
        {
            return false;
        }
    }
    object.get_mut("items").is_none_or(strict_compatible)
}

/// `{"name", "description", "inputSchema", "annotations"}`.
pub fn mcp(tool: &Tool) -> String {
    let mut annotations = Map::new();
    annotations.insert("readOnlyHint".to_owned(), Value::Bool(read_only(tool)));
    annotations.insert(
        "destructiveHint".to_owned(),
        Value::Bool(!read_only(tool) && destructive(tool)),
    );
    json!({"name": tool.name.as_str(), "description": tool.description, "inputSchema": tool.parameters_json, "annotations": annotations})
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_collapses_and_clamps_at_a_character_boundary() {
        assert_eq!(one_line("a\n  b\tc ", 240), "a b c");
        let long = "é".repeat(300);
        let clamped = one_line(&long, 240);
        assert_eq!(clamped.chars().count(), 240);
        assert!(clamped.ends_with('…'));
        assert_eq!(one_line(&"x".repeat(240), 240), "x".repeat(240));
    }

    #[test]
    fn xml_is_escaped() {
        assert_eq!(escape_xml("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
