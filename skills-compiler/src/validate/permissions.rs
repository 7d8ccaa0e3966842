//! `permissions` and the effective policy of each tool.

use std::ops::Range;

use super::ctx::Ctx;
use super::tools::Declared;
use crate::diagnostics::{Code, closest};
use crate::ir::{DefaultMode, Permissions, Policy, Tool, ToolName};
use crate::read::yaml::Node;

/// Validates `permissions` against the declared tools.
pub(super) fn check(
    ctx: &mut Ctx<'_>,
    node: Option<&Node>,
    tools: &Declared,
) -> Option<Permissions> {
    let Some(node) = node else {
        return Some(Permissions::default());
    };
    let errors_before = ctx.diagnostics.iter().filter(|d| d.is_error()).count();
    let entries = ctx.map(node, "permissions", Code::PermissionsShape);
    let known = super::keys::names(super::keys::PERMISSIONS);
    for entry in entries.iter().filter(|e| !known.contains(&e.key.as_str())) {
        let mut diagnostic = ctx.unknown_key(Code::PermissionsShape, entry, "permissions", &known);
        if ctx.profile == crate::config::Profile::Lenient {
            // Other clients' permission keys: dropped, and said so.
            diagnostic.severity = crate::diagnostics::Severity::Warning;
            diagnostic.message.push_str("; ignored");
        }
        ctx.push(diagnostic);
    }
    let default_mode = match node.get("default_mode") {
        None => Some(DefaultMode::Readonly),
        Some(mode) => match ctx.string(mode, "default_mode").as_deref() {
            Some("readonly") => Some(DefaultMode::Readonly),
            Some("confirm") => Some(DefaultMode::Confirm),
            Some(other) => {
                ctx.push(ctx
                    .error(Code::DefaultMode, mode.span.clone(), format!("`{other}` is not a default mode"))
                    .with_help("use `readonly` (mutating tools are denied unless allowed) or `confirm` (they ask first)"));
                None
            }
            None => None,
        },
    };
    let confirm = tool_list(
        ctx,
        node.get("require_confirmation"),
        "require_confirmation",
        tools,
    );
    let allow = tool_list(ctx, node.get("allow_write"), "allow_write", tools);
    for (name, span) in &allow {
        if let Some((_, first)) = confirm.iter().find(|(other, _)| other == name) {
            ctx.push(ctx
                .error(Code::ConflictingPermission, span.clone(), format!("`{name}` is in both `require_confirmation` and `allow_write`"))
                .with_label(ctx.source, first.clone(), "also listed here")
                .with_help("keep it in one list: confirmation wins at run time, so the other entry is misleading"));
        }
    }
    let errors_after = ctx.diagnostics.iter().filter(|d| d.is_error()).count();
    (errors_after == errors_before).then(|| Permissions {
        default_mode: default_mode.unwrap_or(DefaultMode::Readonly),
        require_confirmation: confirm.into_iter().map(|(name, _)| name).collect(),
        allow_write: allow.into_iter().map(|(name, _)| name).collect(),
    })
}

fn tool_list(
    ctx: &mut Ctx<'_>,
    node: Option<&Node>,
    field: &str,
    tools: &Declared,
) -> Vec<(ToolName, Range<usize>)> {
    let Some(node) = node else { return Vec::new() };
    let Some(items) = node.as_seq() else {
        ctx.push(ctx.error(
            Code::PermissionsShape,
            node.span.clone(),
            format!("`{field}` must be a list of tool names"),
        ));
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let name = ctx.string(item, field)?;
            match tools.names.iter().find(|declared| **declared == name) {
                Some(declared) => Some((ToolName(declared.clone()), item.span.clone())),
                None => {
                    let mut diagnostic = ctx.error(
                        Code::UnknownPermissionTool,
                        item.span.clone(),
                        format!("`{name}` in `{field}` is not a declared tool"),
                    );
                    diagnostic = match closest(&name, tools.names.iter().map(String::as_str)) {
                        Some(s) => diagnostic
                            .with_help(format!("did you mean `{s}`?"))
                            .with_suggestion(
                                ctx.source,
                                item.span.clone(),
                                s,
                                format!("use `{s}`"),
                            ),
                        None => diagnostic.with_help(
                            "declare the tool under `tools`, or remove it from the list",
                        ),
                    };
                    ctx.push(diagnostic);
                    None
                }
            }
        })
        .collect()
}

/// The policy of one tool, decided at build time:
/// in `require_confirmation` -> Confirm; else a safe method -> Allow; else in
/// `allow_write` -> Allow; else `default_mode: confirm` -> Confirm; else Deny.
/// A tool without an endpoint is carried out by the application, so nothing
/// proves it safe: it is treated like a mutating method.
pub(super) fn policy(tool: &Tool, permissions: &Permissions) -> Policy {
    let listed = |names: &[ToolName]| names.iter().any(|name| name.as_str() == tool.name());
    if listed(&permissions.require_confirmation) {
        Policy::Confirm
    } else if tool.endpoint().is_some_and(|e| e.method.is_safe())
        || listed(&permissions.allow_write)
    {
        Policy::Allow
    } else if permissions.default_mode == DefaultMode::Confirm {
        Policy::Confirm
    } else {
        Policy::Deny
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Endpoint, List, Method, Parameters};

    fn tool(method: Option<Method>) -> Tool {
        let endpoint = method.map(|method| {
            Endpoint::new(
                method,
                "https://h".into(),
                List::Owned(Vec::new()),
                List::Owned(Vec::new()),
                List::Owned(Vec::new()),
                None,
            )
        });
        let table = skills_core::Tool {
            name: "t".into(),
            description: "d".into(),
            endpoint,
            schema: crate::ir::table::schema(&Parameters::empty()),
            parameters_json: "{}".into(),
            ..skills_core::Tool::default()
        };
        Tool {
            table,
            parameters: Parameters::empty(),
        }
    }

    #[test]
    fn policy_for_every_method_and_permission_setting() {
        let listed = vec![ToolName("t".into())];
        for method in Method::ALL.map(Some).into_iter().chain([None]) {
            for mode in [DefaultMode::Readonly, DefaultMode::Confirm] {
                for (confirm, allow) in [(false, false), (true, false), (false, true)] {
                    let permissions = Permissions {
                        default_mode: mode,
                        require_confirmation: if confirm { listed.clone() } else { Vec::new() },
                        allow_write: if allow { listed.clone() } else { Vec::new() },
                    };
                    let safe = method.is_some_and(Method::is_safe);
                    let expected = if confirm {
                        Policy::Confirm
                    } else if safe || allow {
                        Policy::Allow
                    } else if mode == DefaultMode::Confirm {
                        Policy::Confirm
                    } else {
                        Policy::Deny
                    };
                    assert_eq!(
                        policy(&tool(method), &permissions),
                        expected,
                        "{method:?} {mode:?} confirm={confirm} allow={allow}"
                    );
                }
            }
        }
        // Spot checks that do not restate the rule.
        let none = Permissions::default();
        assert_eq!(policy(&tool(Some(Method::Get)), &none), Policy::Allow);
        assert_eq!(policy(&tool(Some(Method::Delete)), &none), Policy::Deny);
        assert_eq!(policy(&tool(None), &none), Policy::Deny);
    }
}
