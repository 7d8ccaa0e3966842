//! The `lenient` profile's reading of real-world skills: what other clients
//! load, read as they read it, each assumption a warning. A skill without
//! frontmatter, Claude Code's `tools`; the quoted colon is a repair of the
//! text, made while reading (`read/lenient.rs`).

use super::ctx::Ctx;
use super::{fields, name};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::read::{markdown, yaml};

/// `lenient`: `tools: Read, Grep` or `tools: [Read, Write]` is Claude Code's
/// `tools` (the tools a skill may use), never HTTP tools. Taken out of the
/// frontmatter and returned as allowed tools, with a warning.
pub(super) fn claude_code_tools(ctx: &mut Ctx<'_>, root: &mut yaml::Node) -> Option<Vec<String>> {
    let node = root.get("tools")?;
    let names: Vec<String> = match &node.value {
        yaml::Value::String(text) => text
            .split([',', ' '])
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
            .collect(),
        yaml::Value::Seq(items) if !items.is_empty() => items
            .iter()
            .map(|item| item.as_str().map(|name| name.trim().to_owned()))
            .collect::<Option<_>>()?,
        _ => return None,
    };
    ctx.push(ctx
        .error(
            Code::ToolShape,
            node.span.clone(),
            "`tools` lists tool names, as Claude Code's `tools` does: read as allowed tools, not HTTP tools",
        )
        .with_severity(Severity::Warning)
        .with_help(format!(
            "write `allowed-tools: {}`; `tools` declares HTTP tools here",
            names.join(" ")
        )));
    if let yaml::Value::Map(entries) = &mut root.value {
        entries.retain(|entry| entry.key != "tools");
    }
    Some(names)
}

/// The lenient profile's fields for a skill without frontmatter: name from
/// the directory, description from the first prose line of the body.
pub(super) fn derived_fields(
    ctx: &mut Ctx<'_>,
    directory: &str,
    body: &str,
) -> Option<fields::Fields> {
    let first_line = markdown::first_prose_line(body);
    let description = first_line.as_ref().map(|line| {
        line.chars()
            .take(fields::MAX_DESCRIPTION_CHARS)
            .collect::<String>()
    });
    if let Some(length) = first_line
        .map(|line| line.chars().count())
        .filter(|length| *length > fields::MAX_DESCRIPTION_CHARS)
    {
        ctx.push(Diagnostic::at(
            Code::DerivedDescriptionCut,
            ctx.source,
            0..0,
            format!(
                "the first prose line is {length} characters; the derived description keeps the first {}",
                fields::MAX_DESCRIPTION_CHARS
            ),
        )
        .with_severity(Severity::Warning)
        .with_help("add a frontmatter with a description that says what the skill does and when to use it"));
    }
    let Some(description) = description else {
        ctx.push(
            Diagnostic::at(
                Code::MissingField,
                ctx.source,
                0..0,
                "no frontmatter and no text to take a description from",
            )
            .with_help("add a frontmatter with `name` and `description`"),
        );
        return None;
    };
    if !name::is_valid(directory) {
        ctx.push(
            Diagnostic::at(
                Code::NameCharacters,
                ctx.source,
                0..0,
                format!(
                    "no frontmatter, and the directory name `{directory}` is not a valid skill name"
                ),
            )
            .with_help(format!(
                "rename the directory to `{}`, or add a frontmatter",
                name::suggest(directory)
            )),
        );
        return None;
    }
    ctx.push(
        Diagnostic::at(
            Code::DerivedFrontmatter,
            ctx.source,
            0..0,
            format!(
                "no frontmatter: using name `{directory}` and the description \"{description}\""
            ),
        )
        .with_severity(Severity::Warning)
        .with_help_lines([
            "add a frontmatter:",
            "---",
            &format!("name: {directory}"),
            &format!("description: {}", yaml::quote(&description)),
            "---",
        ]),
    );
    Some(fields::Fields {
        name: Some(crate::ir::SkillName(directory.to_owned())),
        description: Some(description),
        ..fields::Fields::default()
    })
}
