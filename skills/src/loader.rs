//! Skills loaded at run time (feature `loader`): a user's or a project's
//! skills directory, checked by the same compiler, with the same rules and
//! diagnostics, as `include_skills!` and `cargo skills check`, and returned as
//! the same [`SkillSet`] a compiled set is.
//!
//! ```no_run
//! use skills::loader::{Loader, Profile};
//!
//! let loaded = Loader::new().profile(Profile::Lenient).load("/home/me/.agents/skills");
//! match loaded {
//!     Ok(loaded) => {
//!         eprint!("{}", loaded.render_warnings());
//!         print!("{}", loaded.set().catalog());
//!     }
//!     Err(error) => eprint!("{error}"),
//! }
//! ```

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::lower;
use skills_compiler::{Compilation, Config, Sources, ir};

pub use skills_compiler::{Code, Diagnostic, Profile, Severity};

#[cfg(feature = "watch")]
pub use crate::watch::{Reload, Watch, WatchError};

use crate::endpoint::{Endpoint, Json, Part};
use crate::schema::{Checks, Node, Property, Schema};
use crate::skill::{Kind, Protocol, Section, Skill, Version};
use crate::tool::{Hints, Method, Policy, Tool};
use crate::{List, SkillSet, Str};

/// Loads skills directories with a profile and limits. The defaults are the
/// build's: profile `extended`, at most 64 skills, documents of at most
/// 200,000 characters.
#[derive(Debug, Clone)]
pub struct Loader {
    config: Config,
}

impl Default for Loader {
    fn default() -> Self {
        Loader::new()
    }
}

impl Loader {
    pub fn new() -> Loader {
        Loader {
            config: Config::default(),
        }
    }

    /// Which rules apply: `portable`, `extended` (default) or `lenient`.
    pub fn profile(mut self, profile: Profile) -> Loader {
        self.config.profile = profile;
        self
    }

    /// The most skills a root may hold.
    pub fn max_skills(mut self, max: usize) -> Loader {
        self.config.max_skills = max;
        self
    }

    /// The most characters a skill file may hold.
    pub fn max_document_chars(mut self, max: usize) -> Loader {
        self.config.max_document_chars = max;
        self
    }

    /// The most bytes of frontmatter.
    pub fn max_frontmatter_bytes(mut self, max: usize) -> Loader {
        self.config.max_frontmatter_bytes = max;
        self
    }

    /// Warnings count as errors.
    pub fn deny_warnings(mut self, deny: bool) -> Loader {
        self.config.deny_warnings = deny;
        self
    }

    /// Loads every skill under `root`. Paths in skills and diagnostics are
    /// `root` joined with the skill's path, as given.
    pub fn load(&self, root: impl AsRef<Path>) -> Result<Loaded, LoadError> {
        let config = Config {
            dir: root.as_ref().to_path_buf(),
            ..self.config.clone()
        };
        let compilation = skills_compiler::compile(Path::new(""), &config);
        Loaded::from_compilation(compilation)
    }
}

impl Loader {
    /// Loads one skill: a directory with `SKILL.md`, or a flat `.md` file,
    /// as `cargo skills check DIR` reads it.
    pub fn load_skill(&self, path: impl AsRef<Path>) -> Result<Loaded, LoadError> {
        let compilation =
            skills_compiler::compile_skill(Path::new(""), path.as_ref(), &self.config);
        Loaded::from_compilation(compilation)
    }
}

/// A valid set, with the warnings met on the way (in `lenient`, what was assumed).
#[derive(Debug)]
pub struct Loaded {
    set: SkillSet,
    warnings: Vec<Diagnostic>,
    sources: Sources,
}

impl Loaded {
    fn from_compilation(compilation: Compilation) -> Result<Loaded, LoadError> {
        if compilation.has_errors() {
            return Err(LoadError {
                diagnostics: compilation.diagnostics,
                sources: compilation.sources,
            });
        }
        Ok(Loaded {
            set: set(&compilation.valid),
            warnings: compilation.diagnostics,
            sources: compilation.sources,
        })
    }

    pub fn set(&self) -> &SkillSet {
        &self.set
    }

    pub fn into_set(self) -> SkillSet {
        self.set
    }

    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The warnings rustc-style, with snippets, one after another.
    pub fn render_warnings(&self) -> String {
        render_all(&self.warnings, &self.sources)
    }
}

/// Why a root did not load: every diagnostic (errors and warnings), sorted
/// by file and position, with the files needed to show them.
#[derive(Debug)]
pub struct LoadError {
    diagnostics: Vec<Diagnostic>,
    sources: Sources,
}

impl LoadError {
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// Every diagnostic rustc-style, with snippets (as `cargo skills check` prints them).
    pub fn render(&self) -> String {
        render_all(&self.diagnostics, &self.sources)
    }

    /// One `file:line:col: severity[code]: message` line per diagnostic.
    pub fn render_short(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| render::short(d) + "\n")
            .collect()
    }

    /// One JSON object per line, as `cargo skills check --message-format json`.
    pub fn render_json(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| render::json(d, &self.sources) + "\n")
            .collect()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())?;
        let errors = self.errors().count();
        write!(
            f,
            "could not load the skills: {errors} error{}",
            if errors == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for LoadError {}

fn render_all(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    diagnostics
        .iter()
        .map(|d| render::human(d, sources, Color::Never) + "\n\n")
        .collect()
}

/// The conventional skills directories that exist, nearest first: for the
/// working directory and each of its parents, `.agents/skills`,
/// `.claude/skills` and `.codex/skills`; then the same three under `home`.
/// Nothing is loaded: the application chooses which to use.
pub fn conventional_roots(working_dir: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    const DIRS: [&str; 3] = [".agents/skills", ".claude/skills", ".codex/skills"];
    let mut roots: Vec<PathBuf> = Vec::new();
    let candidates = working_dir
        .ancestors()
        .chain(home)
        .flat_map(|dir| DIRS.iter().map(move |sub| dir.join(sub)));
    for candidate in candidates {
        if candidate.is_dir() && !roots.contains(&candidate) {
            roots.push(candidate);
        }
    }
    roots
}

/// [`conventional_roots`] of the current directory and `$HOME`.
pub fn conventional_roots_here() -> Vec<PathBuf> {
    let working_dir = std::env::current_dir().unwrap_or_default();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    conventional_roots(&working_dir, home.as_deref())
}

// From the compiler's lowered tables to the runtime's types: field by field,
// every string owned. What the tables hold is decided in `lower`, once.

fn set(valid: &ir::SkillSet) -> SkillSet {
    SkillSet::owned(
        valid
            .skills
            .iter()
            .map(|skill| self::skill(lower::skill(skill)))
            .collect(),
    )
}

fn text(text: String) -> Str {
    Cow::Owned(text)
}

fn texts(texts: Vec<String>) -> List<Str> {
    list(texts, text)
}

fn list<T, U: Clone>(items: Vec<T>, f: impl FnMut(T) -> U) -> List<U> {
    Cow::Owned(items.into_iter().map(f).collect())
}

fn pairs(pairs: Vec<(String, String)>) -> List<(Str, Str)> {
    list(pairs, |(key, value)| (text(key), text(value)))
}

fn skill(skill: lower::Skill) -> Skill {
    Skill {
        name: text(skill.name),
        description: text(skill.description),
        path: text(skill.path),
        rendered: text(skill.rendered),
        body_start: skill.body_start,
        head: text(skill.head),
        kind: match skill.kind {
            ir::Kind::Skill => Kind::Skill,
            ir::Kind::Protocol(protocol) => Kind::Protocol(Cow::Owned(Protocol {
                steps: texts(protocol.steps),
                post_checks: texts(protocol.post_checks),
                preconditions: texts(protocol.preconditions),
                on_deviation: text(protocol.on_deviation),
                on_blocked: text(protocol.on_blocked),
                on_already_done: text(protocol.on_already_done),
            })),
        },
        version: match skill.version {
            ir::Version::Number(n) => Version::Number(n),
            ir::Version::Semver(s) => Version::Semver(text(s)),
            ir::Version::Text(s) => Version::Text(text(s)),
        },
        license: skill.license.map(text),
        compatibility: skill.compatibility.map(text),
        metadata: pairs(skill.metadata),
        allowed_tools: texts(skill.allowed_tools),
        triggers: texts(skill.triggers),
        tags: texts(skill.tags),
        area: skill.area.map(text),
        app_slug: skill.app_slug.map(text),
        model_config: skill.model_config.map(text),
        extras: pairs(skill.extras),
        sections: list(skill.sections, |section| Section {
            title: text(section.title),
            level: section.level,
            start: section.range.start,
            end: section.range.end,
        }),
        tools: list(skill.tools, tool),
        sha256_hex: text(skill.sha256_hex),
        catalog_line: text(skill.catalog_line),
        catalog_xml: text(skill.catalog_xml),
    }
}

fn tool(tool: lower::Tool) -> Tool {
    let hints = tool.hints;
    Tool {
        name: text(tool.name),
        description: text(tool.description),
        policy: match tool.policy {
            ir::Policy::Allow => Policy::Allow,
            ir::Policy::Confirm => Policy::Confirm,
            ir::Policy::Deny => Policy::Deny,
        },
        hints: Hints {
            read_only: hints.read_only,
            destructive: hints.destructive,
            idempotent: hints.idempotent,
            open_world: hints.open_world,
            consequential: hints.consequential,
        },
        endpoint: tool.endpoint.map(endpoint),
        schema: Schema {
            nodes: list(tool.nodes, node),
        },
        parameters_json: text(tool.parameters_json),
        strict: tool.strict,
    }
}

fn endpoint(endpoint: lower::Endpoint) -> Endpoint {
    let templates = |pairs: Vec<(String, Vec<ir::TemplatePart>)>| {
        list(pairs, |(name, template)| (text(name), parts(template)))
    };
    Endpoint {
        method: match endpoint.method {
            ir::Method::Get => Method::Get,
            ir::Method::Head => Method::Head,
            ir::Method::Options => Method::Options,
            ir::Method::Post => Method::Post,
            ir::Method::Put => Method::Put,
            ir::Method::Patch => Method::Patch,
            ir::Method::Delete => Method::Delete,
        },
        origin: text(endpoint.origin),
        url: text(endpoint.url),
        path: parts(endpoint.path),
        query: templates(endpoint.query),
        headers: templates(endpoint.headers),
        body: endpoint.body.map(json),
    }
}

fn parts(template: Vec<ir::TemplatePart>) -> List<Part> {
    list(template, |part| match part {
        ir::TemplatePart::Literal(literal) => Part::Text(text(literal)),
        ir::TemplatePart::Param(name) => Part::Param(text(name)),
    })
}

fn json(node: ir::BodyNode) -> Json {
    match node {
        ir::BodyNode::Text(literal) => Json::Text(text(literal)),
        ir::BodyNode::Value(name) => Json::Param(text(name)),
        ir::BodyNode::String(template) => Json::String(parts(template)),
        ir::BodyNode::Object(members) => {
            Json::Object(list(members, |(key, value)| (text(key), json(value))))
        }
        ir::BodyNode::Array(items) => Json::Array(list(items, json)),
    }
}

fn node(node: lower::Node) -> Node {
    match node {
        lower::Node::String(c) => Node::String(checks(c)),
        lower::Node::Integer(c) => Node::Integer(checks(c)),
        lower::Node::Number(c) => Node::Number(checks(c)),
        lower::Node::Boolean => Node::Boolean,
        lower::Node::Enum(values) => Node::Enum(texts(values)),
        lower::Node::Array { items, checks: c } => Node::Array {
            items,
            checks: checks(c),
        },
        lower::Node::Map { values, checks: c } => Node::Map {
            values,
            checks: checks(c),
        },
        lower::Node::Object {
            properties,
            additional,
            checks: c,
        } => Node::Object {
            properties: list(properties, property),
            additional,
            checks: checks(c),
        },
        lower::Node::Nullable(inner) => Node::Nullable(inner),
    }
}

fn property(property: lower::Property) -> Property {
    Property {
        name: text(property.name),
        node: property.node,
        required: property.required,
        default: property.default.map(text),
    }
}

fn checks(checks: ir::Checks) -> Cow<'static, Checks> {
    if checks.is_empty() {
        return Cow::Borrowed(&Checks::NONE);
    }
    Cow::Owned(Checks {
        minimum: checks.minimum,
        maximum: checks.maximum,
        exclusive_minimum: checks.exclusive_minimum,
        exclusive_maximum: checks.exclusive_maximum,
        multiple_of: checks.multiple_of,
        min_length: checks.min_length,
        max_length: checks.max_length,
        min_items: checks.min_items,
        max_items: checks.max_items,
        unique_items: checks.unique_items,
        min_properties: checks.min_properties,
        max_properties: checks.max_properties,
    })
}
