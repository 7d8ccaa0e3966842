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
//! let written = skills_compiler::ops::fmt::files(&set.skills[0]);
//! assert_eq!(
//!     written.skill_md,
//!     "---\nname: hello\ndescription: Greets the user. Use when asked.\n---\n\nSay hello.\n"
//! );
//! ```

use crate::ir::{
    DefaultMode, Kind, List, Parameters, Part, Protocol, Skill, Str, Tool, Type, Version,
};
use crate::read::yaml::{Entry, Node, Value};
use crate::validate::keys::{self, Field, Held, KeyList};
use crate::write::format;
use skills_core::template_text;

/// A skill's files as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The skill file.
    pub skill_md: String,
    /// The sidecar, when the skill's tools and permissions live in one.
    pub tools_yaml: Option<String>,
}

/// The files of `skill`, canonical: the skill as a [`SkillBuilder`], so
/// that one function writes every skill.
pub fn files(skill: &Skill) -> Written {
    SkillBuilder::from_skill(skill).written()
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

/// `kind: protocol` and its fields: the lists (preconditions, steps,
/// post-checks) when not empty, and the three hatches.
fn protocol(p: &Protocol) -> Vec<Entry> {
    let mut out = vec![entry("kind", string("protocol"))];
    let lists = [
        ("preconditions", &p.preconditions),
        ("steps", &p.steps),
        ("post_checks", &p.post_checks),
    ];
    for (key, items) in lists {
        if !items.is_empty() {
            out.push(entry(key, strings(items.iter().map(|item| &**item))));
        }
    }
    let hatches = [
        ("on_deviation", &p.on_deviation),
        ("on_blocked", &p.on_blocked),
        ("on_already_done", &p.on_already_done),
    ];
    for (key, text) in hatches {
        out.push(entry(key, string(text)));
    }
    out
}

/// `version`, unless it is the default (1).
fn version(version: &Version) -> Option<Node> {
    match version {
        Version::Number(1) => None,
        Version::Number(n) => Some(node(Value::Int(i64::try_from(*n).unwrap_or(i64::MAX)))),
        Version::Semver(text) | Version::Text(text) => Some(string(text)),
    }
}

/// The specification's space-separated string; a list only when a tool
/// has a space in it (`Bash(ls *)`, which only `lenient` reads from a list).
fn allowed_tools(tools: &[Str]) -> Node {
    if tools.iter().any(|tool| tool.contains(char::is_whitespace)) {
        strings(tools.iter().map(|tool| &**tool))
    } else {
        string(&tools.join(" "))
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
    /// What must hold before the first step.
    pub preconditions: Vec<String>,
    /// The steps, in order.
    pub steps: Vec<String>,
    /// What to check after the last step.
    pub post_checks: Vec<String>,
    /// What to do when a step goes other than planned.
    pub on_deviation: String,
    /// What to do when a step cannot be done.
    pub on_blocked: String,
    /// What to do when the work is done already.
    pub on_already_done: String,
}

/// A tool, for [`SkillBuilder::tool`]. The fields a tool may leave out
/// have defaults: `..ToolSpec::default()` (no title, no parameters, no
/// endpoint).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// The tool's name.
    pub name: String,
    /// A name for people, which a client shows in place of `name` (MCP's
    /// `title`).
    pub title: Option<String>,
    /// What it does, for the model.
    pub description: String,
    /// A JSON Schema object, e.g. `{"type": "object", "properties": {}}`.
    pub parameters: serde_json::Value,
    /// The HTTP request it makes, when it makes one.
    pub endpoint: Option<EndpointSpec>,
}

/// An HTTP endpoint as written in a skill: templates with `{{param}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EndpointSpec {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The URL template.
    pub url: String,
    /// Query parameters: name and template.
    pub query: Vec<(String, String)>,
    /// Headers: name and template.
    pub header: Vec<(String, String)>,
    /// The body template.
    pub body: Option<String>,
}

/// A skill built in code, written in the canonical style and checked by
/// the compiler: what `cargo skills new` scaffolds with.
///
/// ```
/// use skills_compiler::ops::new::{SkillBuilder, ToolSpec};
///
/// let written = SkillBuilder::new("deploy", "Deploys the app. Use when asked to ship.")
///     .tag("ops")
///     .tool(ToolSpec {
///         name: "run_job".into(),
///         title: Some("Run the deploy job".into()),
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
    /// The frontmatter's values and the body, where the runtime's table
    /// holds them: what reading the written file gives back.
    table: skills_core::Skill,
    tools: Vec<ToolSpec>,
    confirm_by_default: bool,
    require_confirmation: Vec<String>,
    allow_write: Vec<String>,
    tools_in_sidecar: bool,
    /// Each compiled tool, beside its spec: its checked parameters, to
    /// write properties in declared order, and its table, for the keys held
    /// by their declaration alone (`title`).
    compiled: Vec<Option<Tool>>,
}

impl SkillBuilder {
    /// A compiled skill, to write it back: its table as it is.
    fn from_skill(skill: &Skill) -> Self {
        let names = |tools: &[crate::ir::ToolName]| tools.iter().map(|t| t.to_string()).collect();
        SkillBuilder {
            table: skill.table.clone(),
            tools: skill.tools.iter().map(tool_spec_of).collect(),
            confirm_by_default: skill.permissions.default_mode == DefaultMode::Confirm,
            require_confirmation: names(&skill.permissions.require_confirmation),
            allow_write: names(&skill.permissions.allow_write),
            tools_in_sidecar: skill.tools_path.is_some(),
            compiled: skill.tools.iter().cloned().map(Some).collect(),
        }
    }

    /// The frontmatter of a skill whose table is `table`, written with the
    /// keys `list` declares, in canonical order: for tests of a declaration.
    #[cfg(test)]
    pub(crate) fn frontmatter_of(table: skills_core::Skill, list: KeyList<'_>) -> String {
        let builder = SkillBuilder {
            table,
            ..SkillBuilder::default()
        };
        format::emit_in(&builder.frontmatter_in(list).0, list)
    }

    /// A skill named `name` with `description`, and nothing else yet.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        let mut builder = SkillBuilder::default();
        builder.table.name = Str::Owned(name.into());
        builder.table.description = Str::Owned(description.into());
        builder
    }

    /// Sets the key `name` to `value`, where the key declarations say the
    /// table holds it: a text key (`license`, `compatibility`, `area`,
    /// `when_to_use`...) is set, a list of texts (`tags`, `triggers`) gets
    /// `value` added. One setter for every such key, so a key declared
    /// tomorrow needs no setter of its own. A key held otherwise (`name`,
    /// `metadata`, `allowed-tools`, a protocol's, `tools`) has its own
    /// setter, and a key that is not declared is refused with the closest
    /// one; either way the message says so.
    ///
    /// ```
    /// use skills_compiler::ops::new::SkillBuilder;
    ///
    /// let skill = SkillBuilder::new("deploy", "Deploys. Use when shipping.")
    ///     .key("license", "MIT")?
    ///     .key("tags", "ops")?
    ///     .key("tags", "release")?;
    /// let text = skill.build(&Default::default()).unwrap().skill_md;
    /// assert!(text.contains("license: MIT\n"), "{text}");
    /// assert!(text.contains("- ops\n") && text.contains("- release\n"), "{text}");
    /// assert!(SkillBuilder::new("a", "b").key("licence", "MIT").is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn key(mut self, name: &str, value: impl Into<String>) -> Result<Self, String> {
        let Some(key) = keys::find(name) else {
            let known = KeyList::DECLARED.0.iter().map(|key| key.name);
            let hint = crate::diagnostics::closest(name, known)
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            return Err(format!("`{name}` is not a frontmatter key{hint}"));
        };
        let value = Str::Owned(value.into());
        match key.held {
            Held::Text { set, .. } => set(&mut self.table, Some(value)),
            Held::Texts { get, set } => {
                let mut list = get(&self.table).to_vec();
                list.push(value);
                set(&mut self.table, list.into());
            }
            Held::Elsewhere => {
                return Err(format!(
                    "`{name}` is not a text or a list of texts: set it with its own method"
                ));
            }
        }
        Ok(self)
    }

    /// `license`.
    pub fn license(mut self, license: impl Into<String>) -> Self {
        self.table.license = Some(Str::Owned(license.into()));
        self
    }

    /// `compatibility`.
    pub fn compatibility(mut self, text: impl Into<String>) -> Self {
        self.table.compatibility = Some(Str::Owned(text.into()));
        self
    }

    /// Adds a `metadata` entry.
    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let entry = (Str::Owned(key.into()), Str::Owned(value.into()));
        self.table.metadata.to_mut().push(entry);
        self
    }

    /// Adds a tool to `allowed-tools`.
    pub fn allowed_tool(mut self, tool: impl Into<String>) -> Self {
        self.table
            .allowed_tools
            .to_mut()
            .push(Str::Owned(tool.into()));
        self
    }

    /// Adds a tag.
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.table.tags.to_mut().push(Str::Owned(tag.into()));
        self
    }

    /// Adds a trigger phrase.
    pub fn trigger(mut self, trigger: impl Into<String>) -> Self {
        self.table
            .triggers
            .to_mut()
            .push(Str::Owned(trigger.into()));
        self
    }

    /// Makes the skill a protocol with these fields.
    pub fn protocol(mut self, protocol: ProtocolSpec) -> Self {
        let texts = |texts: Vec<String>| texts.into_iter().map(Str::Owned).collect();
        self.table.kind = Kind::Protocol(std::borrow::Cow::Owned(Protocol {
            preconditions: texts(protocol.preconditions),
            steps: texts(protocol.steps),
            post_checks: texts(protocol.post_checks),
            on_deviation: Str::Owned(protocol.on_deviation),
            on_blocked: Str::Owned(protocol.on_blocked),
            on_already_done: Str::Owned(protocol.on_already_done),
        }));
        self
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: ToolSpec) -> Self {
        self.tools.push(tool);
        self.compiled.push(None);
        self
    }

    /// `permissions.default_mode: confirm`.
    pub fn confirm_by_default(mut self) -> Self {
        self.confirm_by_default = true;
        self
    }

    /// `permissions.require_confirmation`: adds a tool.
    pub fn require_confirmation(mut self, tool: impl Into<String>) -> Self {
        self.require_confirmation.push(tool.into());
        self
    }

    /// `permissions.allow_write`: adds a tool.
    pub fn allow_write(mut self, tool: impl Into<String>) -> Self {
        self.allow_write.push(tool.into());
        self
    }

    /// Tools and permissions in a sidecar `tools.yaml` (SKILL.md stays portable).
    pub fn tools_in_sidecar(mut self, sidecar: bool) -> Self {
        self.tools_in_sidecar = sidecar;
        self
    }

    /// The markdown body.
    pub fn body(mut self, body: impl Into<String>) -> Self {
        // Until it is written, the table's text is the body alone.
        self.table.source = Str::Owned(body.into());
        self.table.body_start = 0;
        self
    }

    /// The skill's files, canonical, once the compiler accepts them under
    /// `config`; otherwise its errors. Warnings (a placeholder, say) pass.
    pub fn build(
        &self,
        config: &crate::config::Config,
    ) -> Result<Written, Vec<crate::diagnostics::Diagnostic>> {
        let written = self.written();
        let files = crate::read::discover::SkillFiles {
            dir: None,
            path: format!("skills/{}/SKILL.md", self.table.name),
            directory: self.table.name.to_string(),
            bytes: written.skill_md.clone().into_bytes(),
            tools_yaml: written.tools_yaml.clone().map(|text| {
                (
                    format!("skills/{}/tools.yaml", self.table.name),
                    text.into_bytes(),
                )
            }),
        };
        let (_, diagnostics) = crate::pipeline::compile_one(files, config);
        let errors: Vec<crate::diagnostics::Diagnostic> =
            diagnostics.into_iter().filter(|d| d.is_error()).collect();
        if errors.is_empty() {
            Ok(written)
        } else {
            Err(errors)
        }
    }

    fn written(&self) -> Written {
        let mut front = self.frontmatter();
        let mut tools = Map::default();
        if !self.tools.is_empty() {
            let items = self
                .tools
                .iter()
                .zip(&self.compiled)
                .map(|(tool, compiled)| tool_spec(tool, compiled.as_ref()))
                .collect();
            tools = tools.node("tools", node(Value::Seq(items)));
        }
        let mut permissions = Map::default();
        if self.confirm_by_default {
            permissions = permissions.text("default_mode", "confirm");
        }
        permissions = permissions
            .list("require_confirmation", &self.require_confirmation)
            .list("allow_write", &self.allow_write);
        if !permissions.0.is_empty() {
            tools = tools.node("permissions", permissions.declared(keys::PERMISSIONS));
        }
        let tools_yaml = if self.tools_in_sidecar && !tools.0.is_empty() {
            Some(format::emit(&tools.0))
        } else {
            front.0.extend(tools.0);
            None
        };
        let mut skill_md = format!("---\n{}---\n", format::emit(&front.0));
        let body = self.table.body();
        if !body.is_empty() {
            skill_md.push('\n');
            skill_md.push_str(body);
        }
        Written {
            skill_md,
            tools_yaml,
        }
    }

    /// The frontmatter's keys: each key the table holds as text or as a
    /// list of texts through its declaration, the others by their own
    /// code. `format::emit` puts them in canonical order.
    fn frontmatter(&self) -> Map {
        self.frontmatter_in(KeyList::DECLARED)
    }

    /// [`SkillBuilder::frontmatter`] with the keys `list` declares.
    fn frontmatter_in(&self, list: KeyList<'_>) -> Map {
        let table = &self.table;
        let mut front = Map::default()
            .text("name", table.name())
            .text("description", table.description())
            .pairs("metadata", &table.metadata);
        for key in list.0 {
            front = front.held(key.name, key.held, table);
        }
        if !table.allowed_tools.is_empty() {
            front = front.node("allowed-tools", allowed_tools(&table.allowed_tools));
        }
        if let Kind::Protocol(p) = &table.kind {
            front.0.extend(protocol(p));
        }
        if let Some(version) = version(&table.version) {
            front = front.node("version", version);
        }
        for (key, value) in table.extras() {
            let value = serde_json::from_str(value).unwrap_or_default();
            front = front.node(key, json(&value));
        }
        front
    }
}

/// A YAML mapping built in order; empty lists and maps and absent values
/// are left out.
#[derive(Default)]
struct Map(Vec<Entry>);

impl Map {
    /// The mapping, its keys in the order `fields` declares.
    fn declared<T>(mut self, fields: &[Field<T>]) -> Node {
        self.0
            .sort_by_key(|entry| keys::rank_in(fields, &entry.key));
        node(Value::Map(self.0))
    }

    /// The key `key` the table holds as `held` says (nothing for a key
    /// held elsewhere).
    fn held<T>(self, key: &str, held: Held<T>, table: &T) -> Self {
        match held {
            Held::Text { get, .. } => self.optional(key, get(table)),
            Held::Texts { get, .. } => self.list(key, get(table)),
            Held::Elsewhere => self,
        }
    }

    fn node(mut self, key: &str, value: Node) -> Self {
        self.0.push(entry(key, value));
        self
    }

    fn text(self, key: &str, value: &str) -> Self {
        self.node(key, string(value))
    }

    fn optional(self, key: &str, value: Option<&str>) -> Self {
        match value {
            Some(value) => self.text(key, value),
            None => self,
        }
    }

    fn list<T: AsRef<str>>(self, key: &str, items: &[T]) -> Self {
        if items.is_empty() {
            return self;
        }
        self.node(key, strings(items.iter().map(AsRef::as_ref)))
    }

    fn pairs<K: AsRef<str>, V: AsRef<str>>(self, key: &str, pairs: &[(K, V)]) -> Self {
        if pairs.is_empty() {
            return self;
        }
        let map = (pairs.iter())
            .map(|(k, v)| entry(k.as_ref(), string(v.as_ref())))
            .collect();
        self.node(key, node(Value::Map(map)))
    }
}

impl Default for ToolSpec {
    /// A tool that takes no arguments: its parameters are the empty object
    /// schema, what a tool without `parameters` gets when it is read.
    fn default() -> Self {
        ToolSpec {
            name: String::new(),
            title: None,
            description: String::new(),
            parameters: serde_json::json!({"type": "object", "properties": {}}),
            endpoint: None,
        }
    }
}

impl ToolSpec {
    /// What the runtime's table of the tool holds of this spec: the keys
    /// held by their declaration alone (`title`), for the writer.
    fn table(&self) -> skills_core::Tool {
        skills_core::Tool {
            title: self.title.clone().map(Str::Owned),
            ..skills_core::Tool::default()
        }
    }
}

/// A compiled tool as written: the endpoint's templates printed back (the
/// URL's query moves into `query`).
fn tool_spec_of(tool: &Tool) -> ToolSpec {
    let pairs = |pairs: &[(Str, List<Part>)]| {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), template_text(value)))
            .collect()
    };
    ToolSpec {
        name: tool.name().to_string(),
        title: tool.table.title.as_deref().map(str::to_owned),
        description: tool.description().to_owned(),
        parameters: tool.parameters_json(),
        endpoint: tool.endpoint().map(|endpoint| EndpointSpec {
            method: endpoint.method.as_str().to_owned(),
            url: format!("{}{}", endpoint.origin, template_text(&endpoint.path)),
            query: pairs(&endpoint.query),
            header: pairs(&endpoint.headers),
            body: endpoint.body.as_ref().map(|body| body.text(true)),
        }),
    }
}

fn tool_spec(tool: &ToolSpec, compiled: Option<&Tool>) -> Node {
    let parameters = match compiled {
        Some(compiled) => schema(&tool.parameters, &compiled.parameters),
        None => json(&tool.parameters),
    };
    let mut map = Map::default()
        .text("name", &tool.name)
        .text("description", &tool.description)
        .node("parameters", parameters);
    // The keys the runtime's table holds are written from a table, as the
    // declarations say: a compiled tool's own, or one made of the spec.
    let made;
    let table = match compiled {
        Some(compiled) => &compiled.table,
        None => {
            made = tool.table();
            &made
        }
    };
    for field in keys::TOOL {
        map = map.held(field.name, field.held, table);
    }
    if let Some(endpoint) = &tool.endpoint {
        let fields = Map::default()
            .text("method", &endpoint.method)
            .text("url", &endpoint.url)
            .pairs("query", &endpoint.query)
            .pairs("header", &endpoint.header)
            .optional("body", endpoint.body.as_deref());
        map = map.node("endpoint", fields.declared(keys::ENDPOINT));
    }
    map.declared(keys::TOOL)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `key` reaches every key the declarations hold as text or as a list
    /// of texts, and refuses the others: the declarations drive it.
    #[test]
    fn key_sets_every_key_held_as_text_and_refuses_the_others() {
        for declared in KeyList::DECLARED.0 {
            let set = SkillBuilder::new("a", "b").key(declared.name, "x");
            match declared.held {
                Held::Text { get, .. } => {
                    let table = set.unwrap().table;
                    assert_eq!(get(&table), Some("x"), "{}", declared.name);
                }
                Held::Texts { get, .. } => {
                    let table = set.unwrap().key(declared.name, "y").unwrap().table;
                    let values: Vec<&str> = get(&table).iter().map(|v| &**v).collect();
                    assert_eq!(values, ["x", "y"], "{}", declared.name);
                }
                Held::Elsewhere => assert!(set.is_err(), "{}", declared.name),
            }
        }
        let unknown = SkillBuilder::new("a", "b").key("licence", "MIT").err();
        assert_eq!(
            unknown.as_deref(),
            Some("`licence` is not a frontmatter key; did you mean `license`?")
        );
    }
}
