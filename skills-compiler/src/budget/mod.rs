//! What each host keeps of the catalog: every skill's name and description is
//! sent on every turn, and hosts cut what does not fit their budget.
//!
//! Each host's formula is written down here once, from its own source or
//! documentation (cited, with dates, in `docs/budget.md`): the size of the
//! budget, how an entry is counted, the order of entries, and what goes
//! first. [`report`] applies one to a set of [`Entry`]s; `cargo skills
//! budget` prints the result, and [`check`] turns a configured budget into a
//! located diagnostic on the description that pushes the catalog over.
//!
//! ```
//! use skills_compiler::budget::{Budget, Entry, report};
//!
//! let entries = [Entry::new("deploy", "Deploys the app. Use when the user asks to ship.", "skills/deploy/SKILL.md")];
//! let zed = report(Budget::Zed, &entries, None);
//! assert!(!zed.is_over());
//! assert_eq!(zed.used, "deploy".len() + entries[0].description.len());
//! ```

use std::fmt;

use serde::Deserialize;

use crate::emit::ir::Skill;
use crate::emit::present;

/// A budget to measure a catalog against: a host's own formula, or a plain
/// number of characters or estimated tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Claude Code: 1% of the context window (4 characters per token), or
    /// 8,000 characters; names always kept, descriptions dropped.
    ClaudeCode,
    /// Codex: 2% of the context window in tokens (4 bytes each), or 8,000
    /// characters; descriptions shortened, then whole skills left out.
    Codex,
    /// Zed: 50 KiB of name and description bytes; everything after the
    /// first entry that does not fit is left out.
    Zed,
    /// The Agent Skills client guide: about 100 tokens per skill.
    AgentSkills,
    /// This project's catalog (`SkillSet::catalog`) within so many characters.
    Chars(usize),
    /// This project's catalog within so many estimated tokens (4 characters each).
    Tokens(usize),
}

impl Budget {
    /// The name used on the command line and in `[package.metadata.skills.budget]`.
    pub fn name(self) -> &'static str {
        match self {
            Budget::ClaudeCode => "claude-code",
            Budget::Codex => "codex",
            Budget::Zed => "zed",
            Budget::AgentSkills => "agent-skills",
            Budget::Chars(_) => "chars",
            Budget::Tokens(_) => "tokens",
        }
    }

    /// The budget in prose: "Claude Code's budget".
    pub fn phrase(self) -> &'static str {
        match self {
            Budget::ClaudeCode => "Claude Code's budget",
            Budget::Codex => "Codex's budget",
            Budget::Zed => "Zed's budget",
            Budget::AgentSkills => "the Agent Skills client guide's target",
            Budget::Chars(_) | Budget::Tokens(_) => "the configured budget",
        }
    }
}

/// A host name as written in configuration and on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    ClaudeCode,
    Codex,
    Zed,
    AgentSkills,
}

impl Host {
    pub const ALL: [Host; 4] = [Host::ClaudeCode, Host::Codex, Host::Zed, Host::AgentSkills];

    pub fn budget(self) -> Budget {
        match self {
            Host::ClaudeCode => Budget::ClaudeCode,
            Host::Codex => Budget::Codex,
            Host::Zed => Budget::Zed,
            Host::AgentSkills => Budget::AgentSkills,
        }
    }
}

impl std::str::FromStr for Host {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Host::ALL
            .into_iter()
            .find(|host| host.budget().name() == s)
            .ok_or_else(|| {
                format!("unknown host `{s}`: expected claude-code, codex, zed or agent-skills")
            })
    }
}

/// What a catalog entry is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// Claude Code's `when_to_use`, which it counts with the description.
    pub when_to_use: Option<&'a str>,
    /// The skill file as the catalog shows it.
    pub path: &'a str,
}

impl<'a> Entry<'a> {
    pub fn new(name: &'a str, description: &'a str, path: &'a str) -> Self {
        Entry {
            name,
            description,
            when_to_use: None,
            path,
        }
    }
}

impl<'a> From<&'a Skill> for Entry<'a> {
    fn from(skill: &'a Skill) -> Self {
        let when_to_use = skill
            .extras
            .iter()
            .find(|(key, _)| key == "when_to_use")
            .and_then(|(_, value)| value.as_str());
        Entry {
            name: skill.name.as_str(),
            description: &skill.description,
            when_to_use,
            path: &skill.path,
        }
    }
}

/// What a budget counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    Chars,
    Bytes,
    Tokens,
}

impl Unit {
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Chars => "characters",
            Unit::Bytes => "bytes",
            Unit::Tokens => "tokens",
        }
    }
}

/// The size of a budget and where the number comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub amount: usize,
    pub unit: Unit,
    /// How the amount was reached, e.g. "1% of a 200,000-token context × 4 characters per token".
    pub basis: String,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", thousands(self.amount), self.unit.as_str())
    }
}

/// What the host does with one skill's entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fate {
    /// Shown in full.
    Full,
    /// Shown with its description cut to `shown` characters.
    Shortened { shown: usize },
    /// Shown by name only: the description is dropped.
    NameOnly,
    /// Not shown at all.
    Omitted,
    /// Shown in full, but longer than the host recommends for one entry.
    OverTarget,
}

impl Fate {
    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Full => "full",
            Fate::Shortened { .. } => "shortened",
            Fate::NameOnly => "name-only",
            Fate::Omitted => "omitted",
            Fate::OverTarget => "over-target",
        }
    }
}

/// One skill in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Its index in the entries the report was made from.
    pub entry: usize,
    pub name: String,
    /// The whole entry's cost, in the limit's unit.
    pub cost: usize,
    pub fate: Fate,
}

/// A catalog measured against one budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub budget: Budget,
    pub limit: Limit,
    /// The whole catalog's cost, uncut.
    pub used: usize,
    /// The skills in the host's order.
    pub lines: Vec<Line>,
    /// The skill whose description pushes the catalog over (index in
    /// `lines`): the first that does not fit in the host's order, or for a
    /// per-entry target the longest entry over it.
    pub culprit: Option<usize>,
}

impl Report {
    /// The catalog does not fit: the host cuts something, or an entry is over
    /// the host's per-entry target.
    pub fn is_over(&self) -> bool {
        self.culprit.is_some()
    }

    /// `line`'s share of the budget, in percent.
    pub fn share(&self, line: &Line) -> f64 {
        percent(line.cost, self.limit.amount)
    }

    /// The whole catalog against the budget, in percent.
    pub fn usage(&self) -> f64 {
        percent(self.used, self.limit.amount)
    }

    /// How many skills get each cut.
    pub fn count(&self, fate: fn(Fate) -> bool) -> usize {
        self.lines.iter().filter(|line| fate(line.fate)).count()
    }

    /// What the host does, counted: `2 left out, 3 shown by name only`, or
    /// `every skill shown in full`.
    pub fn summary(&self) -> String {
        let counts = [
            (self.count(|f| f == Fate::Omitted), "left out"),
            (self.count(|f| f == Fate::NameOnly), "shown by name only"),
            (
                self.count(|f| matches!(f, Fate::Shortened { .. })),
                "shortened",
            ),
            (
                self.count(|f| f == Fate::OverTarget),
                "over the per-skill target",
            ),
        ];
        let cuts: Vec<String> = counts
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if cuts.is_empty() {
            "every skill shown in full".to_owned()
        } else {
            cuts.join(", ")
        }
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return if part == 0 { 0.0 } else { f64::INFINITY };
    }
    part as f64 * 100.0 / whole as f64
}

/// `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Measures `entries` against `budget`; `context` is the model's context
/// window in tokens, for hosts whose budget is a share of it (without it they
/// use their own fallback).
pub fn report(budget: Budget, entries: &[Entry<'_>], context: Option<u64>) -> Report {
    // Every researched host lists skills by name (none knows usage at build time).
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&entries[a], &entries[b]);
        a.name.cmp(b.name).then(a.path.cmp(b.path))
    });
    let sorted: Vec<Entry<'_>> = order.iter().map(|&i| entries[i]).collect();
    let mut report = match budget {
        Budget::ClaudeCode => claude_code::report(&sorted, context),
        Budget::Codex => codex::report(&sorted, context),
        Budget::Zed => zed::report(&sorted),
        Budget::AgentSkills => agent_skills::report(&sorted),
        Budget::Chars(limit) => plain::report(&sorted, budget, limit, Unit::Chars),
        Budget::Tokens(limit) => plain::report(&sorted, budget, limit, Unit::Tokens),
    };
    for (line, &index) in report.lines.iter_mut().zip(&order) {
        line.entry = index;
    }
    report
}

/// A line of `entry` costing `cost`; its index is set by [`report`].
fn line(entry: &Entry<'_>, cost: usize, fate: Fate) -> Line {
    Line {
        entry: 0,
        name: entry.name.to_owned(),
        cost,
        fate,
    }
}

/// One skill's whole entry as `budget`'s host lists it (Zed's prompt
/// template is approximated as `- name: description`; it counts only the
/// name and description). For exact token counts of what is sent.
pub fn entry_text(budget: Budget, entry: &Entry<'_>) -> String {
    match budget {
        Budget::ClaudeCode => claude_code::text(entry),
        Budget::Codex => codex::text(entry),
        Budget::Zed => format!("- {}: {}\n", entry.name, entry.description),
        Budget::AgentSkills => {
            present::catalog_xml_element_of(entry.name, entry.description, entry.path)
        }
        Budget::Chars(_) | Budget::Tokens(_) => {
            present::catalog_line_of(entry.name, entry.description)
        }
    }
}

/// Estimated tokens of `text`: 4 characters each, rounded up.
pub fn estimated_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The first index at which the running total of `costs` passes `limit`.
fn first_past(costs: impl IntoIterator<Item = usize>, limit: usize) -> Option<usize> {
    let mut total = 0usize;
    costs.into_iter().position(|cost| {
        total = total.saturating_add(cost);
        total > limit
    })
}

/// Every entry in full up to `first`, and from there on left out.
fn cut_from(entries: &[Entry<'_>], costs: &[usize], first: Option<usize>) -> Vec<Line> {
    entries
        .iter()
        .zip(costs)
        .enumerate()
        .map(|(i, (entry, &cost))| {
            let fate = if first.is_some_and(|first| i >= first) {
                Fate::Omitted
            } else {
                Fate::Full
            };
            line(entry, cost, fate)
        })
        .collect()
}

/// `text` cut to at most `max` characters.
fn prefix_chars(text: &str, max: usize) -> &str {
    text.char_indices()
        .nth(max)
        .map_or(text, |(end, _)| &text[..end])
}

mod claude_code {
    //! Claude Code lists `- name: description` lines. The listing's budget
    //! is 1% of the context window (`skillListingBudgetFraction`), counted
    //! in characters at 4 per token, or 8,000 characters when the window is
    //! unknown. Each entry's description (with `when_to_use`) is cut to
    //! 1,536 characters. Over budget, names are always kept and the
    //! descriptions of the least-used skills are dropped first; at build
    //! time usage is unknown, so the listing's order stands for it.

    use super::*;

    pub const FALLBACK_CHARS: usize = 8_000;
    pub const CONTEXT_PERCENT: u64 = 1;
    pub const CHARS_PER_TOKEN: u64 = 4;
    pub const MAX_ENTRY_CHARS: usize = 1_536;

    pub fn limit(context: Option<u64>) -> Limit {
        match context {
            Some(tokens) => Limit {
                amount: usize::try_from(
                    tokens.saturating_mul(CONTEXT_PERCENT * CHARS_PER_TOKEN) / 100,
                )
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
        match entry.when_to_use {
            Some(when) => format!("{} {when}", entry.description),
            None => entry.description.to_owned(),
        }
    }

    /// Characters of the description shown, and of the whole.
    fn listed_description(entry: &Entry<'_>) -> (usize, usize) {
        let chars = description(entry).chars().count();
        (chars.min(MAX_ENTRY_CHARS), chars)
    }

    pub fn text(entry: &Entry<'_>) -> String {
        let description = description(entry);
        format!(
            "- {}: {}\n",
            entry.name,
            prefix_chars(&description, MAX_ENTRY_CHARS)
        )
    }

    /// Counted, not rendered: rendering every entry made the report five
    /// times slower. `entry_text` agrees (tests/budget.rs).
    pub fn report(entries: &[Entry<'_>], context: Option<u64>) -> Report {
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
}

mod codex {
    //! Codex lists `- name: description (file: path)` lines, sorted by
    //! scope and then by name. The budget is 2% of the context window in
    //! tokens, estimated as 4 bytes each, or 8,000 characters when the
    //! window is unknown. Each description is first capped at 1,024
    //! characters (1,021 and `...`). When the whole list does not fit, every
    //! skill keeps its name and path and description characters are handed
    //! out one at a time, round-robin, so short descriptions stay whole; when
    //! even names and paths do not fit, skills are left out in order.

    use super::*;

    pub const FALLBACK_CHARS: usize = 8_000;
    pub const CONTEXT_PERCENT: u64 = 2;
    pub const BYTES_PER_TOKEN: usize = 4;
    pub const MAX_DESCRIPTION_CHARS: usize = 1_024;
    /// Where Codex would find a user's skill; paths count towards the budget.
    pub const SKILLS_ROOT: &str = "/home/user/.codex/skills";

    pub fn limit(context: Option<u64>) -> Limit {
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
        let minimum = format!(
            "- {}: (file: {SKILLS_ROOT}/{}/SKILL.md)\n",
            entry.name, entry.name
        );
        Measured {
            description,
            minimum_chars: minimum.chars().count(),
            minimum_bytes: minimum.len(),
        }
    }

    pub fn text(entry: &Entry<'_>) -> String {
        format!(
            "- {}: {} (file: {SKILLS_ROOT}/{}/SKILL.md)\n",
            entry.name,
            measure(entry).description,
            entry.name
        )
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

    pub fn report(entries: &[Entry<'_>], context: Option<u64>) -> Report {
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
    fn round_robin(
        measured: &[Measured],
        lengths: &[usize],
        unit: Unit,
        spare: usize,
    ) -> Vec<usize> {
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
}

mod zed {
    //! Zed adds up `name.len() + description.len()` in bytes, in name order,
    //! against 50 KiB (`MAX_SKILL_DESCRIPTIONS_SIZE`). At the first entry
    //! that does not fit it stops: that skill and every later one are left
    //! out, so the cut does not depend on which later skills happen to be small.

    use super::*;

    pub const LIMIT_BYTES: usize = 50 * 1024;

    pub fn report(entries: &[Entry<'_>]) -> Report {
        let costs: Vec<usize> = entries
            .iter()
            .map(|e| e.name.len() + e.description.len())
            .collect();
        let culprit = first_past(costs.iter().copied(), LIMIT_BYTES);
        let lines = cut_from(entries, &costs, culprit);
        Report {
            budget: Budget::Zed,
            limit: Limit {
                amount: LIMIT_BYTES,
                unit: Unit::Bytes,
                basis: "50 KiB of names and descriptions".to_owned(),
            },
            used: costs.iter().sum(),
            lines,
            culprit,
        }
    }
}

mod agent_skills {
    //! The Agent Skills specification and client guide put about 100 tokens
    //! per skill in the catalog: its `name` and `description`, loaded at
    //! startup (the `<skill>` element adds a location around them). Nothing
    //! is cut. The budget is 100 tokens per skill; skills whose name and
    //! description pass 100 tokens are flagged, the longest first to blame.

    use super::*;

    pub const TOKENS_PER_SKILL: usize = 100;

    pub fn report(entries: &[Entry<'_>]) -> Report {
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
}

mod plain {
    //! This project's own catalog (`SkillSet::catalog`, one `- name:
    //! description` line each, descriptions on one line of at most 240
    //! characters) against a number of characters or estimated tokens.
    //! Nothing is cut by a host: the skills past the limit are marked as
    //! not fitting.

    use super::*;

    pub fn report(entries: &[Entry<'_>], budget: Budget, limit: usize, unit: Unit) -> Report {
        let costs: Vec<usize> = entries
            .iter()
            .map(|entry| {
                let line = present::catalog_line_of(entry.name, entry.description);
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
}

/// The `budget` table of `[package.metadata.skills]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct BudgetConfig {
    /// Hosts to check (default: all four).
    pub hosts: Option<Vec<Host>>,
    /// The model's context window in tokens (default: each host's fallback).
    pub context: Option<u64>,
    /// A plain budget for this project's catalog, in characters.
    pub chars: Option<usize>,
    /// A plain budget for this project's catalog, in estimated tokens.
    pub tokens: Option<usize>,
    /// `warn` (default) or `deny`.
    pub level: Option<Level>,
}

/// What an exceeded budget is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    #[default]
    Warn,
    Deny,
}

impl BudgetConfig {
    /// The budgets the table asks for, hosts first.
    pub fn budgets(&self) -> Vec<Budget> {
        let hosts = self.hosts.as_deref().unwrap_or(&Host::ALL);
        let mut budgets: Vec<Budget> = Vec::new();
        for budget in hosts.iter().map(|host| host.budget()) {
            if !budgets.contains(&budget) {
                budgets.push(budget);
            }
        }
        budgets.extend(self.chars.map(Budget::Chars));
        budgets.extend(self.tokens.map(Budget::Tokens));
        budgets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(8_000), "8,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn first_past_finds_the_entry_that_passes_the_limit() {
        assert_eq!(first_past([3, 3, 3], 9), None);
        assert_eq!(first_past([3, 3, 4], 9), Some(2));
        assert_eq!(first_past([10], 9), Some(0));
    }
}
