//! Code lenses no other server has: over a skill's `description`, the
//! share of each host's listing budget it takes and what each host does
//! with it (`ops::document::listing_shares`, the figures `cargo skills
//! budget` prints).

use lsp_types::{CodeLens, Command};
use serde_json::Value;
use skills_compiler::ops::budget::Fate;
use skills_compiler::ops::document::{self, Share};

use super::navigate::View;

/// One lens per budget over the `description` key; none when the skill is
/// not listed (not valid, or no package).
pub fn lenses(view: &View<'_>) -> Value {
    let Some(description) = view
        .outline
        .entries
        .iter()
        .find(|entry| !entry.tool && entry.name == "description")
    else {
        return Value::Array(Vec::new());
    };
    let shares = document::listing_shares(view.path).unwrap_or_default();
    let range = view.range(&description.span);
    let lenses: Vec<CodeLens> = shares
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
        .collect();
    serde_json::to_value(lenses).unwrap_or(Value::Null)
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
