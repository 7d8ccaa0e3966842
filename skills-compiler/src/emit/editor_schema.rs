//! JSON Schemas of the frontmatter and of `tools.yaml`, for editors
//! (`# yaml-language-server: $schema=...`): completion and checks while typing.
//! Built from the same key lists the validator uses.

use serde_json::{Value, json};

use crate::config::Profile;
use crate::validate::keys::{self, Group};

/// The frontmatter schema for `profile`.
pub fn frontmatter(profile: Profile) -> Value {
    let mut properties = serde_json::Map::new();
    for key in keys::named(Group::Spec) {
        properties.insert(key.to_owned(), spec_property(key));
    }
    if profile != Profile::Portable {
        for key in keys::named(Group::Extension).chain(keys::named(Group::Protocol)) {
            properties.insert(key.to_owned(), extension_property(key));
        }
    }
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("SKILL.md frontmatter ({} profile)", profile.as_str()),
        "type": "object",
        "required": ["name", "description"],
        "properties": properties,
        "$defs": {"tool": tool(), "permissions": permissions()},
    });
    if profile == Profile::Portable {
        schema["additionalProperties"] = Value::Bool(false);
    } else {
        schema["patternProperties"] = json!({"^x-": {}});
    }
    schema
}

/// The schema of a sidecar `tools.yaml`.
pub fn tools_yaml() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tools.yaml (tools and permissions of the SKILL.md beside it)",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "tools": {"type": "array", "items": {"$ref": "#/$defs/tool"}},
            "permissions": {"$ref": "#/$defs/permissions"},
        },
        "$defs": {"tool": tool(), "permissions": permissions()},
    })
}

fn spec_property(key: &str) -> Value {
    match key {
        "name" => json!({
            "type": "string", "minLength": 1, "maxLength": 64,
            "pattern": "^[\\p{Ll}\\p{Lo}\\p{N}]+(-[\\p{Ll}\\p{Lo}\\p{N}]+)*$",
            "description": "Lowercase letters, digits and single hyphens; equal to the skill's directory name.",
        }),
        "description" => json!({
            "type": "string", "minLength": 1, "maxLength": 1024,
            "description": "What the skill does and when a model should use it. Sent on every turn.",
        }),
        "compatibility" => json!({"type": "string", "minLength": 1, "maxLength": 500}),
        "metadata" => {
            json!({"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}})
        }
        "allowed-tools" => json!({"type": "string", "description": "Space-separated tool names."}),
        _ => json!({"type": "string"}),
    }
}

fn extension_property(key: &str) -> Value {
    let list = json!({"oneOf": [{"type": "string", "minLength": 1}, {"type": "array", "items": {"type": "string", "minLength": 1}}]});
    match key {
        "kind" => json!({"enum": ["skill", "protocol"], "default": "skill"}),
        "triggers" | "tags" => list,
        "version" => {
            json!({"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^\\d+\\.\\d+\\.\\d+"}]})
        }
        "steps" | "post_checks" => {
            json!({"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}})
        }
        "preconditions" => json!({"type": "array", "items": {"type": "string", "minLength": 1}}),
        "tools" => json!({"type": "array", "items": {"$ref": "#/$defs/tool"}}),
        "permissions" => json!({"$ref": "#/$defs/permissions"}),
        _ => json!({"type": "string", "minLength": 1}),
    }
}

fn tool() -> Value {
    json!({
        "type": "object",
        "required": ["name", "description"],
        "additionalProperties": false,
        "properties": {
            "name": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"},
            "description": {"type": "string", "minLength": 1},
            "parameters": {"type": "object", "description": "JSON Schema of the arguments; its root is `type: object`."},
            "endpoint": {
                "type": "object",
                "required": ["method", "url"],
                "additionalProperties": false,
                "properties": {
                    "method": {"enum": ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]},
                    "url": {"type": "string", "pattern": "^https?://"},
                    "query": {"type": "object", "additionalProperties": {"type": "string"}},
                    "header": {"type": "object", "additionalProperties": {"type": "string"}},
                    "body": {"type": "string", "description": "A JSON template; `{{param}}` as a value or inside a string."},
                },
            },
        },
    })
}

fn permissions() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "default_mode": {"enum": ["readonly", "confirm"], "default": "readonly"},
            "require_confirmation": {"type": "array", "items": {"type": "string"}},
            "allow_write": {"type": "array", "items": {"type": "string"}},
        },
    })
}
