//! Claude Code lists `- name: description` lines. The listing's budget
//! is 1% of the context window (`skillListingBudgetFraction`), counted
//! in characters at 4 per token, or 8,000 characters when the window is
//! unknown. Each entry's description (with `when_to_use`, joined by
//! `" - "`) is cut to 1,535 characters and `…`, 1,536 in all. Over budget, names are always kept and the
//! descriptions of the least-used skills are dropped first; at build
//! time usage is unknown, so the listing's order stands for it.

use super::model::*;

pub(super) const FALLBACK_CHARS: usize = 8_000;
pub(super) const CONTEXT_PERCENT: u64 = 1;
pub(super) const CHARS_PER_TOKEN: u64 = 4;
pub(super) const MAX_ENTRY_CHARS: usize = 1_536;

pub(super) fn limit(context: Option<u64>) -> Limit {
    match context {
        Some(tokens) => Limit {
            amount: usize::try_from(tokens.saturating_mul(CONTEXT_PERCENT * CHARS_PER_TOKEN) / 100)
                .unwrap_or(usize::MAX),
            unit: Unit::Chars,
            basis: format!(
                "1% of a {}-token context × 4 characters per token",
                thousands(usize::try_from(tokens).unwrap_or(usize::MAX))
            ),
        },
        None => Limit {
            amount: FALLBACK_CHARS,
            unit: Unit::Chars,
            basis: "fallback when the context window is unknown".to_owned(),
        },
    }
}

/// The description as listed, with `when_to_use`, before the entry cap.
fn description(entry: &Entry<'_>) -> String {
    match &entry.when_to_use {
        Some(when) => format!("{} - {when}", entry.description),
        None => entry.description.to_owned(),
    }
}

/// Characters of the description shown, and of the whole.
fn listed_description(entry: &Entry<'_>) -> (usize, usize) {
    let chars = description(entry).chars().count();
    (chars.min(MAX_ENTRY_CHARS), chars)
}

pub(super) fn text(entry: &Entry<'_>) -> String {
    let description = description(entry);
    let shown = if description.chars().count() > MAX_ENTRY_CHARS {
        format!("{}…", prefix_chars(&description, MAX_ENTRY_CHARS - 1))
    } else {
        description
    };
    format!("- {}: {shown}\n", entry.name)
}

/// Counted, not rendered: rendering every entry made the report five
/// times slower. `entry_text` agrees (tests/budget.rs).
pub(super) fn report(entries: &[Entry<'_>], context: Option<u64>) -> Report {
    let limit = limit(context);
    // `- name` and a newline, then `: description` when it is kept.
    let name_only: Vec<usize> = entries.iter().map(|e| e.name.chars().count() + 3).collect();
    let descriptions: Vec<(usize, usize)> = entries.iter().map(listed_description).collect();
    let full: Vec<usize> = name_only
        .iter()
        .zip(&descriptions)
        .map(|(name, (shown, _))| name + 2 + shown)
        .collect();
    let used: usize = full.iter().sum();
    let mut lines: Vec<Line> = entries
        .iter()
        .zip(&full)
        .zip(&descriptions)
        .map(|((entry, &cost), &(shown, chars))| {
            let fate = if shown < chars {
                Fate::Shortened { shown }
            } else {
                Fate::Full
            };
            line(entry, cost, fate)
        })
        .collect();
    let culprit = first_past(full.iter().copied(), limit.amount);
    if culprit.is_some() {
        // Names first; then, in order, each description that still fits.
        let mut total: usize = name_only.iter().sum();
        for (line, (&name, &cost)) in lines.iter_mut().zip(name_only.iter().zip(&full)) {
            let extra = cost - name;
            if total.saturating_add(extra) <= limit.amount {
                total += extra;
            } else {
                line.fate = Fate::NameOnly;
            }
        }
    }
    Report {
        budget: Budget::ClaudeCode,
        limit,
        used,
        lines,
        culprit,
    }
}
