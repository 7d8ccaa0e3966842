use std::path::{Path, PathBuf};

use crate::call::{Arguments, Call};
use crate::error::ToolCallError;
use crate::file::{File, Overwrite};
use crate::tables::{List, Memo, Str};
use crate::tool::Tool;

/// One skill: its metadata, its body, and its tools. Built by generated code
/// or by the loader; the compiler's IR holds one too (empty by default:
/// no name, version 1, a plain skill).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skill {
    #[doc(hidden)]
    pub name: Str,
    #[doc(hidden)]
    pub description: Str,
    #[doc(hidden)]
    pub path: Str,
    /// The skill file as it was read, the only copy of its text (compiled:
    /// `include_str!` of the file itself).
    #[doc(hidden)]
    pub source: Str,
    /// Where the body starts in `source`.
    #[doc(hidden)]
    pub body_start: usize,
    #[doc(hidden)]
    pub kind: Kind,
    #[doc(hidden)]
    pub version: Version,
    #[doc(hidden)]
    pub license: Option<Str>,
    #[doc(hidden)]
    pub compatibility: Option<Str>,
    #[doc(hidden)]
    pub metadata: List<(Str, Str)>,
    #[doc(hidden)]
    pub allowed_tools: List<Str>,
    #[doc(hidden)]
    pub triggers: List<Str>,
    #[doc(hidden)]
    pub tags: List<Str>,
    #[doc(hidden)]
    pub area: Option<Str>,
    #[doc(hidden)]
    pub app_slug: Option<Str>,
    #[doc(hidden)]
    pub model_config: Option<Str>,
    /// `x-*` keys and keys of well-known clients: name and JSON text.
    #[doc(hidden)]
    pub extras: List<(Str, Str)>,
    /// The frontmatter as written, every key but `name` and `description`
    /// (which are the fields above), as the text of a JSON object.
    #[doc(hidden)]
    pub frontmatter: Str,
    #[doc(hidden)]
    pub sections: List<Section>,
    #[doc(hidden)]
    pub tools: List<Tool>,
    /// Every file of the skill directory besides SKILL.md, sorted by path.
    #[doc(hidden)]
    pub files: List<File>,
    /// The most characters of the description in the catalog line.
    #[doc(hidden)]
    pub catalog_chars: usize,
    /// What the XML catalog's `<location>` says: the `skill://` URI or the
    /// file's path.
    #[doc(hidden)]
    pub location: Str,
    /// For a skill nested in another's directory, the path from the root to
    /// the folder that holds it (`pdf` for `skills/pdf/forms`): SEP-2640's
    /// organizational prefix. `None` for a skill directly in its root.
    #[doc(hidden)]
    pub prefix: Option<Str>,
    /// What a model reads when it loads the skill, made on first use.
    #[doc(hidden)]
    pub rendered: Memo<String>,
    /// SHA-256 of `source`, made on first use.
    #[doc(hidden)]
    pub sha256_hex: Memo<String>,
}

impl Skill {
    /// The file that makes a directory a skill, and its path in the
    /// skill's URIs (`skill://<name>/SKILL.md`).
    pub const FILE: &'static str = "SKILL.md";

    /// The validated name (NFKC-normalised, equal to its directory's).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the skill does and when to use it: the text every catalog shows.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The skill file: relative to the crate root when compiled, the root
    /// given to the loader joined with the skill's path when loaded.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// For a skill nested in another skill's directory, the folders from
    /// the root to the one that holds it: `pdf` for `skills/pdf/forms`.
    /// `None` for a skill directly in its root (most skills).
    pub fn prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }

    /// Where the skill is within its root: its name, after the prefix of a
    /// nested skill (`pdf/forms`). SEP-2640 serves the skill at
    /// `skill://<skill path>/SKILL.md`. It always ends with the name.
    pub fn skill_path(&self) -> std::borrow::Cow<'_, str> {
        match self.prefix() {
            Some(prefix) => format!("{prefix}/{}", self.name()).into(),
            None => self.name().into(),
        }
    }

    /// The markdown after the frontmatter.
    pub fn body(&self) -> &str {
        self.source.get(self.body_start..).unwrap_or_default()
    }

    /// The skill file as it was read: its SHA-256 is [`Skill::sha256_hex`].
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The length of [`Skill::source`] in bytes.
    pub fn source_len(&self) -> usize {
        self.source.len()
    }

    /// A plain skill, or a protocol with its steps.
    pub fn kind(&self) -> &Kind {
        &self.kind
    }

    /// `version:` as declared (1 when absent).
    pub fn version(&self) -> &Version {
        &self.version
    }

    /// `license:` as declared.
    pub fn license(&self) -> Option<&str> {
        self.license.as_deref()
    }

    /// `compatibility:`: what the skill needs of its environment.
    pub fn compatibility(&self) -> Option<&str> {
        self.compatibility.as_deref()
    }

    /// `metadata` keys and values, in the declared order.
    pub fn metadata(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.metadata.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }

    /// The value of one `metadata` key.
    pub fn metadata_value(&self, key: &str) -> Option<&str> {
        self.metadata().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// `allowed-tools`: the host's tools the skill may use, as declared.
    pub fn allowed_tools(&self) -> impl ExactSizeIterator<Item = &str> {
        self.allowed_tools.iter().map(|t| t.as_ref())
    }

    /// `triggers`: phrases that should make a host offer the skill.
    pub fn triggers(&self) -> impl ExactSizeIterator<Item = &str> {
        self.triggers.iter().map(|t| t.as_ref())
    }

    /// `tags`, in declared order.
    pub fn tags(&self) -> impl ExactSizeIterator<Item = &str> {
        self.tags.iter().map(|t| t.as_ref())
    }

    /// `area`: the part of the application the skill belongs to.
    pub fn area(&self) -> Option<&str> {
        self.area.as_deref()
    }

    /// `app_slug`: the application the skill's tools call.
    pub fn app_slug(&self) -> Option<&str> {
        self.app_slug.as_deref()
    }

    /// `model_config`: the model settings the skill asks for, as written.
    pub fn model_config(&self) -> Option<&str> {
        self.model_config.as_deref()
    }

    /// Extra keys (`x-*` and well-known clients' keys) with their values as JSON text.
    pub fn extras(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.extras.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }

    /// The frontmatter as the author wrote it, every key, as the text of a
    /// JSON object (what an MCP server under SEP-2640 serves verbatim). For
    /// a skill the `lenient` profile accepted without a frontmatter: the
    /// derived `name` and `description`.
    pub fn frontmatter_json(&self) -> String {
        let mut object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&self.frontmatter).unwrap_or_default();
        object.insert("name".to_owned(), self.name().into());
        object.insert("description".to_owned(), self.description().into());
        serde_json::Value::Object(object).to_string()
    }

    /// The skill's tools, in declared order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|tool| tool.name() == name)
    }

    /// Checks a model's call of one of this skill's tools: the tool by name,
    /// the arguments against its schema. What a generated `ToolCall::parse`
    /// calls; an agent parses through its set (`SkillSet::parse_call`).
    #[doc(hidden)]
    pub fn parse_call<'a>(
        &self,
        name: &str,
        arguments: impl Into<Arguments<'a>>,
    ) -> Result<Call<'_>, ToolCallError> {
        self.find_tool(name)?.parse(arguments)
    }

    fn find_tool(&self, name: &str) -> Result<&Tool, ToolCallError> {
        self.tool(name).ok_or_else(|| ToolCallError::UnknownTool {
            name: name.to_owned(),
            expected: self.tools.iter().map(|t| t.name.to_string()).collect(),
        })
    }

    /// The body's headings, in order.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The text of the first section titled `heading` (heading line included,
    /// up to the next heading of the same or a higher level).
    pub fn section(&self, heading: &str) -> Option<&str> {
        let section = self.sections.iter().find(|s| s.title == heading)?;
        self.body().get(section.start..section.end)
    }

    /// SHA-256 of the skill file, lower-case hex. Made on first use.
    pub fn sha256_hex(&self) -> &str {
        self.sha256_hex
            .get_or_init(|| crate::file::sha256_hex(self.source.as_bytes()))
    }

    /// Every file of the skill directory besides SKILL.md (references,
    /// scripts, assets), sorted by path.
    pub fn files(&self) -> &[File] {
        &self.files
    }

    /// The file at `path` (relative to the skill directory, `/`-separated),
    /// read as a link in SKILL.md writes it: `./references/x.md` and
    /// `references/./x.md` are `references/x.md` ([`file_path`](crate::file_path)).
    /// `None` when there is none, for `SKILL.md` itself (see
    /// [`Skill::source`]), and for any path with `..`, an empty component
    /// or a leading `/`: a path a model chose never leaves the skill.
    ///
    /// ```
    /// # fn check(skill: &skills_core::Skill) {
    /// assert!(skill.file("../other/SKILL.md").is_none());
    /// # }
    /// ```
    pub fn file(&self, path: &str) -> Option<&File> {
        let path = crate::file::file_path(path)?;
        let index = self
            .files
            .binary_search_by(|file| file.path.as_ref().cmp(&*path))
            .ok()?;
        self.files.get(index)
    }

    /// Writes the skill directory out as `dir/<name>/`: SKILL.md byte for
    /// byte and every file with its execute bit, for hosts that run a
    /// skill's scripts from a path. Returns the directory written.
    ///
    /// An existing file with the same bytes is left as it is; one with other
    /// bytes is an error unless `existing` is [`Overwrite::Allow`]. Nothing
    /// is written outside `dir`, through `..` or through a symlink. Every
    /// file is checked before anything is created, so a refusal writes
    /// nothing; a new skill directory is written beside and renamed into
    /// place whole; a file is replaced by a new one, never changed in
    /// place (another hard link to it keeps its bytes and mode).
    pub fn write_to(&self, dir: impl AsRef<Path>, existing: Overwrite) -> std::io::Result<PathBuf> {
        let mut entries = vec![crate::write_out::Entry {
            path: Skill::FILE,
            bytes: self.source().as_bytes(),
            executable: false,
        }];
        entries.extend(self.files.iter().map(|file| crate::write_out::Entry {
            path: &file.path,
            bytes: &file.bytes,
            executable: file.executable,
        }));
        crate::write_out::skill_dir(dir.as_ref(), &self.name, &entries, existing)
    }
}

/// Plain skill or protocol.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Kind {
    /// A skill: instructions a model follows as it sees fit.
    #[default]
    Skill,
    /// A protocol: steps in a strict order, with checks and escape hatches.
    Protocol(std::borrow::Cow<'static, Protocol>),
}

impl Kind {
    /// `skill` or `protocol`, as `kind:` spells it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Kind::Skill => "skill",
            Kind::Protocol(_) => "protocol",
        }
    }
}

/// A strict order of actions and what to do when reality differs from the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protocol {
    /// The actions, in the order they must be taken.
    pub steps: List<Str>,
    /// What must hold once the steps are done.
    pub post_checks: List<Str>,
    /// What must hold before the first step.
    pub preconditions: List<Str>,
    /// What to do when the run drifts off plan.
    pub on_deviation: Str,
    /// What to do when the protocol cannot be completed.
    pub on_blocked: Str,
    /// What to do when a step is already done.
    pub on_already_done: Str,
}

/// `version:` as declared (default 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Version {
    /// A whole number (`version: 2`).
    Number(u64),
    /// A semantic version (`version: 1.2.0`).
    Semver(Str),
    /// Neither, as written (`version: 1.0`, accepted by the `lenient` profile).
    Text(Str),
}

impl Default for Version {
    /// A skill that declares no version is version 1.
    fn default() -> Self {
        Version::Number(1)
    }
}

impl core::fmt::Display for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Version::Number(n) => write!(f, "{n}"),
            Version::Semver(s) | Version::Text(s) => f.write_str(s),
        }
    }
}

/// A heading of the body and the byte range of the text it governs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading's text.
    pub title: Str,
    /// 1 for `#` ... 6 for `######`.
    pub level: u8,
    #[doc(hidden)]
    pub start: usize,
    #[doc(hidden)]
    pub end: usize,
}
