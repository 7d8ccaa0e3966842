//! A validated skill: its fields, its tools and their parameter types, in
//! the shapes the code generator and the lowering read.

use std::fmt;
use std::ops::Range;

use crate::read::files::{SkillFile, Skipped};
use skills_core::{Checks, Endpoint, Hints, List, Part, Policy, Section, Str};

/// Owned texts as a table list.
pub fn texts(texts: Vec<String>) -> List<Str> {
    List::Owned(texts.into_iter().map(Str::Owned).collect())
}

/// Text with `{{param}}` placeholders, parsed.
pub type Template = Vec<Part>;

/// Named templates (query values, headers) as a table list.
pub fn templates(pairs: Vec<(String, Template)>) -> List<(Str, List<Part>)> {
    List::Owned(
        pairs
            .into_iter()
            .map(|(name, template)| (Str::Owned(name), List::Owned(template)))
            .collect(),
    )
}

/// Every valid skill of a root, sorted by name. Each is shared: a root
/// compiled again ([`crate::again`]) hands on the skills it kept without
/// copying them.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillSet {
    /// The skills, sorted by name.
    pub skills: Vec<std::sync::Arc<Skill>>,
}

impl SkillSet {
    /// The skill named `name`.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills
            .binary_search_by(|skill| skill.name().cmp(name))
            .ok()
            .map(|index| &*self.skills[index])
    }
}

/// A skill name that passed the name rules (NFKC-normalised).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SkillName(pub(crate) String);

impl SkillName {
    /// The name.
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
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A valid skill: the runtime's table of it, which the validator fills key
/// by key, and what only the compiler needs (spans, what was found on disk,
/// the typed parameter trees for code generation). Lowering
/// ([`crate::emit::lower`]) completes the table with what a check does not
/// need: the sections, the tools' tables and the files' bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// What the runtime holds of the skill: every frontmatter key's value,
    /// the file's text, the catalog's settings. Its `sections`, `tools` and
    /// `files` stay empty until the skill is lowered.
    pub table: skills_core::Skill,
    /// The sidecar `tools.yaml`, when the skill has one.
    pub tools_path: Option<String>,
    /// Where the description's value is in the file as read (bytes), for
    /// lints over the whole set; `None` when `lenient` derived it.
    pub description_span: Option<Range<usize>>,
    /// The tools, in declared order.
    pub tools: Vec<Tool>,
    /// Which tools need a confirmation and which may write.
    pub permissions: Permissions,
    /// The skill directory, relative to the crate root (`skills/pdf`);
    /// `None` for a flat `<name>.md` skill, which has no other files.
    pub dir: Option<String>,
    /// The skill directory on disk, where its files are read from (never
    /// printed: generated code names the files through `CARGO_MANIFEST_DIR`).
    pub dir_on_disk: Option<std::path::PathBuf>,
    /// Every file of the directory besides SKILL.md, sorted by path, as
    /// listed (their bytes are read by whoever needs them).
    pub files: Vec<SkillFile>,
    /// What the directory holds that is not a file of the skill, and why.
    pub skipped: Vec<Skipped>,
    /// Every folder of the directory that was walked, sorted by path
    /// (`references`, `scripts/lib`): a link to one is fine.
    pub folders: Vec<String>,
    /// The name of the skill file's copy in `OUT_DIR` (`emit::snapshot`),
    /// which the generated code embeds; `None`: the file itself.
    pub snapshot: Option<String>,
    /// Whether Codex may pick the skill itself: `false` when its
    /// `agents/openai.yaml` says `policy.allow_implicit_invocation: false`
    /// (Codex then lists it only for explicit use).
    pub codex_implicit: bool,
    /// Whether the generated tables embed the skill's `evals/` (its trigger
    /// cases): off unless the package asks (`embed_evals`), since an agent
    /// never reads them. Every other writer of the skill keeps them.
    pub embed_evals: bool,
}

/// JSON text the validator wrote from a value: it parses.
fn parsed(json: &str) -> serde_json::Value {
    serde_json::from_str(json).unwrap_or_default()
}

impl Skill {
    /// Its name, checked (NFKC-normalised, equal to its directory's).
    pub fn name(&self) -> &str {
        self.table.name()
    }

    /// Its description, checked.
    pub fn description(&self) -> &str {
        self.table.description()
    }

    /// The skill file, relative to the crate root (forward slashes).
    pub fn path(&self) -> &str {
        self.table.path()
    }

    /// The markdown after the frontmatter.
    pub fn body(&self) -> &str {
        self.table.body()
    }

    /// The file's text before the body (fences, frontmatter, blank lines).
    pub fn head(&self) -> &str {
        self.table
            .source()
            .get(..self.table.body_start)
            .unwrap_or_default()
    }

    /// The skill file's text, whose SHA-256 is [`Skill::sha256_hex`].
    pub fn source_text(&self) -> &str {
        self.table.source()
    }

    /// The bytes the skill holds: its file and its other files, by their
    /// listed sizes (nothing is read for it).
    pub(crate) fn bytes(&self) -> u64 {
        let files: u64 = self.files.iter().map(|file| file.len).sum();
        files.saturating_add(self.table.source_len() as u64)
    }

    /// Lets the body go and keeps the file's head, for a compilation that
    /// keeps what a check reads ([`crate::Keep::Checks`]): [`Skill::body`]
    /// is empty afterwards, the head and every key as they were.
    pub(crate) fn keep_head_only(&mut self) {
        self.table.source = skills_core::Str::Owned(self.head().to_owned());
    }

    /// The extras (`x-` keys, other clients' keys) in source order, each
    /// value parsed back from the JSON text the table holds.
    pub fn extras(&self) -> Vec<(String, serde_json::Value)> {
        (self.table.extras())
            .map(|(key, json)| (key.to_owned(), parsed(json)))
            .collect()
    }

    /// The value of the extra `key`, parsed back: only that one is parsed.
    pub fn extra(&self, key: &str) -> Option<serde_json::Value> {
        let (_, json) = self.table.extras().find(|(name, _)| *name == key)?;
        Some(parsed(json))
    }

    /// The body's headings, each with the text it governs. Computed when asked
    /// for (code generation, `show`), not while checking: the heading tree is
    /// most of the time a check would otherwise take (BENCHMARKS.md).
    pub fn sections(&self) -> Vec<Section> {
        crate::read::markdown::sections(self.body())
    }

    /// SHA-256 of the skill file, lower-case hex. Computed when asked for
    /// (code generation, `inspect`, the loader): a check does not need it.
    pub fn sha256_hex(&self) -> String {
        skills_core::sha256_hex(self.source_text().as_bytes())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// What a tool without its own policy does.
pub enum DefaultMode {
    /// It runs: a read.
    Readonly,
    /// It waits for the user's confirmation.
    Confirm,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// The `permissions` of a skill.
pub struct Permissions {
    /// `default_mode`.
    pub default_mode: DefaultMode,
    /// `require_confirmation`: tools that wait for the user.
    pub require_confirmation: Vec<ToolName>,
    /// `allow_write`: tools that may change things.
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

/// A tool of a skill, checked: the runtime's table of it, and its
/// parameters typed for code generation.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// What the runtime holds of the tool: its name, description, policy
    /// and hints, endpoint, the checker's schema table and the parameter
    /// schema sent to models (as declared, with what the checker enforces
    /// made explicit: `type`, `additionalProperties: false`, `null` in a
    /// nullable `enum`, so that any JSON Schema validator agrees).
    pub table: skills_core::Tool,
    /// Its parameters, typed: what the table's schema is made from and
    /// code generation reads.
    pub parameters: Parameters,
}

impl Tool {
    /// Its name, checked (`^[A-Za-z][A-Za-z0-9_-]{0,63}$`).
    pub fn name(&self) -> &str {
        self.table.name()
    }

    /// What it does, for the model.
    pub fn description(&self) -> &str {
        self.table.description()
    }

    /// Whether it runs, asks first, or is denied.
    pub fn policy(&self) -> Policy {
        self.table.policy
    }

    /// The HTTP request it makes, when it makes one.
    pub fn endpoint(&self) -> Option<&Endpoint> {
        self.table.endpoint.as_ref()
    }

    /// The tool's effects, from its method and policy.
    pub fn hints(&self) -> Hints {
        self.table.hints
    }

    /// The parameter schema sent to models, as a JSON value.
    pub fn parameters_json(&self) -> serde_json::Value {
        parsed(&self.table.parameters_json)
    }
}

/// A tool's parameters: the root object and the named `$defs` it refers to,
/// in declared order ([`DefId`] is the place in `defs`).
#[derive(Debug, Clone, PartialEq)]
pub struct Parameters {
    /// The root object.
    pub root: ObjectType,
    /// The named `$defs`, in declared order.
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

impl Parameters {
    /// The type of a `$defs` entry. Every `DefId` names an entry of the
    /// parameters it was made for (validation makes them).
    pub fn def(&self, id: DefId) -> &Type {
        &self.defs[id.index()].1
    }
}

#[derive(Debug, Clone, PartialEq)]
/// An object schema: its properties and checks.
pub struct ObjectType {
    /// Its `description`.
    pub description: Option<String>,
    /// Its properties, in declared order.
    pub properties: Vec<Property>,
    /// `additionalProperties: false` (or absent) rejects unknown fields.
    pub additional_properties: bool,
    /// `minProperties` and `maxProperties`.
    pub checks: Checks,
}

impl ObjectType {
    /// The property named `name`.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }
}

#[derive(Debug, Clone, PartialEq)]
/// A property of an object schema.
pub struct Property {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Whether `required` lists it.
    pub required: bool,
    /// Its `description`.
    pub description: Option<String>,
    /// Its `default`, as written.
    pub default: Option<serde_json::Value>,
}

/// The subset of JSON Schema that maps onto Rust types.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// `type: string`, with its checks.
    String(Checks),
    /// `type: integer`, with its checks.
    Integer(Checks),
    /// `type: number`, with its checks.
    Number(Checks),
    /// `type: boolean`.
    Boolean,
    /// A string restricted to these values.
    Enum(Vec<String>),
    /// `type: array` of the item type, with its checks.
    Array(Box<Type>, Checks),
    /// `type: object` with fixed properties.
    Object(ObjectType),
    /// An object with no fixed properties whose values have one type.
    Map(Box<Type>, Checks),
    /// `type: [T, "null"]`.
    Nullable(Box<Type>),
    /// A local `$ref` to `#/$defs/<name>`, resolved at validation.
    Ref(DefId),
}

/// A `$defs` entry of the same parameters: its place in [`Parameters::defs`].
/// Only validation makes one, for an entry it found, so every `DefId` names
/// an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DefId(pub(crate) u32);

impl DefId {
    /// Its place in [`Parameters::defs`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
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
            // An alias of an alias is not followed: one step, as a path
            // placeholder's type is read.
            Type::Ref(id) => defs
                .get(id.index())
                .is_some_and(|(_, ty)| !matches!(ty, Type::Ref(_)) && ty.is_scalar(defs)),
            Type::Array(..) | Type::Object(_) | Type::Map(..) => false,
        }
    }
}
