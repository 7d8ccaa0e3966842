//! JSON Schemas of the frontmatter and of `tools.yaml`, for editors
//! (`# yaml-language-server: $schema=...`): completion and checks while typing.
//! Built from the key declarations the validator reads (`keys`).

use serde_json::{Value, json};

use crate::config::Profile;
use crate::validate::keys::{self, Group, KeyList};

/// The frontmatter schema for `profile`: each key the profile takes, with
/// the schema its declaration gives.
pub fn frontmatter(profile: Profile) -> Value {
    frontmatter_in(profile, KeyList::DECLARED)
}

/// [`frontmatter`] with the keys `list` declares.
pub(crate) fn frontmatter_in(profile: Profile, list: KeyList<'_>) -> Value {
    let offered = |group: Group| match group {
        Group::Spec => true,
        // Hosts' keys are checked in `extended` and `lenient` as the
        // compiler checks them, so an editor flags what `check` flags.
        Group::Extension | Group::Protocol | Group::Client => profile != Profile::Portable,
    };
    let properties: serde_json::Map<String, Value> = list
        .0
        .iter()
        .filter(|key| offered(key.group))
        .map(|key| (key.name.to_owned(), (key.schema)()))
        .collect();
    let required: Vec<&str> = list.required_in(Group::Spec).collect();
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("SKILL.md frontmatter ({} profile)", profile.as_str()),
        "type": "object",
        "required": required,
        "properties": properties,
        "$defs": definitions(),
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
    let mut schema = keys::object_schema(keys::TOOLS_YAML);
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    schema["title"] = json!("tools.yaml (tools and permissions of the SKILL.md beside it)");
    schema["$defs"] = definitions();
    schema
}

/// What `tools` and `permissions` refer to.
fn definitions() -> Value {
    json!({
        "tool": keys::object_schema(keys::TOOL),
        "permissions": keys::object_schema(keys::PERMISSIONS),
    })
}
