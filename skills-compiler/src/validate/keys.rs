//! Every key a skill may write, declared once: the frontmatter's keys and
//! those of `tools.yaml`, a tool, an endpoint and `permissions`, each in
//! canonical order (the order `fmt` and the writer put keys in) with what
//! it means, its JSON Schema for editors and, for the frontmatter, how it
//! is read and checked.
//!
//! Everything else reads these lists: the unknown-key diagnostics and their
//! did-you-mean, the profiles' key groups, the canonical order, the editor
//! schema (`cargo skills schema`) and `cargo skills explain keys`. Adding a
//! key is adding a line here (docs/architecture.md, "Adding a key").

use serde_json::{Value, json};
use skills_core::Tool;

pub(crate) use super::fields::Held;
use super::fields::{self, Read};
use super::host_keys::{CONTEXTS, EFFORTS, Expect, MODEL_ALIASES, SHELLS};

/// What a frontmatter key is, and so which profiles take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The Agent Skills specification: every profile.
    Spec,
    /// This project's extensions: `extended` and `lenient`.
    Extension,
    /// Extensions only a protocol (`kind: protocol`) may have.
    Protocol,
    /// A key another client defines: kept as an extra, its type checked.
    Client,
}

/// One frontmatter key.
#[derive(Debug, Clone)]
pub struct Key {
    /// The key as written.
    pub name: &'static str,
    /// Which profiles take it.
    pub group: Group,
    /// Whether a skill must have it (a protocol's keys: a protocol must).
    pub required: bool,
    /// What it says, in one sentence.
    pub doc: &'static str,
    /// The JSON Schema of its value, as editors check it.
    pub schema: fn() -> Value,
    /// How the validator reads and checks it.
    pub(crate) read: Read,
    /// Where the runtime's table holds its value.
    pub(crate) held: Held,
    /// For another client's key, the client that reads it (what `fix --to
    /// portable` says stops seeing it once it moves into `metadata`).
    pub host: Option<&'static str>,
    /// Which hosts read the key, since which of their versions, and where
    /// that was verified: the table of `docs/host-keys.md` and the hosts
    /// `cargo skills explain keys` shows beside each key.
    pub read_by: &'static [HostRead],
}

/// A host that reads a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostRead {
    /// The host: `Claude Code`, `Codex`, or `every host` for the
    /// specification's keys.
    pub host: &'static str,
    /// The first version known to read it (`2.1.332`), or what is known.
    pub since: &'static str,
    /// Where it was verified.
    pub verified: &'static str,
}

impl Key {
    /// What a client's key must be (`None` for any other key).
    pub fn expected(&self) -> Option<&'static str> {
        match self.read {
            Read::Extra(expect) if self.group == Group::Client => Some(expect.phrase()),
            _ => None,
        }
    }
}

/// One key of a nested mapping (`tools.yaml`, a tool, an endpoint,
/// `permissions`), which the module that reads the mapping checks; `T` is
/// the runtime's table that holds the mapping (a tool's), or `()`.
#[derive(Debug)]
pub struct Field<T: 'static = ()> {
    /// The key as written.
    pub name: &'static str,
    /// Whether the mapping must have it.
    pub required: bool,
    /// What it says, in one sentence.
    pub doc: &'static str,
    /// The JSON Schema of its value, as editors check it.
    pub schema: fn() -> Value,
    /// Where the table holds its value: a tool's key held as text is read,
    /// written and shown by this alone.
    pub(crate) held: Held<T>,
}

const fn key(
    name: &'static str,
    group: Group,
    read: Read,
    doc: &'static str,
    schema: fn() -> Value,
) -> Key {
    Key {
        name,
        group,
        required: false,
        doc,
        schema,
        read,
        held: Held::Elsewhere,
        host: None,
        read_by: &[],
    }
}

/// `key`, read by `hosts`.
const fn read_by(key: Key, hosts: &'static [HostRead]) -> Key {
    Key {
        read_by: hosts,
        ..key
    }
}

/// `key`, its value held where `held` says.
const fn holds(key: Key, held: Held) -> Key {
    Key { held, ..key }
}

/// A key held as text in the table's field `$field`.
macro_rules! text {
    ($field:ident) => {
        Held::Text {
            get: |table| table.$field.as_deref(),
            set: |table, value| table.$field = value,
        }
    };
}

/// A key held as a list of texts in the table's field `$field`.
macro_rules! texts {
    ($field:ident) => {
        Held::Texts {
            get: |table| &table.$field,
            set: |table, value| table.$field = value,
        }
    };
}

const fn required(key: Key) -> Key {
    Key {
        required: true,
        ..key
    }
}

const CLAUDE_CODE: &str = "Claude Code";

/// Where Claude Code's keys were verified: the frontmatter schema that
/// Claude Code 2.1.332 ships (late November 2026) and its skills page.
const CLAUDE_CODE_SCHEMA: &str = "the frontmatter schema Claude Code 2.1.332 ships, as read for issue 63; code.claude.com/docs/en/skills";
/// Claude Code's keys read by every version this project has checked.
const CLAUDE_CODE_2_1: &[HostRead] = &[HostRead {
    host: CLAUDE_CODE,
    since: "2.1; verified on 2.1.332",
    verified: CLAUDE_CODE_SCHEMA,
}];
/// Claude Code's keys new in its late-2026 schema.
const CLAUDE_CODE_2_1_332: &[HostRead] = &[HostRead {
    host: CLAUDE_CODE,
    since: "2.1.332 or earlier",
    verified: CLAUDE_CODE_SCHEMA,
}];
/// Keys Claude Code reads but marks internal.
const CLAUDE_CODE_INTERNAL: &[HostRead] = &[HostRead {
    host: CLAUDE_CODE,
    since: "2.1.332 or earlier; marked internal",
    verified: CLAUDE_CODE_SCHEMA,
}];
/// The specification's keys: every conforming host.
const EVERY_HOST: &[HostRead] = &[HostRead {
    host: "every host",
    since: "the Agent Skills specification",
    verified: "agentskills.io/specification",
}];
/// `name`, which Codex makes optional.
const NAME_HOSTS: &[HostRead] = &[
    EVERY_HOST[0],
    HostRead {
        host: "Codex",
        since: "optional there: the folder's name when absent",
        verified: "Codex's skills documentation (developers.openai.com/codex/skills), as read for issue 63",
    },
];
/// `metadata`, whose `short-description` Codex shows.
const METADATA_HOSTS: &[HostRead] = &[
    EVERY_HOST[0],
    HostRead {
        host: "Codex",
        since: "`metadata.short-description` (at most 1,024 characters)",
        verified: "Codex's skills documentation (developers.openai.com/codex/skills), as read for issue 63",
    },
];
/// The specification's keys that Claude Code also marks internal.
const LICENSE_HOSTS: &[HostRead] = &[EVERY_HOST[0], CLAUDE_CODE_INTERNAL[0]];

/// A key of Claude Code's, of a type with no more rule than its shape.
const fn client(host: &'static str, name: &'static str, expect: Expect, doc: &'static str) -> Key {
    let schema: fn() -> Value = match expect {
        Expect::Bool => || json!({"type": "boolean"}),
        Expect::Map => || json!({"type": "object"}),
        _ => || json!({"type": "string"}),
    };
    client_with(host, name, expect, doc, schema)
}

/// A key of another client's, with its value's schema for editors.
const fn client_with(
    host: &'static str,
    name: &'static str,
    expect: Expect,
    doc: &'static str,
    schema: fn() -> Value,
) -> Key {
    Key {
        host: Some(host),
        read_by: CLAUDE_CODE_2_1,
        ..key(name, Group::Client, Read::Extra(expect), doc, schema)
    }
}

const fn field<T>(name: &'static str, doc: &'static str, schema: fn() -> Value) -> Field<T> {
    Field {
        name,
        required: false,
        doc,
        schema,
        held: Held::Elsewhere,
    }
}

const fn required_field<T>(
    name: &'static str,
    doc: &'static str,
    schema: fn() -> Value,
) -> Field<T> {
    Field {
        required: true,
        ..field(name, doc, schema)
    }
}

/// A tool's `field`, its value held where `held` says.
const fn held_field(field: Field<Tool>, held: Held<Tool>) -> Field<Tool> {
    Field { held, ..field }
}

fn text() -> Value {
    json!({"type": "string"})
}

fn non_empty_text() -> Value {
    json!({"type": "string", "minLength": 1})
}

fn text_or_list() -> Value {
    json!({"oneOf": [{"type": "string", "minLength": 1}, {"type": "array", "items": {"type": "string", "minLength": 1}}]})
}

fn texts() -> Value {
    json!({"type": "array", "items": {"type": "string", "minLength": 1}})
}

fn non_empty_texts() -> Value {
    json!({"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}})
}

fn tool_list() -> Value {
    json!({"type": "array", "items": {"$ref": "#/$defs/tool"}})
}

fn permissions_ref() -> Value {
    json!({"$ref": "#/$defs/permissions"})
}

fn text_map() -> Value {
    json!({"type": "object", "additionalProperties": {"type": "string"}})
}

fn tool_names() -> Value {
    json!({"type": "array", "items": {"type": "string"}})
}

/// Every frontmatter key, in canonical order: the specification's, then
/// this project's (a protocol's among them, where they read best), then
/// other clients' (which keep their place in the file).
pub const FRONTMATTER: &[Key] = &[
    read_by(
        required(key(
            "name",
            Group::Spec,
            Read::With(fields::name),
            "The skill's name: lowercase letters, digits and single hyphens, equal to its directory's name.",
            || {
                json!({
                    "type": "string", "minLength": 1, "maxLength": 64,
                    "pattern": "^[\\p{Ll}\\p{Lo}\\p{N}]+(-[\\p{Ll}\\p{Lo}\\p{N}]+)*$",
                    "description": "Lowercase letters, digits and single hyphens; equal to the skill's directory name.",
                })
            },
        )),
        NAME_HOSTS,
    ),
    read_by(
        required(key(
            "description",
            Group::Spec,
            Read::With(fields::description),
            "What the skill does and when a model should use it (at most 1,024 characters); sent on every turn.",
            || {
                json!({
                    "type": "string", "minLength": 1, "maxLength": 1024,
                    "description": "What the skill does and when a model should use it. Sent on every turn.",
                })
            },
        )),
        EVERY_HOST,
    ),
    read_by(
        holds(
            key(
                "license",
                Group::Spec,
                Read::Held,
                "The skill's licence: a name or the file that holds it.",
                text,
            ),
            text!(license),
        ),
        LICENSE_HOSTS,
    ),
    read_by(
        holds(
            key(
                "compatibility",
                Group::Spec,
                Read::With(fields::compatibility),
                "What the skill needs to run (tools, network, platform), in 1 to 500 characters.",
                || json!({"type": "string", "minLength": 1, "maxLength": 500}),
            ),
            text!(compatibility),
        ),
        EVERY_HOST,
    ),
    read_by(
        key(
            "metadata",
            Group::Spec,
            Read::With(fields::metadata),
            "Other data, as a mapping of keys to strings.",
            || json!({"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}}),
        ),
        METADATA_HOSTS,
    ),
    read_by(
        key(
            "allowed-tools",
            Group::Spec,
            Read::With(fields::allowed_tools),
            "The host's tools the skill may use without asking, separated by spaces.",
            || json!({"type": "string", "description": "Space-separated tool names."}),
        ),
        EVERY_HOST,
    ),
    key(
        "kind",
        Group::Extension,
        Read::With(fields::kind),
        "`skill` (the default) or `protocol`: steps a model follows and checks.",
        || json!({"enum": ["skill", "protocol"], "default": "skill"}),
    ),
    read_by(
        key(
            "version",
            Group::Extension,
            Read::With(fields::version),
            "The skill's version: a positive integer or a quoted semver string.",
            || json!({"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^\\d+\\.\\d+\\.\\d+"}]}),
        ),
        CLAUDE_CODE_INTERNAL,
    ),
    holds(
        key(
            "area",
            Group::Extension,
            Read::With(fields::area),
            "The area the skill belongs to; one of the configured `areas` when there are any.",
            non_empty_text,
        ),
        text!(area),
    ),
    holds(
        key(
            "tags",
            Group::Extension,
            Read::Held,
            "Words to find the skill by: a string or a list of strings.",
            text_or_list,
        ),
        texts!(tags),
    ),
    holds(
        key(
            "triggers",
            Group::Extension,
            Read::Held,
            "Phrases that should make a model use the skill: a string or a list of strings.",
            text_or_list,
        ),
        texts!(triggers),
    ),
    holds(
        key(
            "app_slug",
            Group::Extension,
            Read::Held,
            "The application the skill drives, as the host names it.",
            non_empty_text,
        ),
        text!(app_slug),
    ),
    holds(
        key(
            "model_config",
            Group::Extension,
            Read::Held,
            "The model settings the skill asks for, as the host names them.",
            non_empty_text,
        ),
        text!(model_config),
    ),
    key(
        "preconditions",
        Group::Protocol,
        Read::WithKind,
        "What must hold before the protocol starts.",
        texts,
    ),
    required(key(
        "steps",
        Group::Protocol,
        Read::WithKind,
        "The protocol's steps, in order.",
        non_empty_texts,
    )),
    required(key(
        "post_checks",
        Group::Protocol,
        Read::WithKind,
        "How each step is checked once done.",
        non_empty_texts,
    )),
    required(key(
        "on_deviation",
        Group::Protocol,
        Read::WithKind,
        "What to do when the run drifts off plan.",
        non_empty_text,
    )),
    required(key(
        "on_blocked",
        Group::Protocol,
        Read::WithKind,
        "What to do when the protocol cannot be completed.",
        non_empty_text,
    )),
    required(key(
        "on_already_done",
        Group::Protocol,
        Read::WithKind,
        "What to do when a step is already done.",
        non_empty_text,
    )),
    key(
        "tools",
        Group::Extension,
        Read::Elsewhere,
        "HTTP tools a model may call: name, description, JSON Schema parameters, endpoint.",
        tool_list,
    ),
    key(
        "permissions",
        Group::Extension,
        Read::Elsewhere,
        "Which tools need a confirmation and which may write.",
        permissions_ref,
    ),
    client(
        CLAUDE_CODE,
        "when_to_use",
        Expect::String,
        "Claude Code: more on when to use the skill; listed with the description, the two cut at 1,536 characters.",
    ),
    client(
        CLAUDE_CODE,
        "argument-hint",
        Expect::String,
        "Claude Code: what to type after the skill's slash command.",
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "arguments",
            Expect::Arguments,
            "Claude Code (internal): the typed form of `argument-hint`.",
            || json!({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "object"}]}),
        ),
        CLAUDE_CODE_INTERNAL,
    ),
    client(
        CLAUDE_CODE,
        "disable-model-invocation",
        Expect::Bool,
        "Claude Code: only the user may invoke the skill; it is not listed to the model.",
    ),
    client(
        CLAUDE_CODE,
        "user-invocable",
        Expect::Bool,
        "Claude Code: whether the skill is a slash command.",
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "disallowed-tools",
            Expect::Tools,
            "Claude Code: the host's tools the skill may not use, as `allowed-tools` lists them.",
            || json!({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}),
        ),
        CLAUDE_CODE_2_1_332,
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "disallowedTools",
            Expect::Tools,
            "Claude Code: an undocumented spelling of `disallowed-tools` (W023).",
            || json!({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}),
        ),
        CLAUDE_CODE_2_1_332,
    ),
    client_with(
        CLAUDE_CODE,
        "model",
        Expect::Model(MODEL_ALIASES),
        "Claude Code: the model that runs the skill: `haiku`, `sonnet`, `opus`, `fable`, a full model ID, or `inherit`.",
        || json!({"anyOf": [{"enum": MODEL_ALIASES}, {"type": "string", "pattern": "[0-9._:/@-]"}]}),
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "effort",
            Expect::WordOrInteger(EFFORTS),
            "Claude Code: how hard the model thinks: `low`, `medium`, `high`, `max`, or an integer.",
            || json!({"anyOf": [{"enum": EFFORTS}, {"type": "integer"}]}),
        ),
        CLAUDE_CODE_2_1_332,
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "shell",
            Expect::OneOf(SHELLS),
            "Claude Code: the shell of the skill's `!` commands: `bash` or `powershell`.",
            || json!({"enum": SHELLS}),
        ),
        CLAUDE_CODE_2_1_332,
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "paths",
            Expect::Globs,
            "Claude Code: glob patterns; the skill applies to matching files.",
            || json!({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string", "minLength": 1}}]}),
        ),
        CLAUDE_CODE_2_1_332,
    ),
    client(
        CLAUDE_CODE,
        "hooks",
        Expect::Map,
        "Claude Code: hooks scoped to the skill's run.",
    ),
    client_with(
        CLAUDE_CODE,
        "context",
        Expect::OneOf(CONTEXTS),
        "Claude Code: `inline` (the default) or `fork`, which runs the skill in a sub-agent.",
        || json!({"enum": CONTEXTS}),
    ),
    client(
        CLAUDE_CODE,
        "agent",
        Expect::String,
        "Claude Code: the sub-agent that runs the skill.",
    ),
    read_by(
        client(
            CLAUDE_CODE,
            "background",
            Expect::Bool,
            "Claude Code: run the forked sub-agent in the background (only with `context: fork`).",
        ),
        CLAUDE_CODE_2_1_332,
    ),
    read_by(
        client_with(
            CLAUDE_CODE,
            "fallback",
            Expect::Scalar,
            "Claude Code (internal): read, its type undocumented; kept as written.",
            || json!({"type": ["string", "number", "boolean"]}),
        ),
        CLAUDE_CODE_INTERNAL,
    ),
];

/// The keys of a sidecar `tools.yaml`.
pub const TOOLS_YAML: &[Field] = &[
    field("tools", "The tools of the SKILL.md beside it.", tool_list),
    field(
        "permissions",
        "Which tools need a confirmation and which may write.",
        permissions_ref,
    ),
];

/// The keys of one tool, in canonical order.
pub const TOOL: &[Field<Tool>] = &[
    required_field(
        "name",
        "The tool's name: a letter, then up to 63 letters, digits, `_` or `-`.",
        || json!({"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"}),
    ),
    held_field(
        field(
            "title",
            "A name for people: what a client shows in place of the tool's name (MCP's `title`).",
            non_empty_text,
        ),
        text!(title),
    ),
    required_field(
        "description",
        "What the tool does and when to call it: the model chooses tools by it.",
        non_empty_text,
    ),
    field(
        "parameters",
        "The JSON Schema of the arguments; its root is `type: object`.",
        || json!({"type": "object", "description": "JSON Schema of the arguments; its root is `type: object`."}),
    ),
    field(
        "endpoint",
        "The HTTP request the tool sends.",
        endpoint_schema,
    ),
];

/// The keys of a tool's endpoint, in canonical order.
pub const ENDPOINT: &[Field] = &[
    required_field(
        "method",
        "The HTTP method.",
        || json!({"enum": ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]}),
    ),
    required_field(
        "url",
        "The URL, `http` or `https`, with `{{param}}` placeholders in its path and query.",
        || json!({"type": "string", "pattern": "^https?://"}),
    ),
    field("query", "Query parameters: name to template.", text_map),
    field("header", "Request headers: name to template.", text_map),
    field(
        "body",
        "A JSON template for the request's body.",
        || json!({"type": "string", "description": "A JSON template; `{{param}}` as a value or inside a string."}),
    ),
];

/// The keys of `permissions`, in canonical order.
pub const PERMISSIONS: &[Field] = &[
    field(
        "default_mode",
        "`readonly` (writing tools are denied unless allowed) or `confirm` (they ask first).",
        || json!({"enum": ["readonly", "confirm"], "default": "readonly"}),
    ),
    field(
        "require_confirmation",
        "Tools that ask the user before each call.",
        tool_names,
    ),
    field(
        "allow_write",
        "Writing tools that may run without asking.",
        tool_names,
    ),
];

/// The top-level keys of Codex's `agents/openai.yaml`.
pub const CODEX_YAML: &[Field] = &[
    field(
        "interface",
        "How Codex shows the skill: names, icons, colour, a default prompt.",
        || json!({"type": "object"}),
    ),
    field(
        "dependencies",
        "What the skill needs: `tools`, each an MCP server or another tool.",
        || json!({"type": "object"}),
    ),
    field(
        "policy",
        "When Codex may use the skill: `allow_implicit_invocation`, `products`.",
        || json!({"type": "object"}),
    ),
];

/// The keys of `interface` in `agents/openai.yaml`.
pub const CODEX_INTERFACE: &[Field] = &[
    field("display_name", "The name Codex shows.", non_empty_text),
    field(
        "short_description",
        "The line Codex shows under the name.",
        non_empty_text,
    ),
    field(
        "icon_small",
        "A small icon: a file under the skill's `assets/`.",
        non_empty_text,
    ),
    field(
        "icon_large",
        "A large icon: a file under the skill's `assets/`.",
        non_empty_text,
    ),
    field(
        "brand_color",
        "The skill's colour, `#RRGGBB`.",
        || json!({"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"}),
    ),
    field(
        "default_prompt",
        "The prompt Codex offers when the skill is picked by hand.",
        non_empty_text,
    ),
];

/// The keys of `dependencies` in `agents/openai.yaml`.
pub const CODEX_DEPENDENCIES: &[Field] = &[field(
    "tools",
    "The tools the skill needs, each a mapping.",
    || json!({"type": "array", "items": {"type": "object"}}),
)];

/// The keys of one of `dependencies.tools` in `agents/openai.yaml`.
pub const CODEX_DEPENDENCY_TOOL: &[Field] = &[
    field("type", "What kind of tool: `mcp`, for one.", non_empty_text),
    field("value", "The tool's name or identifier.", non_empty_text),
    field("description", "What the tool is for.", text),
    field(
        "transport",
        "How an MCP server is reached: `stdio` or `streamable_http`.",
        text,
    ),
    field("command", "The command that starts a `stdio` server.", text),
    field("url", "The URL of a `streamable_http` server.", text),
];

/// The keys of `policy` in `agents/openai.yaml`.
pub const CODEX_POLICY: &[Field] = &[
    field(
        "allow_implicit_invocation",
        "`false`: Codex never picks the skill itself, only when asked by name (the budget and trigger tests leave it out).",
        || json!({"type": "boolean"}),
    ),
    field(
        "products",
        "The products the skill is offered in.",
        tool_names,
    ),
];

/// Every mapping of `agents/openai.yaml`, by its path.
pub const CODEX_MAPPINGS: &[(&str, &[Field])] = &[
    ("", CODEX_YAML),
    ("interface.", CODEX_INTERFACE),
    ("dependencies.", CODEX_DEPENDENCIES),
    ("dependencies.tools[].", CODEX_DEPENDENCY_TOOL),
    ("policy.", CODEX_POLICY),
];

fn endpoint_schema() -> Value {
    object_schema(ENDPOINT)
}

/// A nested mapping's JSON Schema: its keys, which are required, and no
/// others.
pub fn object_schema<T>(fields: &[Field<T>]) -> Value {
    let properties: serde_json::Map<String, Value> = fields
        .iter()
        .map(|field| (field.name.to_owned(), (field.schema)()))
        .collect();
    let mut schema = json!({"type": "object"});
    let required = required_names(fields);
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema["additionalProperties"] = Value::Bool(false);
    schema["properties"] = Value::Object(properties);
    schema
}

/// The names of a nested mapping's keys, in canonical order.
pub fn names<T>(fields: &[Field<T>]) -> Vec<&'static str> {
    fields.iter().map(|field| field.name).collect()
}

fn required_names<T>(fields: &[Field<T>]) -> Vec<&'static str> {
    fields
        .iter()
        .filter(|field| field.required)
        .map(|field| field.name)
        .collect()
}

/// A list of frontmatter key declarations: [`FRONTMATTER`], or in a test
/// that list with one key more, to prove that a declaration is all a key
/// needs.
#[derive(Debug, Clone, Copy)]
pub struct KeyList<'a>(pub &'a [Key]);

impl<'a> KeyList<'a> {
    /// The keys the compiler knows.
    pub const DECLARED: KeyList<'static> = KeyList(FRONTMATTER);

    /// The declaration of `name`, if it is a known key.
    pub fn find(self, name: &str) -> Option<&'a Key> {
        self.0.iter().find(|key| key.name == name)
    }

    /// Each key's name and where the table holds it, in canonical order.
    pub(crate) fn held(self) -> impl Iterator<Item = (&'a str, Held)> {
        self.0.iter().map(|key| (key.name, key.held))
    }

    /// The names of the keys in `group`, in canonical order.
    pub fn named(self, group: Group) -> impl Iterator<Item = &'a str> {
        self.0
            .iter()
            .filter(move |key| key.group == group)
            .map(|key| key.name)
    }

    /// The names of the required keys in `group`, in canonical order.
    pub fn required_in(self, group: Group) -> impl Iterator<Item = &'a str> {
        self.0
            .iter()
            .filter(move |key| key.group == group && key.required)
            .map(|key| key.name)
    }

    /// Whether `name` is the specification's.
    pub fn is_spec(self, name: &str) -> bool {
        self.find(name).is_some_and(|key| key.group == Group::Spec)
    }

    /// Where `name` goes in canonical order: the specification's keys
    /// first, then this project's, then other keys in their place in the
    /// file, then `x-` keys.
    pub fn rank(self, name: &str) -> (u8, usize) {
        let place = self.0.iter().position(|key| key.name == name);
        match place.map(|at| (at, self.0[at].group)) {
            Some((at, Group::Spec)) => (0, at),
            Some((at, Group::Extension | Group::Protocol)) => (1, at),
            _ if name.starts_with("x-") => (3, 0),
            _ => (2, 0),
        }
    }
}

/// Each key the skill's `table` holds as text and has a value for, with
/// that value, in canonical order (`license`, `compatibility`, `area`...).
pub fn texts_of(table: &skills_core::Skill) -> impl Iterator<Item = (&'static str, &str)> {
    FRONTMATTER.iter().filter_map(move |key| match key.held {
        Held::Text { get, .. } => Some((key.name, get(table)?)),
        Held::Texts { .. } | Held::Elsewhere => None,
    })
}

/// The declaration of `name`, if it is a known key.
pub fn find(name: &str) -> Option<&'static Key> {
    KeyList::DECLARED.find(name)
}

/// The names of the keys in `group`, in canonical order.
pub fn named(group: Group) -> impl Iterator<Item = &'static str> {
    KeyList::DECLARED.named(group)
}

/// The names of the required keys in `group`, in canonical order.
pub fn required_in(group: Group) -> impl Iterator<Item = &'static str> {
    KeyList::DECLARED.required_in(group)
}

/// Whether `name` is the specification's.
pub fn is_spec(name: &str) -> bool {
    KeyList::DECLARED.is_spec(name)
}

/// Whether `name` is one of this project's keys (a protocol's included).
pub fn is_extension(name: &str) -> bool {
    find(name).is_some_and(|key| matches!(key.group, Group::Extension | Group::Protocol))
}

/// Where `name` goes in canonical order ([`KeyList::rank`]).
pub fn rank(name: &str) -> (u8, usize) {
    KeyList::DECLARED.rank(name)
}

/// Each of a nested mapping's keys and where its table holds it, in
/// canonical order.
pub(crate) fn held_in<T>(fields: &[Field<T>]) -> impl Iterator<Item = (&'static str, Held<T>)> {
    fields.iter().map(|field| (field.name, field.held))
}

/// Where `name` goes among a nested mapping's `fields`: declared keys in
/// declared order, then the others.
pub fn rank_in<T>(fields: &[Field<T>], name: &str) -> usize {
    fields
        .iter()
        .position(|field| field.name == name)
        .unwrap_or(fields.len())
}

/// Every key, by group, in canonical order, the hosts that read each, and
/// the manifest's options: what `cargo skills explain keys` prints. Made
/// from the declarations, so it lists exactly what the compiler reads.
pub fn explain() -> String {
    let line = |group: Group| named(group).collect::<Vec<_>>().join(", ");
    let clients: Vec<String> = FRONTMATTER
        .iter()
        .filter_map(|key| Some(format!("{} ({})", key.name, key.expected()?)))
        .collect();
    let width = FRONTMATTER
        .iter()
        .map(|key| key.name.len())
        .max()
        .unwrap_or(0);
    let hosts: Vec<String> = FRONTMATTER
        .iter()
        .filter(|key| !key.read_by.is_empty())
        .map(|key| {
            let readers: Vec<String> = key
                .read_by
                .iter()
                .map(|read| format!("{}: {}", read.host, read.since))
                .collect();
            format!("  {:width$}  {}", key.name, readers.join("; "))
        })
        .collect();
    format!(
        "Frontmatter keys of SKILL.md, in the order `cargo skills fmt` writes them\n\n\
         The Agent Skills specification (every profile):\n  {}\n\n\
         This project's extensions (profiles `extended` and `lenient`):\n  {}\n\n\
         A protocol's keys (`kind: protocol`, profiles `extended` and `lenient`):\n  {}\n\n\
         Other clients' keys (kept as extras, their values checked):\n  {}\n\n\
         Which host reads each key (docs/host-keys.md says where each was verified):\n{}\n\n\
         A key that starts with `x-` is kept as an extra. Any other key is {}\n\
         ({} in `portable`, which allows the specification's keys only).\n\
         Codex also reads a skill's `agents/openai.yaml`: `cargo skills explain openai.yaml`.\n\n\
         Options of [package.metadata.skills] (and include_skills!):\n  {}\n",
        line(Group::Spec),
        line(Group::Extension),
        line(Group::Protocol),
        clients.join(", "),
        hosts.join("\n"),
        crate::diagnostics::Code::UnknownKey.as_str(),
        crate::diagnostics::Code::NotPortable.as_str(),
        crate::config::option_keys::<crate::config::Overrides>().join(", "),
    )
}

/// `docs/host-keys.md`: each key a host reads, which host, since which
/// version and where it was verified; generated from the declarations so
/// that it cannot drift from what the compiler checks.
pub fn host_keys_markdown() -> String {
    let mut out = String::from(
        "# The hosts' keys\n\n\
         Generated from `skills-compiler/src/validate/keys.rs`; `cargo test -p skills-compiler --test docs` \
         fails when this file is stale (`UPDATE_DOCS=1` rewrites it). Each row is a frontmatter key of \
         SKILL.md that a host reads, and the value rule `cargo skills check` holds it to \
         (`cargo skills explain KEY` prints one).\n\n\
         | key | read by | since | verified in | value |\n|---|---|---|---|---|\n",
    );
    for key in FRONTMATTER {
        for read in key.read_by {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                key.name,
                read.host,
                read.since,
                read.verified,
                key.doc.replace('|', "\\|")
            ));
        }
    }
    out.push_str(
        "\n## Codex's `agents/openai.yaml`\n\n\
         Codex reads a sidecar `agents/openai.yaml` in the skill directory; `cargo skills check` \
         checks it as a file of the skill (S210, unknown keys S112). From Codex's skills \
         documentation (developers.openai.com/codex/skills), as read for issue 63.\n\n| key | value |\n|---|---|\n",
    );
    for (path, fields) in CODEX_MAPPINGS {
        for field in *fields {
            out.push_str(&format!("| `{path}{}` | {} |\n", field.name, field.doc));
        }
    }
    out
}

/// One key and what it says: `cargo skills explain <KEY>`. A nested key is
/// named by its path (`tool.endpoint`, `endpoint.url`, `permissions.allow_write`).
pub fn explain_key(name: &str) -> Option<String> {
    if let Some(key) = find(name) {
        let group = match key.group {
            Group::Spec => "the Agent Skills specification (every profile)",
            Group::Extension => "this project's extension (profiles `extended` and `lenient`)",
            Group::Protocol => "a protocol's key (`kind: protocol`)",
            Group::Client => "another client's key, kept as an extra",
        };
        let required = if key.required { ", required" } else { "" };
        return Some(format!(
            "`{}`: {group}{required}\n\n{}\n\nSchema: {}\n",
            key.name,
            key.doc,
            (key.schema)()
        ));
    }
    if let Some(path) = name.strip_prefix("openai.yaml") {
        return explain_codex(path.strip_prefix('.').unwrap_or(path));
    }
    let (mapping, leaf) = name.split_once('.')?;
    let explain = |fields: &[Field<_>]| explain_field(mapping, fields, leaf);
    match mapping {
        "tools.yaml" => explain(TOOLS_YAML),
        "tool" => explain_field(mapping, TOOL, leaf),
        "endpoint" => explain(ENDPOINT),
        "permissions" => explain(PERMISSIONS),
        _ => None,
    }
}

/// `agents/openai.yaml` (`path` empty), or one of its keys by its path
/// (`interface.brand_color`).
fn explain_codex(path: &str) -> Option<String> {
    if path.is_empty() {
        let mut out = String::from(
            "`agents/openai.yaml`: Codex's sidecar in a skill directory, checked with the skill (S210)\n\n",
        );
        for (prefix, fields) in CODEX_MAPPINGS {
            for field in *fields {
                out.push_str(&format!("  {prefix}{}: {}\n", field.name, field.doc));
            }
        }
        return Some(out);
    }
    CODEX_MAPPINGS.iter().find_map(|(prefix, fields)| {
        let leaf = path.strip_prefix(prefix)?;
        let mapping = format!("`agents/openai.yaml` {}", prefix.trim_end_matches('.'));
        explain_field(mapping.trim_end(), fields, leaf)
    })
}

/// The key `leaf` of a nested mapping's `fields`, and what it says.
fn explain_field<T>(mapping: &str, fields: &[Field<T>], leaf: &str) -> Option<String> {
    let field = fields.iter().find(|field| field.name == leaf)?;
    let required = if field.required { ", required" } else { "" };
    Some(format!(
        "`{leaf}`: a key of {mapping}{required}\n\n{}\n\nSchema: {}\n",
        field.doc,
        (field.schema)()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key read by the shape its field has must say where that field
    /// is: otherwise its value would be read into nothing.
    #[test]
    fn every_key_read_by_its_shape_is_held_somewhere() {
        for key in FRONTMATTER {
            if matches!(key.read, Read::Held) {
                assert!(!matches!(key.held, Held::Elsewhere), "{}", key.name);
            }
        }
    }

    #[test]
    fn every_key_is_declared_once_in_each_list() {
        let lists: Vec<Vec<&str>> = vec![
            FRONTMATTER.iter().map(|key| key.name).collect(),
            names(TOOLS_YAML),
            names(TOOL),
            names(ENDPOINT),
            names(PERMISSIONS),
        ];
        for mut names in lists {
            names.sort_unstable();
            let count = names.len();
            names.dedup();
            assert_eq!(names.len(), count, "{names:?}");
        }
    }
}
