//! A skill as JSON: the one shape that `cargo skills show --json`, `list
//! --format json` and `read-properties` print, each a view of it.

use serde_json::{Map, Value, json};

use crate::ir::{Kind, Skill, Version};
use crate::validate::keys::{self, Held, KeyList};

/// Which fields a view holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Every field, tools and body included (`show --json`).
    Full,
    /// One line of a listing: name, kind, description, path, the number of
    /// tools and the version (`list --format json`).
    Summary,
    /// The Agent Skills specification's fields under its own key names,
    /// absent ones left out, as the reference `read-properties` prints them.
    Properties,
}

/// `skill` as JSON, in `view`.
///
/// ```
/// # let base = std::env::temp_dir().join("skills-compiler-json-doc");
/// # std::fs::create_dir_all(base.join("skills/hello")).unwrap();
/// # std::fs::write(base.join("skills/hello/SKILL.md"),
/// #     "---\nname: hello\ndescription: Greets the user.\n---\nSay hello.\n").unwrap();
/// use skills_compiler::emit::json::{View, skill};
///
/// let compilation = skills_compiler::compile(&base, &Default::default());
/// let hello = &compilation.skills().unwrap().skills[0];
/// assert_eq!(skill(hello, View::Summary)["kind"], "skill");
/// assert_eq!(skill(hello, View::Properties)["name"], "hello");
/// ```
pub fn skill(skill: &Skill, view: View) -> Value {
    match view {
        View::Properties => properties(skill),
        View::Summary => json!({
            "name": skill.name(),
            "kind": skill.table.kind.as_str(),
            "description": skill.description(),
            "path": skill.path(),
            "tools": skill.tools.len(),
            "version": version(skill),
        }),
        View::Full => full(skill),
    }
}

fn version(skill: &Skill) -> Value {
    match &skill.table.version {
        Version::Number(n) => json!(n),
        Version::Semver(s) | Version::Text(s) => json!(s),
    }
}

fn metadata(skill: &Skill) -> Map<String, Value> {
    skill
        .table
        .metadata
        .iter()
        .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
        .collect()
}

fn properties(skill: &Skill) -> Value {
    let mut object = Map::new();
    object.insert("name".into(), json!(skill.name()));
    object.insert("description".into(), json!(skill.description()));
    for (key, value) in keys::texts_of(&skill.table).filter(|(key, _)| keys::is_spec(key)) {
        object.insert(key.into(), json!(value));
    }
    if !skill.table.allowed_tools.is_empty() {
        object.insert(
            "allowed-tools".into(),
            json!(skill.table.allowed_tools.join(" ")),
        );
    }
    if !skill.table.metadata.is_empty() {
        object.insert("metadata".into(), Value::Object(metadata(skill)));
    }
    Value::Object(object)
}

/// The skill directory's files, read (see [`crate::emit::lower::read_files`]),
/// and what was left out: `{"files": [{path, size, sha256, executable,
/// text, mime}], "skipped": [{path, reason}]}` (`show --files --format json`).
pub fn files(skill: &Skill, files: &[skills_core::File]) -> Value {
    let files: Vec<Value> = files
        .iter()
        .map(|file| {
            json!({
                "path": file.path(),
                "size": file.len(),
                "sha256": file.sha256_hex(),
                "executable": file.is_executable(),
                "text": file.text().is_some(),
                "mime": file.mime(),
            })
        })
        .collect();
    let skipped: Vec<Value> = skill
        .skipped
        .iter()
        .map(|skip| json!({"path": skip.path, "reason": skip.reason.to_string()}))
        .collect();
    json!({"files": files, "skipped": skipped})
}

fn full(skill: &Skill) -> Value {
    let protocol = match &skill.table.kind {
        Kind::Protocol(p) => json!({
            "steps": p.steps, "post_checks": p.post_checks, "preconditions": p.preconditions,
            "on_deviation": p.on_deviation, "on_blocked": p.on_blocked, "on_already_done": p.on_already_done,
        }),
        Kind::Skill => Value::Null,
    };
    let tools: Vec<Value> = skill
        .tools
        .iter()
        .map(|tool| {
            let hints = tool.hints();
            let mut shown = json!({
                "name": tool.name(),
                "description": tool.description(),
                "policy": tool.policy().as_str(),
                "method": tool.endpoint().map(|e| e.method().as_str()),
                "origin": tool.endpoint().map(|e| e.origin()),
                "parameters": tool.parameters_json(),
                "read_only": hints.read_only,
                "destructive": hints.destructive,
                "idempotent": hints.idempotent,
                "open_world": hints.open_world,
                "x-openai-isConsequential": hints.consequential,
            });
            if let Value::Object(fields) = &mut shown {
                fields.extend(held(&tool.table, keys::held_in(keys::TOOL)));
            }
            shown
        })
        .collect();
    let sections: Vec<Value> = skill
        .sections()
        .iter()
        .map(|s| json!({"title": s.title, "level": s.level}))
        .collect();
    let mut shown = json!({
        "name": skill.name(),
        "description": skill.description(),
        "path": skill.path(),
        "tools_path": skill.tools_path,
        "dir": skill.dir,
        "files": skill.files.iter().map(|f| json!({"path": f.path, "size": f.len, "executable": f.executable})).collect::<Vec<_>>(),
        "sha256": skill.sha256_hex(),
        "kind": skill.table.kind.as_str(),
        "protocol": protocol,
        "version": version(skill),
        "metadata": metadata(skill),
        "allowed_tools": skill.table.allowed_tools,
        "extras": skill.extras().into_iter().collect::<Map<String, Value>>(),
        "sections": sections,
        "tools": tools,
        "body": skill.body(),
    });
    if let Value::Object(fields) = &mut shown {
        fields.extend(held(&skill.table, KeyList::DECLARED.held()));
        // Only a nested skill has a prefix: every other skill's JSON is as it was.
        if let Some(prefix) = &skill.table.prefix {
            fields.insert("prefix".to_owned(), prefix.as_ref().into());
        }
    }
    shown
}

/// Every key the table holds as text or as a list of texts, as its
/// declaration says: `null` or a string, a list of strings.
pub(crate) fn held<'a, 'k: 'a, T: 'static>(
    table: &'a T,
    keys: impl Iterator<Item = (&'k str, Held<T>)> + 'a,
) -> impl Iterator<Item = (String, Value)> + 'a {
    keys.filter_map(|(name, held)| {
        let value = match held {
            Held::Text { get, .. } => get(table).into(),
            Held::Texts { get, .. } => get(table).into(),
            Held::Elsewhere => return None,
        };
        Some((name.replace('-', "_"), value))
    })
}
