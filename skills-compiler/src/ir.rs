//! The typed intermediate representation: what the code generator consumes.
//!
//! Everything here has been validated. Names are checked types, templates are
//! parsed into parts, schemas are resolved into a type tree, and each tool's
//! policy is decided. Skills are sorted by name.

use std::fmt;
use std::ops::Range;

/// Every valid skill of a root, sorted by name.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillSet {
    pub skills: Vec<Skill>,
}

impl SkillSet {
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills
            .binary_search_by(|skill| skill.name.as_str().cmp(name))
            .ok()
            .map(|index| &self.skills[index])
    }
}

/// A skill name that passed the name rules (NFKC-normalised).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SkillName(pub(crate) String);

impl SkillName {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SkillName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A tool name that matches `^[A-Za-z][A-Za-z0-9_-]{0,63}$`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ToolName(pub(crate) String);

impl ToolName {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    pub name: SkillName,
    /// The skill file, relative to the crate root (forward slashes).
    pub path: String,
    /// The sidecar `tools.yaml`, when the skill has one.
    pub tools_path: Option<String>,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    /// In source order; values coerced to text.
    pub metadata: Vec<(String, String)>,
    pub allowed_tools: Vec<String>,
    pub kind: Kind,
    pub triggers: Vec<String>,
    pub tags: Vec<String>,
    pub area: Option<String>,
    pub version: Version,
    pub app_slug: Option<String>,
    pub model_config: Option<String>,
    /// `x-*` keys and keys of well-known clients, verbatim, in source order.
    pub extras: Vec<(String, serde_json::Value)>,
    pub body: String,
    /// The file's text before the body (fences, frontmatter, blank lines):
    /// `head + body` is the file, whose SHA-256 is [`Skill::sha256_hex`].
    pub head: String,
    /// Where the description's value is in the file as read (bytes), for
    /// lints over the whole set; `None` when `lenient` derived it.
    pub description_span: Option<Range<usize>>,
    pub tools: Vec<Tool>,
    pub permissions: Permissions,
}

impl Skill {
    /// The skill file's text: `head + body`.
    pub fn source_text(&self) -> String {
        [self.head.as_str(), self.body.as_str()].concat()
    }

    /// The body's headings, each with the text it governs. Computed when asked
    /// for (code generation, `show`), not while checking: the heading tree is
    /// most of the time a check would otherwise take (BENCHMARKS.md).
    pub fn sections(&self) -> Vec<Section> {
        crate::markdown::sections(&self.body)
    }

    /// SHA-256 of the skill file, lower-case hex. Computed when asked for
    /// (code generation, `inspect`, the loader): a check does not need it.
    pub fn sha256_hex(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::new()
            .chain_update(&self.head)
            .chain_update(&self.body)
            .finalize();
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Skill,
    Protocol(Protocol),
}

/// A strict order of actions, with what to do when reality differs from the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protocol {
    pub steps: Vec<String>,
    pub post_checks: Vec<String>,
    pub preconditions: Vec<String>,
    pub on_deviation: String,
    pub on_blocked: String,
    pub on_already_done: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Version {
    Number(u64),
    Semver(String),
    /// Neither, as written (`version: 1.0` in `lenient`).
    Text(String),
}

/// A markdown heading of the body and the text it governs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// 1 for `#`, 6 for `######`.
    pub level: u8,
    pub title: String,
    /// Byte range in the body: from the heading to the next heading of the same or a higher level.
    pub range: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultMode {
    Readonly,
    Confirm,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permissions {
    pub default_mode: DefaultMode,
    pub require_confirmation: Vec<ToolName>,
    pub allow_write: Vec<ToolName>,
}

impl Default for Permissions {
    fn default() -> Self {
        Permissions {
            default_mode: DefaultMode::Readonly,
            require_confirmation: Vec::new(),
            allow_write: Vec::new(),
        }
    }
}

/// What the runtime does when the model calls a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    Allow,
    Confirm,
    Deny,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: ToolName,
    pub description: String,
    pub parameters: Parameters,
    /// The parameter schema for model APIs: as declared, with what the
    /// checker enforces made explicit (`type`, `additionalProperties: false`,
    /// `null` in a nullable `enum`), so that any JSON Schema validator agrees.
    pub parameters_json: serde_json::Value,
    /// Whether the schema qualifies for OpenAI's strict mode.
    pub strict: bool,
    pub endpoint: Option<Endpoint>,
    pub policy: Policy,
}

impl Tool {
    /// The tool's effects, from its method and policy: computed here, once,
    /// for the generated tables and the CLI alike.
    pub fn hints(&self) -> Hints {
        Hints::of(self.endpoint.as_ref(), self.policy)
    }
}

/// A tool's effects, decided once here and exported to model APIs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    pub consequential: bool,
}

impl Hints {
    /// Read-only: a safe method. Destructive: DELETE, PUT, PATCH, a confirmed
    /// tool, or no endpoint (nothing proves it harmless); never when read-only.
    /// Idempotent: HTTP's idempotent methods. Open world: any HTTP endpoint,
    /// and MCP's default (true) for the application's own tools.
    /// Consequential: everything that is not read-only.
    fn of(endpoint: Option<&Endpoint>, policy: Policy) -> Hints {
        let method = endpoint.map(|e| e.method);
        let read_only = method.is_some_and(Method::is_safe);
        let destructive =
            !read_only && (policy == Policy::Confirm || !matches!(method, Some(Method::Post)));
        Hints {
            read_only,
            destructive,
            idempotent: method.is_some_and(|m| m != Method::Post && m != Method::Patch),
            open_world: true,
            consequential: !read_only,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Options,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    pub const ALL: [Method; 7] = [
        Method::Get,
        Method::Head,
        Method::Options,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    /// Safe methods read and never change state.
    pub fn is_safe(self) -> bool {
        matches!(self, Method::Get | Method::Head | Method::Options)
    }
}

/// An HTTP request template. The origin is fixed: placeholders never choose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub method: Method,
    /// `scheme://host[:port]`.
    pub origin: String,
    /// Starts with `/`.
    pub path: Template,
    pub query: Vec<(String, Template)>,
    pub headers: Vec<(String, Template)>,
    pub body: Option<BodyTemplate>,
}

/// Text with `{{param}}` placeholders, parsed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    Literal(String),
    Param(String),
}

impl Template {
    /// The template as written: literal text and `{{name}}` placeholders.
    pub fn text(&self) -> String {
        parts_text(&self.parts)
    }

    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            TemplatePart::Param(name) => Some(name.as_str()),
            TemplatePart::Literal(_) => None,
        })
    }
}

/// A JSON body template as a tree, so that an absent value can leave out
/// its member or item, and each placeholder knows whether it stands as a
/// whole JSON value or inside a JSON string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyTemplate {
    pub root: BodyNode,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyNode {
    /// A complete JSON value without placeholders, compact.
    Text(String),
    /// The parameter's JSON value.
    Value(String),
    /// A JSON string: literal parts are escaped JSON string content as written.
    String(Vec<TemplatePart>),
    /// Members, with keys as JSON strings (quotes included).
    Object(Vec<(String, BodyNode)>),
    Array(Vec<BodyNode>),
}

impl BodyNode {
    /// The body as JSON text with `{{name}}` placeholders; `spaced` puts a
    /// space after each `:` and `,` (as a person writes it), else compact.
    pub fn text(&self, spaced: bool) -> String {
        let (colon, comma) = if spaced { (": ", ", ") } else { (":", ",") };
        match self {
            BodyNode::Text(text) => text.clone(),
            BodyNode::Value(name) => format!("{{{{{name}}}}}"),
            BodyNode::String(parts) => format!("\"{}\"", parts_text(parts)),
            BodyNode::Object(members) => {
                let members: Vec<String> = members
                    .iter()
                    .map(|(key, value)| format!("{key}{colon}{}", value.text(spaced)))
                    .collect();
                format!("{{{}}}", members.join(comma))
            }
            BodyNode::Array(items) => {
                let items: Vec<String> = items.iter().map(|item| item.text(spaced)).collect();
                format!("[{}]", items.join(comma))
            }
        }
    }
}

/// Literal text and `{{name}}` placeholders, as written.
fn parts_text(parts: &[TemplatePart]) -> String {
    parts
        .iter()
        .map(|part| match part {
            TemplatePart::Literal(text) => text.clone(),
            TemplatePart::Param(name) => format!("{{{{{name}}}}}"),
        })
        .collect()
}

/// A tool's parameters: the root object and the named `$defs` it refers to.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameters {
    pub root: ObjectType,
    pub defs: Vec<(String, Type)>,
}

impl Parameters {
    /// No parameters: `{"type": "object", "properties": {}}`.
    pub fn empty() -> Self {
        Parameters {
            root: ObjectType {
                description: None,
                properties: Vec::new(),
                additional_properties: false,
                checks: Checks::default(),
            },
            defs: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectType {
    pub description: Option<String>,
    pub properties: Vec<Property>,
    /// `additionalProperties: false` (or absent) rejects unknown fields.
    pub additional_properties: bool,
    pub checks: Checks,
}

impl ObjectType {
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub ty: Type,
    pub required: bool,
    pub description: Option<String>,
    pub default: Option<serde_json::Value>,
}

/// JSON Schema's validation keywords, enforced by the run-time checker. Each
/// applies to the instances it is about, as in JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Checks {
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub exclusive_minimum: Option<f64>,
    pub exclusive_maximum: Option<f64>,
    pub multiple_of: Option<f64>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
}

impl Checks {
    pub fn is_empty(&self) -> bool {
        *self == Checks::default()
    }
}

/// The subset of JSON Schema that maps onto Rust types.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    String(Checks),
    Integer(Checks),
    Number(Checks),
    Boolean,
    /// A string restricted to these values.
    Enum(Vec<String>),
    Array(Box<Type>, Checks),
    Object(ObjectType),
    /// An object with no fixed properties whose values have one type.
    Map(Box<Type>, Checks),
    /// `type: [T, "null"]`.
    Nullable(Box<Type>),
    /// A local `$ref` to `#/$defs/<name>`.
    Ref(String),
}

impl Type {
    /// Scalars can stand in a URL path, a query value or a header.
    pub fn is_scalar(&self, defs: &[(String, Type)]) -> bool {
        match self {
            Type::String(_)
            | Type::Integer(_)
            | Type::Number(_)
            | Type::Boolean
            | Type::Enum(_) => true,
            Type::Nullable(inner) => inner.is_scalar(defs),
            Type::Ref(name) => defs
                .iter()
                .find(|(def, _)| def == name)
                .is_some_and(|(_, ty)| !matches!(ty, Type::Ref(_)) && ty.is_scalar(defs)),
            Type::Array(..) | Type::Object(_) | Type::Map(..) => false,
        }
    }
}
