//! Codex's sidecar `agents/openai.yaml`, checked as a file of the skill
//! directory: its keys (declared in [`keys`](super::keys)'s `CODEX_*`
//! lists), a `brand_color` of `#RRGGBB`, icons that are files under the
//! skill's `assets/`, and `policy.allow_implicit_invocation`, which says
//! whether Codex may pick the skill itself.

use super::ctx::Ctx;
use super::keys::{self, CODEX_DEPENDENCY_TOOL, CODEX_INTERFACE, CODEX_POLICY, CODEX_YAML, Field};
use crate::config::Config;
use crate::diagnostics::source::Sources;
use crate::diagnostics::{Code, Diagnostic};
use crate::ir::Skill;
use crate::read::document::{CODEX_FILE, YamlFile};
use crate::read::yaml::{self, Node, Value};

/// Checks the skill's `agents/openai.yaml`, as read, and records whether
/// Codex may invoke the skill implicitly.
pub(crate) fn check(
    skill: &mut Skill,
    file: Result<YamlFile, Diagnostic>,
    config: &Config,
    sources: &mut Sources,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let YamlFile { source, root } = match file {
        Ok(file) => file,
        Err(unreadable) => {
            diagnostics.push(unreadable);
            return;
        }
    };
    let implicit = {
        let mut ctx = Ctx::new(&source, config.profile, diagnostics);
        sidecar(&mut ctx, root, &skill.files)
    };
    skill.codex_implicit = implicit;
    sources.insert(source);
}

/// Checks the file; whether it lets Codex pick the skill itself.
fn sidecar(
    ctx: &mut Ctx<'_>,
    root: Result<Node, Vec<Diagnostic>>,
    files: &[crate::read::files::SkillFile],
) -> bool {
    let root = match root {
        Ok(root) => root,
        Err(problems) => {
            ctx.diagnostics.extend(problems);
            return true;
        }
    };
    let mut implicit = true;
    for entry in mapping(ctx, &root, CODEX_FILE, CODEX_YAML) {
        match entry.key.as_str() {
            "interface" => interface(ctx, &entry.value, files),
            "dependencies" => dependencies(ctx, &entry.value),
            "policy" => implicit = policy(ctx, &entry.value),
            _ => {}
        }
    }
    implicit
}

/// The entries of a mapping whose keys `fields` declares, each unknown
/// key reported with a did-you-mean.
fn mapping<'n>(
    ctx: &mut Ctx<'_>,
    node: &'n Node,
    what: &str,
    fields: &[Field],
) -> &'n [yaml::Entry] {
    let Some(entries) = node.as_map() else {
        let found = node.type_name();
        ctx.push(ctx.error_unless_lenient(
            Code::CodexSidecar,
            node.span.clone(),
            format!("`{what}` must be a mapping, found {found}"),
        ));
        return &[];
    };
    let known = keys::names(fields);
    for entry in entries {
        if !known.contains(&entry.key.as_str()) {
            let mut diagnostic =
                ctx.unknown_key(Code::UnknownKey, entry, &format!("`{what}`"), &known);
            if ctx.profile == crate::config::Profile::Lenient {
                diagnostic.severity = crate::diagnostics::Severity::Warning;
            }
            ctx.push(diagnostic);
        }
    }
    entries
}

fn interface(ctx: &mut Ctx<'_>, node: &Node, files: &[crate::read::files::SkillFile]) {
    for entry in mapping(ctx, node, "interface", CODEX_INTERFACE) {
        let key = entry.key.as_str();
        let Some(text) = string(ctx, &entry.value, &format!("interface.{key}")) else {
            continue;
        };
        match key {
            "brand_color" if !is_colour(text) => ctx.push(
                ctx.error_unless_lenient(
                    Code::CodexSidecar,
                    entry.value.span.clone(),
                    format!("`interface.brand_color` is `{text}`, not a colour `#RRGGBB`"),
                )
                .with_help("write six hexadecimal digits after `#`: `#1F6FEB`"),
            ),
            "icon_small" | "icon_large" => icon(ctx, key, &entry.value, text, files),
            _ => {}
        }
    }
}

fn is_colour(text: &str) -> bool {
    text.len() == 7 && text.starts_with('#') && text[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// An icon is a file of the skill under `assets/` (Codex resolves it
/// against the skill directory).
fn icon(
    ctx: &mut Ctx<'_>,
    key: &str,
    node: &Node,
    path: &str,
    files: &[crate::read::files::SkillFile],
) {
    let normal = skills_core::file_path(path);
    let why = match normal.as_deref() {
        Some(normal) if !normal.starts_with("assets/") => Some("it is not under `assets/`"),
        Some(normal) if !files.iter().any(|file| file.path == normal) => {
            Some("no file of the skill has that path")
        }
        Some(_) => None,
        None => Some("it is not a relative path inside the skill"),
    };
    if let Some(why) = why {
        ctx.push(
            ctx.error_unless_lenient(
                Code::CodexSidecar,
                node.span.clone(),
                format!("`interface.{key}` is `{path}`: {why}"),
            )
            .with_help("put the icon in the skill's `assets/` folder and name it from the skill directory: `assets/icon.png`"),
        );
    }
}

fn dependencies(ctx: &mut Ctx<'_>, node: &Node) {
    for entry in mapping(ctx, node, "dependencies", keys::CODEX_DEPENDENCIES) {
        let Some(tools) = entry.value.as_seq() else {
            let found = entry.value.type_name();
            ctx.push(ctx.error_unless_lenient(
                Code::CodexSidecar,
                entry.value.span.clone(),
                format!("`dependencies.tools` must be a list, found {found}"),
            ));
            continue;
        };
        for tool in tools {
            for field in mapping(ctx, tool, "dependencies.tools[]", CODEX_DEPENDENCY_TOOL) {
                string(
                    ctx,
                    &field.value,
                    &format!("dependencies.tools[].{}", field.key),
                );
            }
        }
    }
}

/// Checks `policy`; whether it lets Codex pick the skill itself.
fn policy(ctx: &mut Ctx<'_>, node: &Node) -> bool {
    let mut implicit = true;
    for entry in mapping(ctx, node, "policy", CODEX_POLICY) {
        match (entry.key.as_str(), &entry.value.value) {
            ("allow_implicit_invocation", Value::Bool(allowed)) => implicit = *allowed,
            ("allow_implicit_invocation", _) => {
                let found = entry.value.type_name();
                ctx.push(
                    ctx.error_unless_lenient(
                        Code::CodexSidecar,
                        entry.value.span.clone(),
                        format!("`policy.allow_implicit_invocation` must be `true` or `false`, found {found}"),
                    )
                    .with_help("write `false` (unquoted) to keep Codex from picking the skill itself"),
                );
            }
            ("products", Value::Seq(items)) => {
                for item in items {
                    string(ctx, item, "policy.products[]");
                }
            }
            ("products", _) => {
                let found = entry.value.type_name();
                ctx.push(ctx.error_unless_lenient(
                    Code::CodexSidecar,
                    entry.value.span.clone(),
                    format!("`policy.products` must be a list of strings, found {found}"),
                ));
            }
            _ => {}
        }
    }
    implicit
}

/// A string value, or S210 at it.
fn string<'n>(ctx: &mut Ctx<'_>, node: &'n Node, what: &str) -> Option<&'n str> {
    if let Some(text) = node.as_str() {
        return Some(text);
    }
    let found = node.type_name();
    ctx.push(ctx.error_unless_lenient(
        Code::CodexSidecar,
        node.span.clone(),
        format!("`{what}` must be a string, found {found}"),
    ));
    None
}
