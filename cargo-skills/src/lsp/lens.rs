//! Code lenses no other server has: over a skill's `description`, the
//! share of each host's listing budget it takes and what each host does
//! with it (`ops::document::lenses`, the figures `cargo skills
//! budget` prints).

use lsp_types::{CodeLens, Command};
use serde_json::Value;
use skills_compiler::ops::budget::Fate;
use skills_compiler::ops::document::{self, Share};

use super::navigate::View;

/// The command a routed-cases lens runs: the skill's trigger cases with the
/// offline router, as `cargo skills test` runs them.
pub const TEST: &str = "cargo-skills.test";

/// Over `name`, how many of the trigger cases that name the skill route
/// right (its command runs them again); over `description`, one lens per
/// budget. None for a skill that is not listed (not valid, or no package).
pub fn lenses(view: &View<'_>) -> Value {
    let entry = |name: &str| {
        view.outline
            .entries
            .iter()
            .find(|entry| !entry.tool && entry.name == name)
    };
    let (name, description) = (entry("name"), entry("description"));
    // Not a skill's frontmatter (a file of a skill): nothing to measure.
    if name.is_none() && description.is_none() {
        return Value::Array(Vec::new());
    }
    let Ok(lensed) = document::lenses(view.path) else {
        return Value::Array(Vec::new());
    };
    let mut lenses = Vec::new();
    if let Some(name) = name
        && let Some(routed) = lensed.routed
    {
        lenses.push(CodeLens {
            range: view.range(&name.span),
            command: Some(Command {
                title: routed_title(routed),
                command: TEST.to_owned(),
                arguments: Some(vec![Value::String(
                    view.path.to_string_lossy().replace('\\', "/"),
                )]),
            }),
            data: None,
        });
    }
    if let Some(description) = description {
        lenses.extend(budget_lenses(view, &description.span, &lensed.shares));
    }
    serde_json::to_value(lenses).unwrap_or(Value::Null)
}

/// `3 of 4 trigger cases route here`.
pub fn routed_title(routed: document::Routed) -> String {
    format!(
        "{} of {} trigger case{} route{} here (offline router)",
        routed.passed,
        routed.cases,
        if routed.cases == 1 { "" } else { "s" },
        if routed.cases == 1 { "s" } else { "" },
    )
}

fn budget_lenses(
    view: &View<'_>,
    span: &std::ops::Range<usize>,
    shares: &[Share],
) -> Vec<CodeLens> {
    let range = view.range(span);
    shares
        .iter()
        .map(|share| CodeLens {
            range,
            command: Some(Command {
                title: title(share),
                // Shown, not run: the figures are the lens.
                command: String::new(),
                arguments: None,
            }),
            data: None,
        })
        .collect()
}

/// `codex: 1.4% of the budget, cut to 120 characters`.
fn title(share: &Share) -> String {
    let fate = match share.fate {
        Fate::Full => "shown in full".to_owned(),
        Fate::Shortened { shown } => format!("cut to {shown} characters"),
        Fate::NameOnly => "name only: the description is dropped".to_owned(),
        Fate::Omitted => "left out".to_owned(),
        Fate::OverTarget => "over the per-entry target".to_owned(),
        Fate::Hidden => "hidden by its own wish".to_owned(),
    };
    format!(
        "{}: {:.1}% of the budget, {fate}",
        share.budget.name(),
        share.percent
    )
}
