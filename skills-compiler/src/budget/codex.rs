//! Codex lists `- name: description (file: path)` lines, sorted by
//! scope and then by name. The budget is 2% of the context window in
//! tokens, estimated as 4 bytes each, or 8,000 characters when the
//! window is unknown. Each description is first capped at 1,024
//! characters (1,021 and `...`). When the whole list does not fit, every
//! skill keeps its name and path and description characters are handed
//! out one at a time, round-robin, so short descriptions stay whole; when
//! even names and paths do not fit, skills are left out in order.
//! Codex's own system skills come first (their scope ranks first).

use super::model::*;

pub(super) const FALLBACK_CHARS: usize = 8_000;
pub(super) const CONTEXT_PERCENT: u64 = 2;
pub(super) const BYTES_PER_TOKEN: usize = 4;
pub(super) const MAX_DESCRIPTION_CHARS: usize = 1_024;
/// Where Codex would find a user's skill; paths count towards the budget.
pub(super) const SKILLS_ROOT: &str = "/home/user/.codex/skills";

pub(super) fn limit(context: Option<u64>) -> Limit {
    match context.filter(|&tokens| tokens > 0) {
        Some(tokens) => Limit {
            amount: usize::try_from((tokens.saturating_mul(CONTEXT_PERCENT) / 100).max(1))
                .unwrap_or(usize::MAX),
            unit: Unit::Tokens,
            basis: format!(
                "2% of a {}-token context, 4 bytes per token",
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

/// One skill's line, measured.
struct Measured {
    /// The description after the 1,024-character cap.
    description: String,
    /// Characters and bytes of `- name: (file: path)` and its newline.
    minimum_chars: usize,
    minimum_bytes: usize,
}

fn measure(entry: &Entry<'_>) -> Measured {
    let description = if entry.description.chars().count() > MAX_DESCRIPTION_CHARS {
        format!(
            "{}...",
            prefix_chars(entry.description, MAX_DESCRIPTION_CHARS - 3)
        )
    } else {
        entry.description.to_owned()
    };
    let minimum = format!("- {}: (file: {})\n", entry.name, path(entry));
    Measured {
        description,
        minimum_chars: minimum.chars().count(),
        minimum_bytes: minimum.len(),
    }
}

pub(super) fn text(entry: &Entry<'_>) -> String {
    format!(
        "- {}: {} (file: {})\n",
        entry.name,
        measure(entry).description,
        path(entry)
    )
}

/// The skill file as Codex shows it: a user's skill under `SKILLS_ROOT`,
/// a system skill where Codex installs it.
fn path(entry: &Entry<'_>) -> String {
    match entry.origin {
        Origin::Host => entry.path.to_owned(),
        Origin::Project => format!("{SKILLS_ROOT}/{}/SKILL.md", entry.name),
    }
}

fn cost(unit: Unit, chars: usize, bytes: usize) -> usize {
    match unit {
        Unit::Tokens => bytes.div_ceil(BYTES_PER_TOKEN),
        _ => chars,
    }
}

/// The line with `shown` description characters (a space before them).
fn line_cost(unit: Unit, m: &Measured, shown: usize) -> usize {
    shown_cost(unit, m, shown, prefix_chars(&m.description, shown).len())
}

/// The same, from the shown prefix's characters and bytes.
fn shown_cost(unit: Unit, m: &Measured, chars: usize, bytes: usize) -> usize {
    if chars == 0 {
        return cost(unit, m.minimum_chars, m.minimum_bytes);
    }
    cost(
        unit,
        m.minimum_chars + chars + 1,
        m.minimum_bytes + bytes + 1,
    )
}

pub(super) fn report(entries: &[Entry<'_>], context: Option<u64>) -> Report {
    let limit = limit(context);
    let unit = limit.unit;
    let measured: Vec<Measured> = entries.iter().map(measure).collect();
    let lengths: Vec<usize> = measured
        .iter()
        .map(|m| m.description.chars().count())
        .collect();
    let full: Vec<usize> = measured
        .iter()
        .zip(&lengths)
        .map(|(m, &n)| line_cost(unit, m, n))
        .collect();
    let used: usize = full.iter().sum();
    let capped = |i: usize| lengths[i] < entries[i].description.chars().count();
    let fates: Vec<Fate> = if used <= limit.amount {
        (0..entries.len())
            .map(|i| {
                if capped(i) {
                    Fate::Shortened { shown: lengths[i] }
                } else {
                    Fate::Full
                }
            })
            .collect()
    } else {
        cut(&measured, &lengths, unit, limit.amount)
    };
    let lines = entries
        .iter()
        .zip(&full)
        .zip(fates)
        .map(|((entry, &cost), fate)| line(entry, cost, fate))
        .collect();
    let culprit = first_past(full.iter().copied(), limit.amount);
    Report {
        budget: Budget::Codex,
        limit,
        used,
        lines,
        culprit,
    }
}

fn cut(measured: &[Measured], lengths: &[usize], unit: Unit, limit: usize) -> Vec<Fate> {
    let minimum: Vec<usize> = measured.iter().map(|m| line_cost(unit, m, 0)).collect();
    let minimum_total: usize = minimum.iter().sum();
    if minimum_total > limit {
        // Names and paths in order while they fit; the rest left out.
        let mut total = 0usize;
        return minimum
            .iter()
            .map(|&cost| {
                if total.saturating_add(cost) <= limit {
                    total += cost;
                    Fate::NameOnly
                } else {
                    Fate::Omitted
                }
            })
            .collect();
    }
    let shown = round_robin(measured, lengths, unit, limit - minimum_total);
    shown
        .iter()
        .zip(lengths)
        .map(|(&shown, &length)| match shown {
            0 if length > 0 => Fate::NameOnly,
            n if n < length => Fate::Shortened { shown: n },
            _ => Fate::Full,
        })
        .collect()
}

/// Hands out description characters one per skill per round while the
/// next character's extra cost fits in `spare`.
fn round_robin(measured: &[Measured], lengths: &[usize], unit: Unit, spare: usize) -> Vec<usize> {
    let mut spare = spare;
    let mut shown = vec![0usize; measured.len()];
    let mut extra = vec![0usize; measured.len()];
    let base: Vec<usize> = measured.iter().map(|m| line_cost(unit, m, 0)).collect();
    // Byte length of each shown prefix, advanced one character at a time.
    let mut bytes = vec![0usize; measured.len()];
    loop {
        let mut changed = false;
        for i in 0..measured.len() {
            if shown[i] >= lengths[i] {
                continue;
            }
            let next_char = measured[i].description[bytes[i]..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
            let next_cost =
                shown_cost(unit, &measured[i], shown[i] + 1, bytes[i] + next_char) - base[i];
            let delta = next_cost.saturating_sub(extra[i]);
            if delta <= spare {
                spare -= delta;
                shown[i] += 1;
                bytes[i] += next_char;
                extra[i] = next_cost;
                changed = true;
            }
        }
        if !changed {
            return shown;
        }
    }
}
