//! Writing a skill back: the IR as `SKILL.md` text (and a sidecar
//! `tools.yaml` when the skill had one), in `cargo skills fmt`'s canonical
//! style. Reading what is written gives the same skill back:
//! `parse(write(skill)) == skill` up to where the text sits in the file.
//!
//! ```
//! # let base = std::env::temp_dir().join("skills-write-doc");
//! # std::fs::create_dir_all(base.join("skills/hello")).unwrap();
//! # std::fs::write(base.join("skills/hello/SKILL.md"),
//! #     "---\ndescription: 'Greets the user. Use when asked.'\nname: hello\n---\nSay hello.\n").unwrap();
//! let set = skills_compiler::compile(&base, &Default::default()).into_skills().unwrap();
//! let written = skills_compiler::write::files(&set.skills[0]);
//! assert_eq!(
//!     written.skill_md,
//!     "---\nname: hello\ndescription: Greets the user. Use when asked.\n---\n\nSay hello.\n"
//! );
//! ```

use crate::format;
use crate::ir::{
    BodyNode, DefaultMode, Endpoint, Kind, Parameters, Permissions, Skill, Template, TemplatePart,
    Tool, Type, Version,
};
use crate::yaml::{Entry, Node, Value};

/// A skill's files as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub skill_md: String,
    /// The sidecar, when the skill's tools and permissions live in one.
    pub tools_yaml: Option<String>,
}

/// The files of `skill`, canonical.
pub fn files(skill: &Skill) -> Written {
    let mut front = fields(skill);
    let tool_entries = tools_and_permissions(&skill.tools, &skill.permissions);
    let tools_yaml = if skill.tools_path.is_some() {
        Some(format::emit(&tool_entries))
    } else {
        front.extend(tool_entries);
        None
    };
    let mut skill_md = format!("---\n{}---\n", format::emit(&front));
    if !skill.body.is_empty() {
        skill_md.push('\n');
        skill_md.push_str(&skill.body);
    }
    Written {
        skill_md,
        tools_yaml,
    }
}

fn node(value: Value) -> Node {
    Node { span: 0..0, value }
}

fn string(text: &str) -> Node {
    node(Value::String(text.to_owned()))
}

fn strings<'a>(items: impl IntoIterator<Item = &'a str>) -> Node {
    node(Value::Seq(items.into_iter().map(string).collect()))
}

fn entry(key: &str, value: Node) -> Entry {
    Entry {
        key: key.to_owned(),
        key_span: 0..0,
        value,
    }
}

/// Everything but tools and permissions, in canonical order.
fn fields(skill: &Skill) -> Vec<Entry> {
    let mut out = vec![
        entry("name", string(skill.name.as_str())),
        entry("description", string(&skill.description)),
    ];
    let mut optional = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            out.push(entry(key, string(value)));
        }
    };
    optional("license", &skill.license);
    optional("compatibility", &skill.compatibility);
    if !skill.metadata.is_empty() {
        let map = skill
            .metadata
            .iter()
            .map(|(k, v)| entry(k, string(v)))
            .collect();
        out.push(entry("metadata", node(Value::Map(map))));
    }
    if !skill.allowed_tools.is_empty() {
        out.push(entry("allowed-tools", allowed_tools(&skill.allowed_tools)));
    }
    if let Kind::Protocol(p) = &skill.kind {
        out.extend(protocol(
            [&p.preconditions, &p.steps, &p.post_checks],
            [&p.on_deviation, &p.on_blocked, &p.on_already_done],
        ));
    }
    match &skill.version {
        Version::Number(1) => {}
        Version::Number(n) => out.push(entry(
            "version",
            node(Value::Int(i64::try_from(*n).unwrap_or(i64::MAX))),
        )),
        Version::Semver(text) | Version::Text(text) => out.push(entry("version", string(text))),
    }
    let mut optional = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            out.push(entry(key, string(value)));
        }
    };
    optional("area", &skill.area);
    for (key, items) in [("tags", &skill.tags), ("triggers", &skill.triggers)] {
        if !items.is_empty() {
            out.push(entry(key, strings(items.iter().map(String::as_str))));
        }
    }
    let mut optional = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            out.push(entry(key, string(value)));
        }
    };
    optional("app_slug", &skill.app_slug);
    optional("model_config", &skill.model_config);
    out.extend(skill.extras.iter().map(|(k, v)| entry(k, json(v))));
    out
}

/// `kind: protocol` and its fields: the lists (preconditions, steps,
/// post-checks) when not empty, and the three hatches.
fn protocol(lists: [&Vec<String>; 3], hatches: [&String; 3]) -> Vec<Entry> {
    let mut out = vec![entry("kind", string("protocol"))];
    for (key, items) in ["preconditions", "steps", "post_checks"]
        .into_iter()
        .zip(lists)
    {
        if !items.is_empty() {
            out.push(entry(key, strings(items.iter().map(String::as_str))));
        }
    }
    for (key, text) in ["on_deviation", "on_blocked", "on_already_done"]
        .into_iter()
        .zip(hatches)
    {
        out.push(entry(key, string(text)));
    }
    out
}

/// The specification's space-separated string; a list only when a tool
/// has a space in it (`Bash(ls *)`, which only `lenient` reads from a list).
fn allowed_tools(tools: &[String]) -> Node {
    if tools.iter().any(|tool| tool.contains(char::is_whitespace)) {
        strings(tools.iter().map(String::as_str))
    } else {
        string(&tools.join(" "))
    }
}

fn tools_and_permissions(tools: &[Tool], permissions: &Permissions) -> Vec<Entry> {
    let mut out = Vec::new();
    if !tools.is_empty() {
        out.push(entry(
            "tools",
            node(Value::Seq(tools.iter().map(tool).collect())),
        ));
    }
    let mut map = Vec::new();
    if permissions.default_mode == DefaultMode::Confirm {
        map.push(entry("default_mode", string("confirm")));
    }
    for (key, names) in [
        ("require_confirmation", &permissions.require_confirmation),
        ("allow_write", &permissions.allow_write),
    ] {
        if !names.is_empty() {
            map.push(entry(key, strings(names.iter().map(|n| n.as_str()))));
        }
    }
    if !map.is_empty() {
        out.push(entry("permissions", node(Value::Map(map))));
    }
    out
}

fn tool(tool: &Tool) -> Node {
    let mut map = vec![
        entry("name", string(tool.name.as_str())),
        entry("description", string(&tool.description)),
        entry(
            "parameters",
            schema(&tool.parameters_json, &tool.parameters),
        ),
    ];
    if let Some(endpoint) = &tool.endpoint {
        map.push(entry("endpoint", self::endpoint(endpoint)));
    }
    node(Value::Map(map))
}

fn endpoint(endpoint: &Endpoint) -> Node {
    let mut map = vec![
        entry("method", string(endpoint.method.as_str())),
        entry(
            "url",
            string(&format!("{}{}", endpoint.origin, template(&endpoint.path))),
        ),
    ];
    for (key, pairs) in [("query", &endpoint.query), ("header", &endpoint.headers)] {
        if !pairs.is_empty() {
            let pairs = pairs
                .iter()
                .map(|(name, value)| entry(name, string(&template(value))))
                .collect();
            map.push(entry(key, node(Value::Map(pairs))));
        }
    }
    if let Some(body) = &endpoint.body {
        map.push(entry("body", string(&body_text(&body.root))));
    }
    node(Value::Map(map))
}

/// A template as written: literal text and `{{name}}` placeholders.
fn template(template: &Template) -> String {
    parts(&template.parts)
}

fn parts(parts: &[TemplatePart]) -> String {
    parts
        .iter()
        .map(|part| match part {
            TemplatePart::Literal(text) => text.clone(),
            TemplatePart::Param(name) => format!("{{{{{name}}}}}"),
        })
        .collect()
}

/// A body template as the JSON text with placeholders it was parsed from.
fn body_text(node: &BodyNode) -> String {
    match node {
        BodyNode::Text(text) => text.clone(),
        BodyNode::Value(name) => format!("{{{{{name}}}}}"),
        BodyNode::String(string_parts) => format!("\"{}\"", parts(string_parts)),
        BodyNode::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(key, value)| format!("{key}: {}", body_text(value)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
        BodyNode::Array(items) => {
            let items: Vec<String> = items.iter().map(body_text).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

/// A tool's parameter schema as a YAML tree, properties and `$defs` in the
/// order the skill declared them: serde_json keeps object keys sorted, but
/// the typed parameters keep declaration order, and reading the written
/// file back must give the same order.
fn schema(json: &serde_json::Value, parameters: &Parameters) -> Node {
    let root = Type::Object(parameters.root.clone());
    let mut node = typed(json, Some(&root));
    if let (Value::Map(entries), Some(defs)) = (&mut node.value, json.get("$defs")) {
        for entry in entries.iter_mut().filter(|e| e.key == "$defs") {
            let ordered = parameters
                .defs
                .iter()
                .filter_map(|(name, ty)| Some(self::entry(name, typed(defs.get(name)?, Some(ty)))))
                .collect();
            entry.value = self::node(Value::Map(ordered));
        }
    }
    node
}

/// `json` as a tree; where `ty` says what the schema describes, object
/// properties follow the declared order.
fn typed(json: &serde_json::Value, ty: Option<&Type>) -> Node {
    let ty = match ty {
        Some(Type::Nullable(inner)) => Some(&**inner),
        other => other,
    };
    let serde_json::Value::Object(map) = json else {
        return self::json(json);
    };
    let entries = type_first(map.iter())
        .map(|(key, value)| {
            let value = match (key.as_str(), ty) {
                ("properties", Some(Type::Object(object))) => {
                    let ordered = object
                        .properties
                        .iter()
                        .filter_map(|p| {
                            Some(entry(&p.name, typed(value.get(&p.name)?, Some(&p.ty))))
                        })
                        .collect();
                    node(Value::Map(ordered))
                }
                ("items", Some(Type::Array(inner, _))) => typed(value, Some(inner)),
                ("additionalProperties", Some(Type::Map(inner, _))) => typed(value, Some(inner)),
                _ => self::json(value),
            };
            entry(key, value)
        })
        .collect();
    node(Value::Map(entries))
}

/// Object members with `type` first, as schemas are read (serde_json
/// sorts the rest).
fn type_first<'a>(
    members: impl Iterator<Item = (&'a String, &'a serde_json::Value)>,
) -> impl Iterator<Item = (&'a String, &'a serde_json::Value)> {
    let (first, rest): (Vec<_>, Vec<_>) = members.partition(|(key, _)| *key == "type");
    first.into_iter().chain(rest)
}

/// A JSON value as a YAML tree.
fn json(value: &serde_json::Value) -> Node {
    use serde_json::Value as Json;
    node(match value {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::String(s.clone()),
        Json::Array(items) => Value::Seq(items.iter().map(json).collect()),
        Json::Object(map) => Value::Map(
            type_first(map.iter())
                .map(|(k, v)| entry(k, json(v)))
                .collect(),
        ),
    })
}

/// A protocol's fields, for [`SkillBuilder::protocol`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtocolSpec {
    pub preconditions: Vec<String>,
    pub steps: Vec<String>,
    pub post_checks: Vec<String>,
    pub on_deviation: String,
    pub on_blocked: String,
    pub on_already_done: String,
}

/// A tool, for [`SkillBuilder::tool`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// A JSON Schema object, e.g. `{"type": "object", "properties": {}}`.
    pub parameters: serde_json::Value,
    pub endpoint: Option<EndpointSpec>,
}

/// An HTTP endpoint as written in a skill: templates with `{{param}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EndpointSpec {
    pub method: String,
    pub url: String,
    pub query: Vec<(String, String)>,
    pub header: Vec<(String, String)>,
    pub body: Option<String>,
}

/// A skill built in code, written in the canonical style and checked by
/// the compiler: what `cargo skills new` scaffolds with.
///
/// ```
/// use skills_compiler::write::{SkillBuilder, ToolSpec};
///
/// let written = SkillBuilder::new("deploy", "Deploys the app. Use when asked to ship.")
///     .tag("ops")
///     .tool(ToolSpec {
///         name: "run_job".into(),
///         description: "Runs the deploy job. Call it once the user confirms.".into(),
///         parameters: serde_json::json!({"type": "object", "properties": {}}),
///         endpoint: None,
///     })
///     .body("# Deploy\n\nRun the job.\n")
///     .build(&Default::default())
///     .unwrap();
/// assert!(written.skill_md.starts_with("---\nname: deploy\ndescription: Deploys the app."));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkillBuilder {
    name: String,
    description: String,
    license: Option<String>,
    compatibility: Option<String>,
    metadata: Vec<(String, String)>,
    allowed_tools: Vec<String>,
    tags: Vec<String>,
    triggers: Vec<String>,
    protocol: Option<ProtocolSpec>,
    tools: Vec<ToolSpec>,
    confirm_by_default: bool,
    require_confirmation: Vec<String>,
    allow_write: Vec<String>,
    tools_in_sidecar: bool,
    body: String,
}

impl SkillBuilder {
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        SkillBuilder {
            name: name.into(),
            description: description.into(),
            ..SkillBuilder::default()
        }
    }

    pub fn license(mut self, license: impl Into<String>) -> Self {
        self.license = Some(license.into());
        self
    }

    pub fn compatibility(mut self, text: impl Into<String>) -> Self {
        self.compatibility = Some(text.into());
        self
    }

    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.push((key.into(), value.into()));
        self
    }

    pub fn allowed_tool(mut self, tool: impl Into<String>) -> Self {
        self.allowed_tools.push(tool.into());
        self
    }

    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tags.push(tag.into());
        self
    }

    pub fn trigger(mut self, trigger: impl Into<String>) -> Self {
        self.triggers.push(trigger.into());
        self
    }

    pub fn protocol(mut self, protocol: ProtocolSpec) -> Self {
        self.protocol = Some(protocol);
        self
    }

    pub fn tool(mut self, tool: ToolSpec) -> Self {
        self.tools.push(tool);
        self
    }

    /// `permissions.default_mode: confirm`.
    pub fn confirm_by_default(mut self) -> Self {
        self.confirm_by_default = true;
        self
    }

    pub fn require_confirmation(mut self, tool: impl Into<String>) -> Self {
        self.require_confirmation.push(tool.into());
        self
    }

    pub fn allow_write(mut self, tool: impl Into<String>) -> Self {
        self.allow_write.push(tool.into());
        self
    }

    /// Tools and permissions in a sidecar `tools.yaml` (SKILL.md stays portable).
    pub fn tools_in_sidecar(mut self, sidecar: bool) -> Self {
        self.tools_in_sidecar = sidecar;
        self
    }

    pub fn body(mut self, body: impl Into<String>) -> Self {
        self.body = body.into();
        self
    }

    /// The skill's files, canonical, once the compiler accepts them under
    /// `config`; otherwise its errors. Warnings (a placeholder, say) pass.
    pub fn build(&self, config: &crate::Config) -> Result<Written, Vec<crate::Diagnostic>> {
        let written = self.written();
        let files = crate::validate::SkillFiles {
            path: format!("skills/{}/SKILL.md", self.name),
            directory: self.name.clone(),
            bytes: written.skill_md.clone().into_bytes(),
            tools_yaml: written.tools_yaml.clone().map(|text| {
                (
                    format!("skills/{}/tools.yaml", self.name),
                    text.into_bytes(),
                )
            }),
        };
        let mut sources = crate::Sources::default();
        let mut diagnostics = Vec::new();
        crate::validate::skill(files, config, &mut sources, &mut diagnostics);
        let errors: Vec<crate::Diagnostic> =
            diagnostics.into_iter().filter(|d| d.is_error()).collect();
        if errors.is_empty() {
            Ok(written)
        } else {
            Err(errors)
        }
    }

    fn written(&self) -> Written {
        let mut front = vec![
            entry("name", string(&self.name)),
            entry("description", string(&self.description)),
        ];
        for (key, value) in [
            ("license", &self.license),
            ("compatibility", &self.compatibility),
        ] {
            if let Some(value) = value {
                front.push(entry(key, string(value)));
            }
        }
        if !self.metadata.is_empty() {
            let map = self
                .metadata
                .iter()
                .map(|(k, v)| entry(k, string(v)))
                .collect();
            front.push(entry("metadata", node(Value::Map(map))));
        }
        if !self.allowed_tools.is_empty() {
            front.push(entry("allowed-tools", allowed_tools(&self.allowed_tools)));
        }
        if let Some(p) = &self.protocol {
            front.extend(protocol(
                [&p.preconditions, &p.steps, &p.post_checks],
                [&p.on_deviation, &p.on_blocked, &p.on_already_done],
            ));
        }
        for (key, items) in [("tags", &self.tags), ("triggers", &self.triggers)] {
            if !items.is_empty() {
                front.push(entry(key, strings(items.iter().map(String::as_str))));
            }
        }
        let mut tools = Vec::new();
        if !self.tools.is_empty() {
            let items = self.tools.iter().map(tool_spec).collect();
            tools.push(entry("tools", node(Value::Seq(items))));
        }
        let mut permissions = Vec::new();
        if self.confirm_by_default {
            permissions.push(entry("default_mode", string("confirm")));
        }
        for (key, names) in [
            ("require_confirmation", &self.require_confirmation),
            ("allow_write", &self.allow_write),
        ] {
            if !names.is_empty() {
                permissions.push(entry(key, strings(names.iter().map(String::as_str))));
            }
        }
        if !permissions.is_empty() {
            tools.push(entry("permissions", node(Value::Map(permissions))));
        }
        let tools_yaml = if self.tools_in_sidecar && !tools.is_empty() {
            Some(format::emit(&tools))
        } else {
            front.extend(tools);
            None
        };
        let mut skill_md = format!("---\n{}---\n", format::emit(&front));
        if !self.body.is_empty() {
            skill_md.push('\n');
            skill_md.push_str(&self.body);
        }
        Written {
            skill_md,
            tools_yaml,
        }
    }
}

fn tool_spec(tool: &ToolSpec) -> Node {
    let mut map = vec![
        entry("name", string(&tool.name)),
        entry("description", string(&tool.description)),
        entry("parameters", json(&tool.parameters)),
    ];
    if let Some(endpoint) = &tool.endpoint {
        let mut fields = vec![
            entry("method", string(&endpoint.method)),
            entry("url", string(&endpoint.url)),
        ];
        for (key, pairs) in [("query", &endpoint.query), ("header", &endpoint.header)] {
            if !pairs.is_empty() {
                let pairs = pairs.iter().map(|(k, v)| entry(k, string(v))).collect();
                fields.push(entry(key, node(Value::Map(pairs))));
            }
        }
        if let Some(body) = &endpoint.body {
            fields.push(entry("body", string(body)));
        }
        map.push(entry("endpoint", node(Value::Map(fields))));
    }
    node(Value::Map(map))
}
