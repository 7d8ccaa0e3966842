//! From one skill's files to a validated [`Skill`](crate::ir::Skill), or diagnostics.
//!
//! framing -> YAML -> fields -> tools -> permissions -> policies. Every stage
//! reports into the same list and keeps going where the next stage can still
//! find problems.

mod codex;
mod ctx;
mod entries;
mod fields;
mod host_keys;
pub mod keys;
mod lenient;
mod links;
pub(crate) mod name;
mod pattern;
mod permissions;
mod placeholder;
pub(crate) mod provenance;
mod schema;
mod template;
mod tool_list;
mod tools;

use ctx::Ctx;
pub use lenient::MAX_QUOTED_LINES;

use lenient::{LenientReading, Parsed};
pub(crate) use links::may_look_outside;
pub(crate) use placeholder::is_placeholder;

use crate::config::{Config, Profile};
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{Code, Diagnostic};
use crate::ir::{self, List, Skill, Str};
use crate::read::discover::SkillFiles;
use crate::read::files::SkillDir;
use crate::read::{frontmatter, yaml};

/// Validates one skill. Files read are added to `sources` so that
/// diagnostics can quote them.
pub(crate) fn skill(
    files: SkillFiles,
    config: &Config,
    sources: &mut Sources,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Skill> {
    let dir = files.dir;
    let source = match frontmatter::decode(&files.path, files.bytes) {
        Ok(source) => source,
        Err((diagnostic, lossy)) => {
            diagnostics.push(diagnostic);
            sources.insert(lossy);
            return None;
        }
    };
    // An unreadable sidecar fails the skill: its tools would otherwise vanish silently.
    let (tools_source, tools_readable) = match files
        .tools_yaml
        .map(|(path, bytes)| frontmatter::decode(&path, bytes))
    {
        None => (None, true),
        Some(Ok(source)) => (Some(source), true),
        Some(Err((diagnostic, lossy))) => {
            diagnostics.push(diagnostic);
            sources.insert(lossy);
            (None, false)
        }
    };
    // A lenient reading may patch the text; the file's own head is kept.
    let reading = if config.profile == Profile::Lenient {
        lenient::quote_unquoted_colons(source, config, diagnostics)
    } else {
        LenientReading {
            source,
            original: None,
            parsed: None,
        }
    };
    let (source, original) = (reading.source, reading.original);
    let prefix = dir.as_ref().and_then(SkillDir::prefix).map(str::to_owned);
    let skill = check(
        &source,
        tools_source.as_ref(),
        &files.directory,
        prefix,
        config,
        reading.parsed,
        diagnostics,
    )
    .filter(|_| tools_readable)
    .map(|mut skill| {
        // A lenient reading patched the frontmatter that was checked: the
        // table holds the file's own text, whose body is the same.
        if let Some(original) = original.as_deref() {
            let body_len = skill.table.source.len() - skill.table.body_start;
            skill.table.body_start = original.len().saturating_sub(body_len);
            skill.table.source = Str::Owned(original.to_owned());
        }
        skill
    });
    let skill = skill.map(|skill| {
        let mut skill = with_files(skill, dir, &source, config, diagnostics);
        codex::check(&mut skill, config, sources, diagnostics);
        skill
    });
    sources.insert(source);
    if let Some(tools_source) = tools_source {
        sources.insert(tools_source);
    }
    skill
}

fn check(
    source: &SourceFile,
    tools_source: Option<&SourceFile>,
    directory: &str,
    prefix: Option<String>,
    config: &Config,
    parsed: Option<Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Skill> {
    // A file no longer in bytes than the limit is within it in characters:
    // only a longer one is counted.
    let text = source.text();
    let chars = if text.len() > config.max_document_chars {
        text.chars().count()
    } else {
        text.len()
    };
    if chars > config.max_document_chars {
        diagnostics.push(
            Diagnostic::error(
                Code::DocumentTooLarge,
                source.path(),
                format!(
                    "the file has {chars} characters; the limit is {}",
                    config.max_document_chars
                ),
            )
            .with_help("move detail into files under `references/`, or raise `max_document_chars`"),
        );
        return None;
    }
    let lenient = config.profile == Profile::Lenient;
    let framing = match frontmatter::split(source, lenient) {
        Ok(framing) => framing,
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            return None;
        }
    };
    let body = &source.text()[framing.body.clone()];
    let root = match framing.yaml {
        Some(range) => frontmatter_root(source, range, config, parsed, diagnostics)?,
        None => Frontmatter::Absent,
    };
    let mut ctx = Ctx::new(source, config.profile, diagnostics);
    let errors_before = error_count(ctx.diagnostics);
    let (mut fields, mut root, written) = match root {
        Frontmatter::Mapping(root) => {
            let written = root.to_json();
            (
                entries::check(&mut ctx, &root, directory, config),
                root,
                written,
            )
        }
        // Only the lenient profile gets here: no (or an empty) frontmatter.
        Frontmatter::Absent => (
            lenient::derived_fields(&mut ctx, directory, body)?,
            empty_map(),
            serde_json::Value::Null,
        ),
    };
    if config.profile == Profile::Lenient
        && let Some(names) = lenient::claude_code_tools(&mut ctx, &mut root)
    {
        fields
            .table
            .allowed_tools
            .to_mut()
            .extend(names.into_iter().map(Str::Owned));
    }
    let (tools, permissions) = tools_and_permissions(&mut ctx, &root, tools_source, config);
    if error_count(ctx.diagnostics) > errors_before {
        return None;
    }
    let name = fields.name?;
    let description = fields.description?;
    let location = match config.catalog_location {
        crate::config::CatalogLocation::Uri => {
            let skill_path = match &prefix {
                Some(prefix) => format!("{prefix}/{name}"),
                None => name.to_string(),
            };
            skills_core::uri::of(&skill_path, skills_core::uri::SKILL_MD)
        }
        crate::config::CatalogLocation::Path => source.path().to_owned(),
    };
    let mut table = fields.table;
    table.frontmatter = Str::Owned(frontmatter_rest(written));
    table.extras = List::Owned(
        (fields.extras.into_iter())
            .map(|(key, value)| (Str::Owned(key), Str::Owned(value.to_string())))
            .collect(),
    );
    table.name = Str::Owned(name.0);
    table.description = Str::Owned(description);
    table.path = Str::Owned(source.path().to_owned());
    table.source = Str::Owned(text.to_owned());
    table.body_start = framing.body.start;
    table.catalog_chars = config.catalog_chars;
    table.location = Str::Owned(location);
    table.prefix = prefix.map(Str::Owned);
    Some(Skill {
        table,
        tools_path: tools_source.map(|s| s.path().to_owned()),
        description_span: root.get("description").map(|node| node.span.clone()),
        tools: tools?,
        permissions: permissions?,
        dir: None,
        dir_on_disk: None,
        files: Vec::new(),
        skipped: Vec::new(),
        folders: Vec::new(),
        snapshot: None,
        codex_implicit: true,
        embed_evals: false,
    })
}

/// The frontmatter as written, as the text of a JSON object without `name`
/// and `description`, which the table holds already (the skill's
/// `frontmatter_json` puts them back); `{}` for a `lenient` skill without
/// one.
fn frontmatter_rest(written: serde_json::Value) -> String {
    let mut rest = match written {
        serde_json::Value::Object(written) => written,
        _ => serde_json::Map::new(),
    };
    rest.remove("name");
    rest.remove("description");
    serde_json::Value::Object(rest).to_string()
}

/// The skill with its directory's files, whose links are then checked.
fn with_files(
    mut skill: Skill,
    dir: Option<SkillDir>,
    source: &SourceFile,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Skill {
    let place = match dir {
        Some(dir) => {
            skill.dir = Some(dir.path);
            skill.dir_on_disk = Some(dir.on_disk);
            skill.skipped = dir.listing.skipped;
            skill.files = dir.listing.files;
            skill.embed_evals = config.embed_evals;
            skill.folders = dir.listing.folders;
            Some((dir.root, dir.root_on_disk))
        }
        None => None,
    };
    let place = match &place {
        Some((root, on_disk)) => links::Place {
            root,
            root_on_disk: Some(on_disk),
        },
        None => links::Place {
            root: ".",
            root_on_disk: None,
        },
    };
    if config.check_links {
        links::check(&skill, source, &place, config, diagnostics);
    }
    skill
}

fn empty_map() -> yaml::Node {
    yaml::Node {
        span: 0..0,
        value: yaml::Value::Map(Vec::new()),
    }
}

/// What the frontmatter holds, once parsed.
enum Frontmatter {
    /// A mapping of keys to values.
    Mapping(yaml::Node),
    /// Nothing (no fences, or nothing between them): only `lenient` allows it.
    Absent,
}

/// Parses the frontmatter; `None` on errors (reported).
fn frontmatter_root(
    source: &SourceFile,
    range: std::ops::Range<usize>,
    config: &Config,
    parsed: Option<Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Frontmatter> {
    if range.len() > config.max_frontmatter_bytes {
        diagnostics.push(
            Diagnostic::at(
                Code::FrontmatterTooLarge,
                source,
                range.start..range.start,
                format!(
                    "the frontmatter is {} bytes; the limit is {}",
                    range.len(),
                    config.max_frontmatter_bytes
                ),
            )
            .with_help("move tools into a sidecar tools.yaml, or raise `max_frontmatter_bytes`"),
        );
        return None;
    }
    let result = match parsed {
        Some(parsed) if parsed.range == range => parsed.result,
        _ => yaml::parse(source, range.clone(), config.max_yaml_depth),
    };
    let node = match result {
        Ok(node) => node,
        Err(problems) => {
            diagnostics.extend(problems);
            return None;
        }
    };
    match node {
        Some(node) if node.as_map().is_some() => Some(Frontmatter::Mapping(node)),
        Some(node) => {
            diagnostics.push(
                Diagnostic::at(
                    Code::FrontmatterNotMapping,
                    source,
                    node.span.clone(),
                    format!(
                        "the frontmatter must be a mapping of keys to values, found {}",
                        node.type_name()
                    ),
                )
                .with_help("write `name: ...` and `description: ...` lines"),
            );
            None
        }
        None if config.profile == Profile::Lenient => Some(Frontmatter::Absent),
        None => {
            // Point at the closing fence, right after the (empty) frontmatter.
            diagnostics.push(
                Diagnostic::at(
                    Code::EmptyFrontmatter,
                    source,
                    range.end..range.end + 3,
                    "the frontmatter is empty",
                )
                .with_help("add `name:` and `description:` between the fences"),
            );
            None
        }
    }
}

/// `tools` and `permissions`, from the frontmatter or the sidecar `tools.yaml`.
fn tools_and_permissions(
    ctx: &mut Ctx<'_>,
    root: &yaml::Node,
    tools_source: Option<&SourceFile>,
    config: &Config,
) -> (Option<Vec<crate::ir::Tool>>, Option<crate::ir::Permissions>) {
    let sidecar = tools_source
        .and_then(|source| sidecar_root(ctx, source, config).map(|node| (source, node)));
    if tools_source.is_some() && sidecar.is_none() {
        // The sidecar's problems are reported; checking the frontmatter's tools
        // in its place would only add confusing diagnostics.
        return (None, None);
    }
    if let Some((source, node)) = &sidecar {
        for key in ["tools", "permissions"] {
            if let (Some(here), Some(_)) = (root.get(key), node.get(key)) {
                ctx.push(
                    ctx.error(
                        Code::ToolsTwice,
                        here.span.clone(),
                        format!("`{key}` is declared both here and in {}", source.path()),
                    )
                    .with_help(
                        "keep the declarations in one place; tools.yaml keeps SKILL.md portable",
                    ),
                );
            }
        }
    }
    // In `portable`, frontmatter tools were already reported as not portable.
    let in_frontmatter = |key| root.get(key).filter(|_| ctx.profile != Profile::Portable);
    let (file, tools_node, permissions_node) = match &sidecar {
        Some((source, node)) => (*source, node.get("tools"), node.get("permissions")),
        None => (
            ctx.source,
            in_frontmatter("tools"),
            in_frontmatter("permissions"),
        ),
    };
    let mut file_ctx = ctx.for_file(file);
    let declared = tools_node.map_or_else(tools::Declared::default, |node| {
        tools::check(&mut file_ctx, node, config.tool_name_prefix_budget)
    });
    let tools_ok = tools_node.is_none_or(|node| {
        node.as_seq()
            .is_some_and(|items| items.len() == declared.valid.len())
    });
    let Some(permissions) = permissions::check(&mut file_ctx, permissions_node, &declared) else {
        return (None, None);
    };
    let tools = declared
        .valid
        .into_iter()
        .map(|mut tool| {
            let policy = permissions::policy(&tool, &permissions);
            let method = tool.endpoint().map(ir::Endpoint::method);
            tool.table.policy = policy;
            tool.table.hints = ir::Hints::of(method, policy);
            tool
        })
        .collect();
    (tools_ok.then_some(tools), Some(permissions))
}

/// The mapping at the root of a `tools.yaml`.
fn sidecar_root(ctx: &mut Ctx<'_>, source: &SourceFile, config: &Config) -> Option<yaml::Node> {
    if source.text().len() > config.max_frontmatter_bytes {
        ctx.push(Diagnostic::error(
            Code::FrontmatterTooLarge,
            source.path(),
            format!(
                "tools.yaml is {} bytes; the limit is {}",
                source.text().len(),
                config.max_frontmatter_bytes
            ),
        ));
        return None;
    }
    let start = if source.text().starts_with('\u{feff}') {
        3
    } else {
        0
    };
    let node = match yaml::parse(source, start..source.text().len(), config.max_yaml_depth) {
        Ok(Some(node)) => node,
        // An empty tools.yaml declares nothing.
        Ok(None) => {
            return Some(yaml::Node {
                span: 0..0,
                value: yaml::Value::Map(Vec::new()),
            });
        }
        Err(problems) => {
            ctx.diagnostics.extend(problems);
            return None;
        }
    };
    let mut file = ctx.for_file(source);
    for entry in file.map(&node, "tools.yaml", Code::ToolShape) {
        let known = keys::names(keys::TOOLS_YAML);
        if !known.contains(&entry.key.as_str()) {
            file.push(file.unknown_key(Code::UnknownKey, entry, "tools.yaml", &known));
        }
    }
    node.as_map().is_some().then_some(node)
}

fn error_count(diagnostics: &[Diagnostic]) -> usize {
    diagnostics.iter().filter(|d| d.is_error()).count()
}
