//! What `list`, `catalog`, `tools` and `expand` print: views of compiled
//! skills, as text (each value from a skill [`printable`]) or JSON. A front
//! end picks one and prints it.

use proc_macro2::TokenStream;
use serde_json::{Value, json};
use skills_core::printable;

use crate::emit::json::{self, View};
use crate::ir::{Skill, SkillSet, present};

/// `list`'s table: name, kind, tool count and the description's first line.
pub fn list_table(set: &SkillSet) -> String {
    let width = set
        .skills
        .iter()
        .map(|s| s.name().chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:width$}  {:8}  {:5}  DESCRIPTION\n",
        "NAME", "KIND", "TOOLS"
    );
    for skill in &set.skills {
        out.push_str(&format!(
            "{:width$}  {:8}  {:5}  {}\n",
            skill.name(),
            skill.table.kind.as_str(),
            skill.tools.len(),
            printable(&present::one_line(skill.description(), 72))
        ));
    }
    out
}

/// `list`'s JSON: each skill's summary.
pub fn list_json(set: &SkillSet) -> Value {
    set.skills
        .iter()
        .map(|skill| json::skill(skill, View::Summary))
        .collect()
}

/// The catalogue as a host lists it, one line a skill.
pub fn catalog_text(set: &SkillSet) -> String {
    let lines: String = set
        .skills
        .iter()
        .map(|skill| present::catalog_line(skill))
        .collect();
    printable_lines(&lines)
}

/// The catalogue as the Agent Skills `<available_skills>` block.
pub fn catalog_xml(set: &SkillSet) -> String {
    let elements: Vec<String> = set
        .skills
        .iter()
        .map(|skill| present::catalog_xml_element(skill))
        .collect();
    printable_lines(&skills_core::present::available_skills(
        elements.iter().map(String::as_str),
    ))
}

/// The catalogue as JSON: name, description and path of each skill.
pub fn catalog_json(set: &SkillSet) -> Value {
    set.skills
        .iter()
        .map(|s| json!({"name": s.name(), "description": s.description(), "path": s.path()}))
        .collect()
}

/// The wire format of a tool definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolFormat {
    /// Anthropic's Messages API.
    Anthropic,
    /// OpenAI's function tools.
    Openai,
    /// OpenAI with `"strict": true` where the schema qualifies.
    OpenaiStrict,
    /// MCP's `tools/list` entries.
    Mcp,
}

/// The tool definitions a runtime sends for `skill`, from the lowered
/// tables as `SKILLS` holds them, and the notes to print with them: a
/// denied tool is never offered to a model, so it is left out and said so.
pub fn tool_definitions(skill: &Skill, format: ToolFormat) -> (Value, Vec<String>) {
    let lowered = crate::emit::lower::skill(skill, Default::default());
    let notes = lowered
        .tools()
        .iter()
        .filter(|tool| !tool.is_offered())
        .map(|tool| {
            format!(
                "`{}` is left out: its skill's permissions deny it (a write not in `allow_write`)",
                tool.name()
            )
        })
        .collect();
    let definitions = lowered
        .tools()
        .iter()
        .filter(|tool| tool.is_offered())
        .map(|tool| {
            let text = match format {
                ToolFormat::Anthropic => tool.anthropic_json(),
                ToolFormat::Openai => tool.openai_json(),
                ToolFormat::OpenaiStrict => tool
                    .openai_strict_json()
                    .unwrap_or_else(|| tool.openai_json()),
                ToolFormat::Mcp => tool.mcp_json(),
            };
            serde_json::from_str(&text).unwrap_or(Value::Null)
        })
        .collect();
    (definitions, notes)
}

/// What `include_skills!` expands to for `set`, as formatted Rust source;
/// `crate_path` is the runtime crate's path in it (`::skills`).
pub fn expanded_source(set: &SkillSet, crate_path: &str) -> Result<String, super::Error> {
    let krate: TokenStream = crate_path
        .parse()
        .map_err(|_| super::Error::Usage(format!("`{}` is not a path", printable(crate_path))))?;
    let tokens = crate::emit::codegen::expand(set, &krate);
    let file: syn::File = syn::parse2(tokens)
        .map_err(|error| super::Error::Usage(format!("internal error: {error}")))?;
    Ok(prettyplease::unparse(&file))
}

/// Text of several lines from skills, each line [`printable`], the line
/// breaks kept (a CR before one too: it moves nothing).
pub fn printable_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix("\r\n") {
            Some(content) => (content, "\r\n"),
            None => match line.strip_suffix('\n') {
                Some(content) => (content, "\n"),
                None => (line, ""),
            },
        };
        out.push_str(&printable(content));
        out.push_str(end);
    }
    out
}
