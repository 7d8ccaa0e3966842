//! From one skill, read (a [`Document`]), to a validated
//! [`Skill`](crate::ir::Skill), or diagnostics. Nothing here parses.
//!
//! fields -> tools -> permissions -> policies -> files and links. Every stage
//! reports into the same list and keeps going where the next stage can still
//! find problems.

mod codex;
mod ctx;
mod entries;
mod fields;
mod host_keys;
pub mod keys;
mod lenient;
pub(crate) mod links;
pub(crate) mod name;
mod pattern;
mod permissions;
mod placeholder;
pub(crate) mod provenance;
mod schema;
mod template;
mod tool_list;
mod tools;

use std::ops::Range;

use ctx::Ctx;
pub(crate) use links::may_look_outside;
pub(crate) use placeholder::is_placeholder;

use crate::config::{Config, Profile};
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{Code, Diagnostic};
use crate::ir::{self, List, Skill, Str};
use crate::read::document::{Document, Frontmatter, ToolsYaml};
use crate::read::files::SkillDir;
use crate::read::yaml;

/// Validates one skill, read. Files read are added to `sources` so that
/// diagnostics can quote them.
pub(crate) fn skill(
    document: Document,
    config: &Config,
    sources: &mut Sources,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Skill> {
    let Document {
        source,
        original,
        directory,
        dir,
        body,
        frontmatter,
        tools_yaml,
        codex,
    } = document;
    let prefix = dir.as_ref().and_then(SkillDir::prefix).map(str::to_owned);
    let skill = check(
        &source,
        body,
        frontmatter,
        &tools_yaml,
        &directory,
        config,
        diagnostics,
    )
    .map(|mut skill| {
        place(&mut skill.table, prefix, source.path(), config);
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
        if let Some(codex) = codex {
            codex::check(&mut skill, codex, config, sources, diagnostics);
        }
        skill
    });
    sources.insert(source);
    if let ToolsYaml::Parsed(source, _) = tools_yaml {
        sources.insert(source);
    }
    skill
}

fn check(
    source: &SourceFile,
    body: Range<usize>,
    frontmatter: Frontmatter,
    tools_yaml: &ToolsYaml,
    directory: &str,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Skill> {
    let mut ctx = Ctx::new(source, config.profile, diagnostics);
    let errors_before = error_count(ctx.diagnostics);
    let (mut fields, mut root, written) = match frontmatter {
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
            lenient::derived_fields(&mut ctx, directory, &source.text()[body.clone()])?,
            yaml::Node::empty_map(),
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
    let (tools, permissions) = tools_and_permissions(&mut ctx, &root, tools_yaml, config);
    if error_count(ctx.diagnostics) > errors_before {
        return None;
    }
    let name = fields.name?;
    let description = fields.description?;
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
    table.source = Str::Owned(source.text().to_owned());
    table.body_start = body.start;
    table.catalog_chars = config.catalog_chars;
    Some(Skill {
        table,
        tools_path: match tools_yaml {
            ToolsYaml::Parsed(source, _) => Some(source.path().to_owned()),
            _ => None,
        },
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

/// Where the skill sits: the folders of a nested skill above it (`prefix`),
/// and the location a catalog names, its `skill://` URI or its path.
fn place(table: &mut skills_core::Skill, prefix: Option<String>, path: &str, config: &Config) {
    table.location = Str::Owned(match config.catalog_location {
        crate::config::CatalogLocation::Uri => {
            let skill_path = match &prefix {
                Some(prefix) => format!("{prefix}/{}", table.name),
                None => table.name.to_string(),
            };
            skills_core::uri::of(&skill_path, skills_core::uri::SKILL_MD)
        }
        crate::config::CatalogLocation::Path => path.to_owned(),
    });
    table.prefix = prefix.map(Str::Owned);
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

/// `tools` and `permissions`, from the frontmatter or the sidecar `tools.yaml`.
fn tools_and_permissions(
    ctx: &mut Ctx<'_>,
    root: &yaml::Node,
    tools_yaml: &ToolsYaml,
    config: &Config,
) -> (Option<Vec<crate::ir::Tool>>, Option<crate::ir::Permissions>) {
    let sidecar = match tools_yaml {
        ToolsYaml::Absent => None,
        ToolsYaml::Parsed(source, node) => match sidecar_root(ctx, source, node) {
            Some(node) => Some((source, node)),
            None => return (None, None),
        },
        // The sidecar's problems are reported; checking the frontmatter's tools
        // in its place would only add confusing diagnostics.
        ToolsYaml::Unusable => return (None, None),
    };
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
    let tools_node = shaped_or_left_out(&mut file_ctx, tools_node, "tools", Shape::List);
    let permissions_node = shaped_or_left_out(
        &mut file_ctx,
        permissions_node,
        "permissions",
        Shape::Mapping,
    );
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

/// The shape a key of ours must have at the top.
#[derive(Clone, Copy)]
enum Shape {
    List,
    Mapping,
}

/// `node` when it has the shape `key` needs. In `lenient`, a key of ours
/// of another shape is a warning and left out: no host reads it, and each
/// loads the skill (`permissions: [file_read, shell]`, a list where our
/// format wants a mapping). Elsewhere it goes on to its checks, which
/// report it as an error.
fn shaped_or_left_out<'n>(
    ctx: &mut Ctx<'_>,
    node: Option<&'n yaml::Node>,
    key: &str,
    shape: Shape,
) -> Option<&'n yaml::Node> {
    let node = node?;
    let (fits, wanted) = match shape {
        Shape::List => (node.as_seq().is_some(), "a list"),
        Shape::Mapping => (node.as_map().is_some(), "a mapping"),
    };
    if fits || ctx.profile != Profile::Lenient {
        return Some(node);
    }
    let code = match shape {
        Shape::List => Code::ToolShape,
        Shape::Mapping => Code::PermissionsShape,
    };
    let diagnostic = ctx
        .error(
            code,
            node.span.clone(),
            format!(
                "`{key}` must be {wanted}, found {}; ignored",
                node.type_name()
            ),
        )
        .with_severity(crate::diagnostics::Severity::Warning)
        .with_help(format!(
            "lenient loads what hosts load, and no host reads `{key}`: the skill is kept without it; write it as {wanted} for the extended format to use it"
        ));
    ctx.push(diagnostic);
    None
}

/// The mapping at the root of a `tools.yaml`, its keys checked.
fn sidecar_root<'n>(
    ctx: &mut Ctx<'_>,
    source: &SourceFile,
    node: &'n yaml::Node,
) -> Option<&'n yaml::Node> {
    let mut file = ctx.for_file(source);
    for entry in file.map(node, "tools.yaml", Code::ToolShape) {
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
