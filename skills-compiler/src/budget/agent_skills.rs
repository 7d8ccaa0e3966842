//! The Agent Skills specification and client guide put about 100 tokens
//! per skill in the catalog: its `name` and `description`, loaded at
//! startup (the `<skill>` element adds a location around them). Nothing
//! is cut. The budget is 100 tokens per skill; skills whose name and
//! description pass 100 tokens are flagged, the longest first to blame.

use super::model::*;

pub(super) const TOKENS_PER_SKILL: usize = 100;

pub(super) fn report(entries: &[Entry<'_>]) -> Report {
    let costs: Vec<usize> = entries
        .iter()
        .map(|e| (e.name.chars().count() + e.description.chars().count()).div_ceil(4))
        .collect();
    let lines: Vec<Line> = entries
        .iter()
        .zip(&costs)
        .map(|(entry, &cost)| {
            let fate = if cost > TOKENS_PER_SKILL {
                Fate::OverTarget
            } else {
                Fate::Full
            };
            line(entry, cost, fate)
        })
        .collect();
    let culprit = costs
        .iter()
        .enumerate()
        .filter(|(_, cost)| **cost > TOKENS_PER_SKILL)
        // The longest, and of equals the first.
        .max_by(|(i, a), (j, b)| a.cmp(b).then(j.cmp(i)))
        .map(|(i, _)| i);
    Report {
        budget: Budget::AgentSkills,
        limit: Limit {
            amount: TOKENS_PER_SKILL * entries.len(),
            unit: Unit::Tokens,
            basis: format!(
                "about 100 tokens of name and description per skill × {} skills, 4 characters per token",
                entries.len()
            ),
        },
        used: costs.iter().sum(),
        lines,
        culprit,
    }
}
