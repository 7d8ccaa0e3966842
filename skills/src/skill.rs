use crate::call::Call;
use crate::error::ToolCallError;
use crate::tool::Tool;

/// One skill: its metadata, its body, and its tools. Built by generated code.
#[derive(Debug)]
pub struct Skill {
    #[doc(hidden)]
    pub name: &'static str,
    #[doc(hidden)]
    pub description: &'static str,
    #[doc(hidden)]
    pub path: &'static str,
    /// What a model reads when it loads the skill; ends with the body, which
    /// is stored only here.
    #[doc(hidden)]
    pub rendered: &'static str,
    /// Where the body starts in `rendered`.
    #[doc(hidden)]
    pub body_start: usize,
    #[doc(hidden)]
    pub kind: Kind,
    #[doc(hidden)]
    pub version: Version,
    #[doc(hidden)]
    pub license: Option<&'static str>,
    #[doc(hidden)]
    pub compatibility: Option<&'static str>,
    #[doc(hidden)]
    pub metadata: &'static [(&'static str, &'static str)],
    #[doc(hidden)]
    pub allowed_tools: &'static [&'static str],
    #[doc(hidden)]
    pub triggers: &'static [&'static str],
    #[doc(hidden)]
    pub tags: &'static [&'static str],
    #[doc(hidden)]
    pub area: Option<&'static str>,
    #[doc(hidden)]
    pub app_slug: Option<&'static str>,
    #[doc(hidden)]
    pub model_config: Option<&'static str>,
    /// `x-*` keys and keys of well-known clients: name and JSON text.
    #[doc(hidden)]
    pub extras: &'static [(&'static str, &'static str)],
    #[doc(hidden)]
    pub sections: &'static [Section],
    #[doc(hidden)]
    pub tools: &'static [Tool],
    #[doc(hidden)]
    pub sha256_hex: &'static str,
}

impl Skill {
    /// The validated name (NFKC-normalised, equal to its directory's).
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn description(&self) -> &'static str {
        self.description
    }

    /// The skill file, relative to the crate root.
    pub fn path(&self) -> &'static str {
        self.path
    }

    /// The markdown after the frontmatter.
    pub fn body(&self) -> &'static str {
        self.rendered.get(self.body_start..).unwrap_or_default()
    }

    /// The text a model reads when it loads the skill: title, description,
    /// for a protocol the numbered steps, post-checks and the three escape
    /// hatches, then the body.
    pub fn rendered(&self) -> &'static str {
        self.rendered
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn version(&self) -> &Version {
        &self.version
    }

    pub fn license(&self) -> Option<&'static str> {
        self.license
    }

    pub fn compatibility(&self) -> Option<&'static str> {
        self.compatibility
    }

    pub fn metadata(&self) -> &'static [(&'static str, &'static str)] {
        self.metadata
    }

    /// The value of one `metadata` key.
    pub fn metadata_value(&self, key: &str) -> Option<&'static str> {
        self.metadata
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    pub fn allowed_tools(&self) -> &'static [&'static str] {
        self.allowed_tools
    }

    pub fn triggers(&self) -> &'static [&'static str] {
        self.triggers
    }

    pub fn tags(&self) -> &'static [&'static str] {
        self.tags
    }

    pub fn area(&self) -> Option<&'static str> {
        self.area
    }

    pub fn app_slug(&self) -> Option<&'static str> {
        self.app_slug
    }

    pub fn model_config(&self) -> Option<&'static str> {
        self.model_config
    }

    /// Extra keys (`x-*` and well-known clients' keys) with their values as JSON text.
    pub fn extras(&self) -> &'static [(&'static str, &'static str)] {
        self.extras
    }

    pub fn tools(&self) -> &'static [Tool] {
        self.tools
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&'static Tool> {
        self.tools.iter().find(|tool| tool.name() == name)
    }

    /// Checks a model's call of one of this skill's tools: the tool by name,
    /// the arguments (JSON text) against its schema.
    pub fn parse_call(&self, name: &str, arguments: &str) -> Result<Call<'static>, ToolCallError> {
        self.find_tool(name)?.parse(arguments)
    }

    /// The same for arguments already parsed.
    pub fn parse_call_value(
        &self,
        name: &str,
        arguments: &serde_json::Value,
    ) -> Result<Call<'static>, ToolCallError> {
        self.find_tool(name)?.parse_value(arguments)
    }

    fn find_tool(&self, name: &str) -> Result<&'static Tool, ToolCallError> {
        self.tool(name).ok_or_else(|| ToolCallError::UnknownTool {
            name: name.to_owned(),
            expected: self.tools.iter().map(|t| t.name.to_owned()).collect(),
        })
    }

    /// The body's headings, in order.
    pub fn sections(&self) -> &'static [Section] {
        self.sections
    }

    /// The text of the first section titled `heading` (heading line included,
    /// up to the next heading of the same or a higher level).
    pub fn section(&self, heading: &str) -> Option<&'static str> {
        let section = self.sections.iter().find(|s| s.title == heading)?;
        self.body().get(section.start..section.end)
    }

    /// SHA-256 of the skill file, lower-case hex.
    pub fn sha256_hex(&self) -> &'static str {
        self.sha256_hex
    }
}

/// Plain skill or protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Skill,
    Protocol(&'static Protocol),
}

/// A strict order of actions and what to do when reality differs from the plan.
#[derive(Debug, PartialEq, Eq)]
pub struct Protocol {
    pub steps: &'static [&'static str],
    pub post_checks: &'static [&'static str],
    pub preconditions: &'static [&'static str],
    /// What to do when the run drifts off plan.
    pub on_deviation: &'static str,
    /// What to do when the protocol cannot be completed.
    pub on_blocked: &'static str,
    /// What to do when a step is already done.
    pub on_already_done: &'static str,
}

/// `version:` as declared (default 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Number(u64),
    Semver(&'static str),
}

impl core::fmt::Display for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Version::Number(n) => write!(f, "{n}"),
            Version::Semver(s) => f.write_str(s),
        }
    }
}

/// A heading of the body and the byte range of the text it governs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub title: &'static str,
    /// 1 for `#` ... 6 for `######`.
    pub level: u8,
    #[doc(hidden)]
    pub start: usize,
    #[doc(hidden)]
    pub end: usize,
}
