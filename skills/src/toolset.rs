//! The host toolset: how a model opens skills when the host is not an MCP
//! client. Two tools, `load_skill {name}` and `read_skill_resource {name,
//! path}`, next to the skills' own HTTP tools, for any model API; their
//! schemas and the instructions for the system prompt are written from one
//! table ([`TOOLS`]), so the two cannot disagree.
//!
//! ```
//! # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
//! use serde_json::json;
//! use skills::model::{Provider, tool_uses};
//! use skills::toolset::Toolset;
//!
//! let toolset = Toolset::new(&agent::SKILLS);
//! let tools = toolset.definitions(Provider::Anthropic); // send with the request
//! let system = toolset.instructions();                   // and this as the system prompt
//! let response = json!({"content": [{"type": "tool_use", "id": "toolu_1",
//!     "name": "load_skill", "input": {"name": "forms"}}]});
//! for call in tool_uses(Provider::Anthropic, &response)? {
//!     match toolset.answer(&call) {
//!         Some(result) => assert_eq!(result["tool_use_id"], "toolu_1"), // goes back to the model
//!         None => { /* an HTTP tool: call.parse(&agent::SKILLS)?, its policy, then send */ }
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use serde_json::{Map, Value, json};

pub use crate::host_error::{HostErrorKind, HostToolError};
use crate::model::{Provider, ToolUse};
use crate::set::SkillSet;
use skills_core::{Checks, File, Node, Property, Schema, Skill, definitions};

/// What a read returns at most, by default: 256 KiB.
pub const DEFAULT_CAP: usize = 256 * 1024;

/// One parameter of a host tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The parameter's name in the arguments object.
    pub name: &'static str,
    /// Its JSON type.
    pub kind: ParamKind,
    /// Whether a call must give it.
    pub required: bool,
    /// What a model reads of it.
    pub description: &'static str,
}

/// The JSON type of a host tool's parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A skill's name: an enum of the set's names.
    SkillName,
    /// Any string.
    String,
    /// A whole number of at least 1.
    Count,
    /// `true` or `false`.
    Boolean,
    /// A list of strings.
    Strings,
}

/// A host tool: its name, what it does, its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostTool {
    /// The tool's name, as a model calls it.
    pub name: &'static str,
    /// What a model reads of it.
    pub description: &'static str,
    /// Its parameters, in order.
    pub params: &'static [Param],
}

/// The name of the tool that loads a skill.
pub const LOAD_SKILL: &str = "load_skill";
/// The name of the tool that reads one of a skill's files.
pub const READ_SKILL_RESOURCE: &str = "read_skill_resource";

/// The skill a file or script tool works on.
const SKILL_NAME: Param = Param {
    name: "name",
    kind: ParamKind::SkillName,
    required: true,
    description: "The skill's name.",
};

/// The one table the schemas and the instructions are written from.
pub const TOOLS: [HostTool; 2] = [
    HostTool {
        name: LOAD_SKILL,
        description: "Load a skill: its full instructions, and the list of its files. Load a skill before you follow it.",
        params: &[Param {
            name: "name",
            kind: ParamKind::SkillName,
            required: true,
            description: "The skill's name, as the list of available skills gives it.",
        }],
    },
    HostTool {
        name: READ_SKILL_RESOURCE,
        description: "Read one file of a loaded skill (a reference, a script, a template) by its path in the skill.",
        params: &[
            SKILL_NAME,
            Param {
                name: "path",
                kind: ParamKind::String,
                required: true,
                description: "The file's path in the skill, as load_skill lists it, e.g. references/api.md.",
            },
            Param {
                name: "offset",
                kind: ParamKind::Count,
                required: false,
                description: "The first line to read (1 is the first line of the file).",
            },
            Param {
                name: "limit",
                kind: ParamKind::Count,
                required: false,
                description: "How many lines to read at most.",
            },
            Param {
                name: "binary",
                kind: ParamKind::Boolean,
                required: false,
                description: "For a binary file: return its bytes as base64 (otherwise its size, type and SHA-256).",
            },
        ],
    },
];

/// The name of the tool that runs one of a skill's scripts
/// ([`Toolset::with_scripts`], feature `scripts`).
pub const RUN_SKILL_SCRIPT: &str = "run_skill_script";

/// `run_skill_script`, offered only when the host enables scripts.
pub const SCRIPT_TOOL: HostTool = HostTool {
    name: RUN_SKILL_SCRIPT,
    description: "Run one of a loaded skill's scripts, as its instructions say, and get its exit code and output. The host may refuse.",
    params: &[
        SKILL_NAME,
        Param {
            name: "path",
            kind: ParamKind::String,
            required: true,
            description: "The script's path in the skill, as load_skill lists it, e.g. scripts/fill.py.",
        },
        Param {
            name: "args",
            kind: ParamKind::Strings,
            required: false,
            description: "The script's arguments, each passed as it is (no shell).",
        },
    ],
};

/// What a host is asked to approve before a load or a read is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access<'a> {
    /// A skill's text, loaded.
    Load {
        /// The skill.
        skill: &'a str,
    },
    /// One file of a skill, read.
    Read {
        /// The skill.
        skill: &'a str,
        /// The file, relative to the skill directory.
        path: &'a str,
    },
}

type Approve<'s> = Box<dyn Fn(Access<'_>) -> Result<(), String> + Send + Sync + 's>;

/// The two host tools over a skill set, and the set's HTTP tools beside them.
pub struct Toolset<'s> {
    set: Set<'s>,
    cap: usize,
    approve: Option<Approve<'s>>,
    #[cfg(all(feature = "scripts", unix))]
    scripts: Option<crate::scripts::Scripts>,
}

/// The set a toolset serves: the one it was made over, or the subset that
/// [`Toolset::only`] made of it.
enum Set<'s> {
    Borrowed(&'s SkillSet),
    Shared(std::sync::Arc<SkillSet>),
    Owned(Box<SkillSet>),
}

impl std::ops::Deref for Set<'_> {
    type Target = SkillSet;

    fn deref(&self) -> &SkillSet {
        match self {
            Set::Borrowed(set) => set,
            Set::Shared(set) => set,
            Set::Owned(set) => set,
        }
    }
}

impl std::fmt::Debug for Toolset<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolset")
            .field("skills", &self.set.len())
            .field("cap", &self.cap)
            .field("approve", &self.approve.is_some())
            .field("scripts", &self.runs_scripts())
            .finish()
    }
}

impl<'s> Toolset<'s> {
    /// The toolset over `set`, every access approved until
    /// [`approve`](Self::approve) says otherwise.
    pub fn new(set: &'s SkillSet) -> Toolset<'s> {
        Toolset {
            set: Set::Borrowed(set),
            cap: DEFAULT_CAP,
            approve: None,
            #[cfg(all(feature = "scripts", unix))]
            scripts: None,
        }
    }

    /// The toolset over a shared set, which it keeps alive: for a loaded
    /// set that a `'static` host (an agent framework's tools) holds.
    pub fn shared(set: std::sync::Arc<SkillSet>) -> Toolset<'static> {
        Toolset {
            set: Set::Shared(set),
            cap: DEFAULT_CAP,
            approve: None,
            #[cfg(all(feature = "scripts", unix))]
            scripts: None,
        }
    }

    /// Adds `run_skill_script {name, path, args}`, which runs a skill's
    /// scripts as `scripts` allows ([`crate::scripts`]: approval, limits,
    /// no shell). Loads and reads still go through [`approve`](Self::approve).
    #[cfg(all(feature = "scripts", unix))]
    pub fn with_scripts(mut self, scripts: crate::scripts::Scripts) -> Toolset<'s> {
        self.scripts = Some(scripts);
        self
    }

    /// The set this toolset serves (after [`only`](Self::only), the subset).
    pub fn skills(&self) -> &SkillSet {
        &self.set
    }

    /// The host tools this toolset offers: `load_skill`,
    /// `read_skill_resource`, and `run_skill_script` when scripts are on.
    pub fn host_tools(&self) -> impl Iterator<Item = &'static HostTool> + '_ {
        TOOLS
            .iter()
            .chain(self.runs_scripts().then_some(&SCRIPT_TOOL))
    }

    fn runs_scripts(&self) -> bool {
        #[cfg(all(feature = "scripts", unix))]
        return self.scripts.is_some();
        #[cfg(not(all(feature = "scripts", unix)))]
        return false;
    }

    /// The same toolset over just the skills `names` names
    /// ([`SkillSet::subset`]): its catalog, instructions, `load_skill` enum
    /// and definitions list only them, and a call that names another skill
    /// is answered as if it did not exist.
    ///
    /// ```
    /// # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
    /// use skills::Toolset;
    ///
    /// let toolset = Toolset::new(&agent::SKILLS).only(["forms"])?;
    /// assert!(toolset.instructions().contains("- forms: "));
    /// # Ok::<(), skills::SubsetError>(())
    /// ```
    pub fn only<I>(mut self, names: I) -> Result<Toolset<'s>, crate::SubsetError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        self.set = Set::Owned(Box::new(self.set.subset(names)?));
        Ok(self)
    }

    /// The same toolset over the `k` skills [`SkillSet::route`] ranks best
    /// for `query` (the chosen one first): for a catalogue over the context
    /// budget, what to show the model this turn. A request no skill fits
    /// (no skill shares a word with it) gets an empty toolset: the model
    /// just answers, and an agent loop goes on.
    ///
    /// ```
    /// # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
    /// let toolset = skills::Toolset::new(&agent::SKILLS).routed("fill in this PDF form", 3);
    /// assert!(toolset.instructions().contains("- forms: "));
    /// let none = skills::Toolset::new(&agent::SKILLS).routed("what's the weather in Lisbon?", 3);
    /// assert!(none.skills().is_empty());
    /// ```
    pub fn routed(mut self, query: &str, k: usize) -> Toolset<'s> {
        let ranked = self.set.route(query);
        let names: Vec<&str> = ranked.top(k).iter().map(|s| s.skill.as_str()).collect();
        let subset = self.set.subset_or_empty(&names);
        self.set = Set::Owned(Box::new(subset));
        self
    }

    /// The most bytes one read returns (default 256 KiB); more is cut at a
    /// line boundary, and the answer says how to read on.
    pub fn cap(mut self, bytes: usize) -> Toolset<'s> {
        self.cap = bytes.max(1);
        self
    }

    /// A check that sees each load and read before it is answered; an
    /// `Err` is answered to the model as an error with its text.
    pub fn approve(
        mut self,
        approve: impl Fn(Access<'_>) -> Result<(), String> + Send + Sync + 's,
    ) -> Toolset<'s> {
        self.approve = Some(Box::new(approve));
        self
    }

    /// The tool definitions for `provider`: the two host tools, then every
    /// HTTP tool of the set that is offered (not Deny), as a JSON array.
    pub fn definitions(&self, provider: Provider) -> Value {
        self.definitions_of(provider, |_| true)
    }

    /// The same, with the HTTP tools of the `loaded` skills only: a model
    /// sees a skill's tools once it has loaded the skill.
    pub fn definitions_for(&self, provider: Provider, loaded: &[&str]) -> Value {
        self.definitions_of(provider, |skill| loaded.contains(&skill.name()))
    }

    fn definitions_of(&self, provider: Provider, with_tools: impl Fn(&Skill) -> bool) -> Value {
        let mut all: Vec<Value> = self
            .host_tools()
            .map(|tool| host_definition(tool, provider, &self.schema(tool)))
            .collect();
        for skill in self.set.iter().filter(|skill| with_tools(skill)) {
            for tool in skill.tools().iter().filter(|tool| tool.is_offered()) {
                let text = match provider {
                    Provider::Anthropic => tool.anthropic_json(),
                    Provider::OpenAiChat => tool.openai_json(),
                    Provider::OpenAiResponses => tool.openai_responses_json(),
                };
                all.push(serde_json::from_str(&text).unwrap_or(Value::Null));
            }
        }
        Value::Array(all)
    }

    /// The JSON Schema of a host tool's parameters, from the table (the
    /// skill name an enum of this set's names): for APIs with shapes of
    /// their own, such as MCP's `inputSchema`.
    pub fn parameters(&self, tool: &HostTool) -> Value {
        self.schema(tool)
    }

    /// The JSON Schema of a host tool's parameters, from the table.
    fn schema(&self, tool: &HostTool) -> Value {
        let mut properties = Map::new();
        for param in tool.params {
            let mut schema = match param.kind {
                ParamKind::SkillName => {
                    json!({"type": "string", "enum": self.set.names().collect::<Vec<_>>()})
                }
                ParamKind::String => json!({"type": "string"}),
                ParamKind::Count => json!({"type": "integer", "minimum": 1}),
                ParamKind::Boolean => json!({"type": "boolean"}),
                ParamKind::Strings => json!({"type": "array", "items": {"type": "string"}}),
            };
            schema["description"] = Value::String(param.description.to_owned());
            properties.insert(param.name.to_owned(), schema);
        }
        let required: Vec<&str> = tool
            .params
            .iter()
            .filter(|p| p.required)
            .map(|p| p.name)
            .collect();
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })
    }

    /// The text for the system prompt: the catalog of skills and how to use
    /// the two tools, each with its parameters as the table gives them.
    pub fn instructions(&self) -> String {
        let mut text = String::from(
            "You have skills: instructions for particular tasks, with files. Each is listed below with when to use it.\n\
             When a task matches a skill, load it first and follow what it says; read its files when it points to them.\n\n",
        );
        text.push_str(self.set.catalog());
        text.push_str("\nTools:\n");
        for tool in self.host_tools() {
            text.push_str(&format!("- `{}`: {}\n", signature(tool), tool.description));
        }
        text
    }

    /// The answer to `call` in its provider's shape, when it is one of the
    /// two host tools; `None` for any other tool (send it through
    /// [`ToolUse::parse`]). Every problem is an answer the model can read:
    /// an error result (`is_error` on Anthropic) whose text starts `Error:`.
    pub fn answer(&self, call: &ToolUse) -> Option<Value> {
        let result = match call.arguments() {
            Ok(arguments) => self.respond(&call.name, &arguments)?,
            Err(error) => {
                self.host_tools().find(|tool| tool.name == call.name)?;
                Err(format!("Error: {error}"))
            }
        };
        Some(match result {
            Ok(text) => call.result(&text, false),
            Err(message) => call.result(&message, true),
        })
    }

    /// The answer to a call of the host tool `name` with `arguments`, in no
    /// API's shape (MCP and other transports wrap it themselves): `Ok` with
    /// the text, or `Err` with an error text that starts `Error:`. `None`
    /// when `name` is not a host tool.
    pub fn respond(&self, name: &str, arguments: &Value) -> Option<Result<String, String>> {
        Some(
            self.call(name, arguments)?
                .map_err(|error| format!("Error: {}", error.message)),
        )
    }

    /// The same, with the error typed: what a host that maps error kinds
    /// (an agent framework) calls.
    pub fn call(&self, name: &str, arguments: &Value) -> Option<Result<String, HostToolError>> {
        let tool = self.host_tools().find(|tool| tool.name == name)?;
        Some(self.run(tool, arguments))
    }

    fn run(&self, tool: &HostTool, arguments: &Value) -> Result<String, HostToolError> {
        let arguments = Arguments::read(tool, arguments)?;
        let skill = self.skill(arguments.text("name").unwrap_or_default())?;
        if tool.name == LOAD_SKILL {
            self.approved(Access::Load {
                skill: skill.name(),
            })?;
            return Ok(loaded(skill));
        }
        #[cfg(all(feature = "scripts", unix))]
        if let (RUN_SKILL_SCRIPT, Some(scripts)) = (tool.name, &self.scripts) {
            let path = arguments.text("path").unwrap_or_default();
            return scripts.run(skill, path, &arguments.texts("args"));
        }
        let path = arguments.text("path").unwrap_or_default();
        let file = file(skill, path)?;
        self.approved(Access::Read {
            skill: skill.name(),
            path,
        })?;
        match file.text() {
            Some(text) => Ok(self.lines(
                skill,
                file,
                text,
                arguments.count("offset"),
                arguments.count("limit"),
            )),
            None if arguments.flag("binary") => self.base64(file),
            None => Ok(format!(
                "`{}` is a binary file: {} bytes, {}, sha256 {}. Call {READ_SKILL_RESOURCE} with \"binary\": true for its bytes in base64.",
                file.path(),
                file.len(),
                file.mime().unwrap_or("application/octet-stream"),
                file.sha256_hex()
            )),
        }
    }

    fn skill(&self, name: &str) -> Result<&Skill, HostToolError> {
        self.set.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.set.names().collect();
            HostToolError::not_found(format!(
                "there is no skill named `{name}`; the skills are: {}",
                names.join(", ")
            ))
        })
    }

    fn approved(&self, access: Access<'_>) -> Result<(), HostToolError> {
        match &self.approve {
            Some(approve) => {
                approve(access).map_err(|why| HostToolError::refused(format!("not allowed: {why}")))
            }
            None => Ok(()),
        }
    }

    /// Lines from `offset` (1-based), at most `limit` of them, cut at a line
    /// boundary before `cap` bytes; what is left is said, with how to read on.
    fn lines(
        &self,
        skill: &Skill,
        file: &File,
        text: &str,
        offset: Option<u64>,
        limit: Option<u64>,
    ) -> String {
        let first = offset.unwrap_or(1).max(1);
        let total = text.split_inclusive('\n').count() as u64;
        if total == 0 {
            return format!("`{}` is empty.", file.path());
        }
        if first > total {
            return format!(
                "`{}` has {total} line{}; offset {first} is past its end.",
                file.path(),
                if total == 1 { "" } else { "s" }
            );
        }
        let mut out = String::new();
        let mut taken = 0u64;
        for line in text.split_inclusive('\n').skip((first - 1) as usize) {
            if limit.is_some_and(|limit| taken >= limit)
                || (taken > 0 && out.len() + line.len() > self.cap)
            {
                break;
            }
            if out.len() + line.len() > self.cap {
                // One line longer than the cap: cut inside it, at a character.
                let mut end = self.cap;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                out.push_str(&line[..end]);
                out.push_str(&format!(
                    "\n[... this line is {} bytes, more than the cap of {}: the rest of it is not shown]\n",
                    line.len(),
                    self.cap
                ));
                taken += 1;
                break;
            }
            out.push_str(line);
            taken += 1;
        }
        let next = first + taken;
        if next <= total {
            let left = total - next + 1;
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!(
                "[{left} more line{} of `{}` not shown; read on with {READ_SKILL_RESOURCE} {{\"name\": \"{}\", \"path\": \"{}\", \"offset\": {next}}}]",
                if left == 1 { "" } else { "s" },
                file.path(),
                skill.name(),
                file.path()
            ));
        }
        out
    }

    fn base64(&self, file: &File) -> Result<String, HostToolError> {
        let encoded_len = file.len().div_ceil(3) * 4;
        if encoded_len > self.cap {
            return Err(HostToolError::failed(format!(
                "`{}` is {} bytes, {encoded_len} in base64, over the cap of {} bytes: it cannot be read here",
                file.path(),
                file.len(),
                self.cap
            )));
        }
        Ok(file.to_base64())
    }
}

/// `read_skill_resource(name, path, offset?, limit?, binary?)`, from the table.
pub fn signature(tool: &HostTool) -> String {
    let params: Vec<String> = tool
        .params
        .iter()
        .map(|p| format!("{}{}", p.name, if p.required { "" } else { "?" }))
        .collect();
    format!("{}({})", tool.name, params.join(", "))
}

fn host_definition(tool: &HostTool, provider: Provider, schema: &Value) -> Value {
    let schema = schema.to_string();
    let text = match provider {
        Provider::Anthropic => definitions::anthropic(tool.name, tool.description, &schema),
        Provider::OpenAiChat => definitions::openai(tool.name, tool.description, &schema, false),
        Provider::OpenAiResponses => {
            definitions::openai_responses(tool.name, tool.description, &schema)
        }
    };
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// What `load_skill` answers: the rendered skill, then its files and how to
/// read them.
fn loaded(skill: &Skill) -> String {
    let mut text = skill.rendered().to_owned();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    if skill.files().is_empty() {
        text.push_str("\nThis skill has no other files.\n");
        return text;
    }
    text.push_str(&format!("\nFiles of `{}`:\n", skill.name()));
    for file in skill.files() {
        let kind = match (file.text(), file.mime()) {
            (Some(_), _) => "text".to_owned(),
            (None, Some(mime)) => format!("binary, {mime}"),
            (None, None) => "binary".to_owned(),
        };
        text.push_str(&format!(
            "- {} ({} bytes, {kind})\n",
            file.path(),
            file.len()
        ));
    }
    text.push_str(&format!(
        "Read one with {READ_SKILL_RESOURCE} {{\"name\": \"{}\", \"path\": \"<path>\"}}.\n",
        skill.name()
    ));
    text
}

/// The file at `path`, or an error that names the files there are.
fn file<'a>(skill: &'a Skill, path: &str) -> Result<&'a File, HostToolError> {
    if let Some(file) = skill.file(path) {
        return Ok(file);
    }
    if skills_core::file_path(path).as_deref() == Some(Skill::FILE) {
        return Err(HostToolError::not_found(format!(
            "SKILL.md is the skill itself: call {LOAD_SKILL} {{\"name\": \"{}\"}}",
            skill.name()
        )));
    }
    let files: Vec<&str> = skill.files().iter().take(50).map(File::path).collect();
    let more = skill.files().len().saturating_sub(files.len());
    let listed = if files.is_empty() {
        "it has no files".to_owned()
    } else if more > 0 {
        format!("its files are: {} (and {more} more)", files.join(", "))
    } else {
        format!("its files are: {}", files.join(", "))
    };
    Err(HostToolError::not_found(format!(
        "`{}` has no file `{path}`; {listed}",
        skill.name()
    )))
}

/// The table [`Arguments`] are checked against. A skill's name is a
/// string here: [`Toolset::skill`] answers a name of no skill with the
/// names there are.
fn checker(tool: &HostTool) -> Schema {
    let mut nodes = vec![Node::Object {
        properties: Cow::Owned(
            (tool.params.iter().zip(1..))
                .map(|(param, node)| Property {
                    name: Cow::Borrowed(param.name),
                    node,
                    required: param.required,
                    default: None,
                })
                .collect(),
        ),
        additional: false,
        checks: Cow::Borrowed(&Checks::NONE),
    }];
    nodes.extend(tool.params.iter().map(|param| match param.kind {
        ParamKind::SkillName | ParamKind::String => Node::String(Cow::Borrowed(&Checks::NONE)),
        ParamKind::Count => Node::Integer(Cow::Owned(Checks {
            minimum: Some(1.0),
            ..Checks::NONE
        })),
        ParamKind::Boolean => Node::Boolean,
        ParamKind::Strings => Node::Array {
            // The item node, after every parameter's own.
            items: tool.params.len() as u32 + 1,
            checks: Cow::Borrowed(&Checks::NONE),
        },
    }));
    nodes.push(Node::String(Cow::Borrowed(&Checks::NONE)));
    Schema {
        nodes: Cow::Owned(nodes),
    }
}

/// A host tool's arguments, checked by the checker every tool call goes
/// through ([`skills_core::Schema`]) against a table written from the
/// tool's parameters: a model reads the same messages for a host tool as
/// for a skill's own, with the host tool's signature after them.
struct Arguments {
    object: Map<String, Value>,
}

impl Arguments {
    fn read(tool: &HostTool, arguments: &Value) -> Result<Arguments, HostToolError> {
        match checker(tool).check(tool.name, arguments) {
            Ok(object) => Ok(Arguments { object }),
            Err(error) => Err(HostToolError::invalid(
                error.path().unwrap_or("."),
                format!("{error}; call {}", signature(tool)),
            )),
        }
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.object.get(name).and_then(Value::as_str)
    }

    #[cfg(all(feature = "scripts", unix))]
    fn texts(&self, name: &str) -> Vec<String> {
        self.object
            .get(name)
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn count(&self, name: &str) -> Option<u64> {
        self.object.get(name).and_then(Value::as_u64)
    }

    fn flag(&self, name: &str) -> bool {
        self.object
            .get(name)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
}
