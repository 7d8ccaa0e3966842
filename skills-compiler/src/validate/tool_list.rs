//! A host's tool list as text (`allowed-tools`, Claude Code's
//! `disallowed-tools`): the rules both keys share.

use super::ctx::Ctx;
use crate::diagnostics::{Code, Severity};
use crate::read::yaml::Node;

/// W003 for a tool list written with commas (`allowed-tools: Bash, Read`),
/// with the fix-it that separates the tools with spaces: the one rule for
/// `allowed-tools` and Claude Code's `disallowed-tools`.
pub(super) fn comma_separated(ctx: &mut Ctx<'_>, node: &Node, key: &str) {
    let Some(text) = node.as_str().filter(|text| text.contains(',')) else {
        return;
    };
    let fixed = text
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    ctx.push(
        ctx.error(
            Code::CommaSeparatedTools,
            node.span.clone(),
            format!("`{key}` looks comma-separated; the specification separates tools with spaces"),
        )
        .with_severity(Severity::Warning)
        .with_fix(ctx.source, node.span.clone(), fixed, "separate with spaces"),
    );
}
