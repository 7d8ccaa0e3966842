//! This project's own catalog (`SkillSet::catalog`, one `- name:
//! description` line each, descriptions on one line of at most 240
//! characters) against a number of characters or estimated tokens.
//! Nothing is cut by a host: the skills past the limit are marked as
//! not fitting.

use super::model::*;
use crate::ir::present;

pub(super) fn report(entries: &[Entry<'_>], budget: Budget, limit: usize, unit: Unit) -> Report {
    let costs: Vec<usize> = entries
        .iter()
        .map(|entry| {
            let line = present::catalog_line_of(entry.name, entry.description, entry.catalog_chars);
            match unit {
                Unit::Tokens => estimated_tokens(&line),
                _ => line.chars().count(),
            }
        })
        .collect();
    let culprit = first_past(costs.iter().copied(), limit);
    let lines = cut_from(entries, &costs, culprit);
    Report {
        budget,
        limit: Limit {
            amount: limit,
            unit,
            basis: format!(
                "this project's catalog lines, {}",
                match unit {
                    Unit::Tokens => "4 characters per token",
                    _ => "in characters",
                }
            ),
        },
        used: costs.iter().sum(),
        lines,
        culprit,
    }
}
