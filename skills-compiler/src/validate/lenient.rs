//! The `lenient` profile's reading of real-world skills: what other clients
//! load, read as they read it, each assumption a warning. A quoted colon, a
//! skill without frontmatter, Claude Code's `tools`.

use super::ctx::Ctx;
use super::{fields, name};
use crate::config::Config;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, FixIt, Severity};
use crate::read::yaml;
use crate::read::{frontmatter, markdown};

/// The most lines `lenient` quotes in one frontmatter. Real collections
/// have at most three (BENCHMARKS.md's corpus).
pub const MAX_QUOTED_LINES: usize = 64;

/// The text a skill is read as, and what reading it found.
pub(super) struct LenientReading {
    pub(super) source: SourceFile,
    /// The file's own text, when the reading patched it.
    pub(super) original: Option<String>,
    /// The frontmatter of `source` as parsed, so that it is parsed once.
    pub(super) parsed: Option<Parsed>,
}

/// A frontmatter already parsed: the range parsed, and the outcome.
pub(super) struct Parsed {
    pub(super) range: std::ops::Range<usize>,
    pub(super) result: Result<Option<yaml::Node>, Vec<Diagnostic>>,
}

/// `lenient` reads `description: Use when: ...` as other clients do: the
/// value quoted (S007's fix-it applied), with a warning per line. The file
/// is then read, and its diagnostics shown, as patched; lines keep their
/// numbers. At most one fix per frontmatter line, so this ends.
///
/// Each fix means parsing the frontmatter again (the parser stops at the
/// first problem), so fixes are bounded: a frontmatter over the size limit
/// is left to `check` to refuse, unparsed, and after [`MAX_QUOTED_LINES`]
/// lines the next unquoted colon stays the error it is in other profiles.
/// Unbounded, a hostile file of 3,000 such lines took 5 s.
pub(super) fn quote_unquoted_colons(
    mut source: SourceFile,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> LenientReading {
    let mut patched_lines = Vec::new();
    let mut original = None;
    let mut parsed = None;
    while let Ok(framing) = frontmatter::split(&source, true) {
        let Some(range) = framing.yaml else { break };
        if range.len() > config.max_frontmatter_bytes {
            break;
        }
        let result = yaml::parse(&source, range.clone(), config.max_yaml_depth);
        let edit = match &result {
            Err(problems) => match problems.as_slice() {
                [problem] if problem.code == Code::UnquotedColon => problem
                    .fix
                    .as_ref()
                    .and_then(FixIt::replace)
                    .map(|(span, replacement)| (span.clone(), replacement.to_owned())),
                _ => None,
            },
            Ok(_) => None,
        };
        let Some((span, replacement)) = edit.filter(|(span, _)| {
            patched_lines.len() < MAX_QUOTED_LINES && !patched_lines.contains(&span.start.line)
        }) else {
            parsed = Some(Parsed { range, result });
            break;
        };
        let line = span.start.line;
        patched_lines.push(line);
        let mut text = source.text().to_owned();
        text.replace_range(span.bytes.clone(), &replacement);
        if original.is_none() {
            original = Some(source.text().to_owned());
        }
        source = SourceFile::new(source.path(), text);
        let line_range = source.line_range(line);
        diagnostics.push(
            Diagnostic::at(
                Code::UnquotedColon,
                &source,
                line_range,
                "unquoted `: ` inside a value; read as if the value were quoted (shown as read)",
            )
            .with_severity(Severity::Warning)
            .with_help("quote the value: other profiles and YAML parsers read a nested mapping"),
        );
    }
    LenientReading {
        source,
        original,
        parsed,
    }
}

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
