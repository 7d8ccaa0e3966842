//! What each host keeps of the catalog: every skill's name and description is
//! sent on every turn, and hosts cut what does not fit their budget.
//!
//! Each host's formula is written down here once, from its own source or
//! documentation (cited, with dates, in `docs/budget.md`): the size of the
//! budget, how an entry is counted, the order of entries, and what goes
//! first; and the skills the host ships and lists before yours
//! ([`builtins`]). [`report`] applies one to a set of [`Entry`]s; `cargo
//! skills budget` prints the result, and the lint `W011` (`lint/budget.rs`)
//! turns a configured budget into a located diagnostic on the description
//! that pushes the catalog over.
//!
//! ```
//! use skills_compiler::budget::{Budget, Entry, Options, report};
//!
//! let entries = [Entry::new("deploy", "Deploys the app. Use when the user asks to ship.", "skills/deploy/SKILL.md")];
//! let zed = report(Budget::Zed, &entries, &Options::default());
//! assert!(!zed.is_over());
//! // Zed's own `create-skill` comes first: 143 bytes.
//! assert_eq!(zed.builtin_cost(), 143);
//! assert_eq!(zed.used, 143 + "deploy".len() + entries[0].description.len());
//! ```

use std::fmt;

pub use crate::config::{BudgetConfig, Host, Level};
use crate::ir::Skill;
use crate::ir::present;

// One file per host: its formula, caps and sources; and each host's own skills.
mod agent_skills;
pub mod builtins;
use builtins::Shadow;
mod claude_code;
mod codex;
pub(crate) mod cuts;
mod plain;
mod zed;

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

impl Host {
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
    /// The most characters of the description in this project's catalog.
    pub catalog_chars: usize,
    /// `disable-model-invocation: true`: hosts that honour it do not list the skill.
    pub hidden: bool,
    /// Yours, or one of the host's own.
    pub origin: Origin,
}

/// Whose a catalog entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Origin {
    /// A skill of the set being measured.
    #[default]
    Project,
    /// One the host ships and lists first ([`builtins`]).
    Host,
}

impl<'a> Entry<'a> {
    pub fn new(name: &'a str, description: &'a str, path: &'a str) -> Self {
        Entry {
            name,
            description,
            when_to_use: None,
            path,
            catalog_chars: present::CATALOG_DESCRIPTION_CHARS,
            hidden: false,
            origin: Origin::Project,
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
        let hidden = skill
            .extras
            .iter()
            .any(|(key, value)| key == "disable-model-invocation" && value.as_bool() == Some(true));
        Entry {
            name: skill.name.as_str(),
            description: &skill.description,
            when_to_use,
            path: &skill.path,
            catalog_chars: skill.catalog_chars,
            hidden,
            origin: Origin::Project,
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
    /// Not listed, by the skill's own wish (`disable-model-invocation: true`).
    Hidden,
}

impl Fate {
    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Full => "full",
            Fate::Shortened { .. } => "shortened",
            Fate::NameOnly => "name-only",
            Fate::Omitted => "omitted",
            Fate::OverTarget => "over-target",
            Fate::Hidden => "hidden",
        }
    }
}

/// One skill in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Its index in the entries the report was made from; `None` for one of
    /// the host's own skills.
    pub entry: Option<usize>,
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
    /// The whole catalog's cost, uncut, the host's own skills included.
    pub used: usize,
    /// The skills in the host's order, the host's own first.
    pub lines: Vec<Line>,
    /// The skill of yours whose description pushes the catalog over (index
    /// in `lines`): the first that does not fit in the host's order, or for
    /// a per-entry target the longest entry over it. Never one of the
    /// host's own: they come first, so what passes the budget is yours.
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

    /// How many of your skills get each cut.
    pub fn count(&self, fate: fn(Fate) -> bool) -> usize {
        self.project_lines().filter(|line| fate(line.fate)).count()
    }

    /// Your skills' lines, in the host's order.
    pub fn project_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|line| line.entry.is_some())
    }

    /// The host's own skills' lines, which come first.
    pub fn builtin_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|line| line.entry.is_none())
    }

    /// What the host's own skills cost before any of yours.
    pub fn builtin_cost(&self) -> usize {
        self.builtin_lines().map(|line| line.cost).sum()
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
            (
                self.count(|f| f == Fate::Hidden),
                "hidden (disable-model-invocation)",
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

/// What a report counts besides the entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The model's context window in tokens, for hosts whose budget is a
    /// share of it (without it they use their own fallback).
    pub context: Option<u64>,
    /// Count the host's own skills ([`builtins`]) first, as the host does.
    pub builtins: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            context: None,
            builtins: true,
        }
    }
}

impl Options {
    /// The host as shipped, in a context of `context` tokens.
    pub fn context(context: Option<u64>) -> Self {
        Options {
            context,
            ..Options::default()
        }
    }
}

/// Measures `entries` against `budget`, as the host lists them: its own
/// skills first (unless `options.builtins` is off), then yours by name,
/// without those the host hides.
pub fn report(budget: Budget, entries: &[Entry<'_>], options: &Options) -> Report {
    let listing = builtins::listing(budget);
    let named = |i: usize, name: &str| entries[i].name == name;
    // The host's own that no skill of yours shadows, when they are counted.
    let own: Vec<builtins::Builtin> = if options.builtins {
        listing
            .own
            .iter()
            .filter(|b| {
                listing.shadow == Shadow::Nothing || !(0..entries.len()).any(|i| named(i, b.name))
            })
            .copied()
            .collect()
    } else {
        Vec::new()
    };
    let order = listing_order(entries, options.builtins, listing);
    let hidden = |i: usize| listing.hides_disabled && entries[i].hidden;
    let listed: Vec<usize> = order.iter().copied().filter(|&i| !hidden(i)).collect();
    // The host's own are counted by length: a run of `x` stands for each text.
    let fillers: Vec<String> = own
        .iter()
        .map(|builtin| "x".repeat(builtin.description_chars))
        .collect();
    let mut sorted: Vec<Entry<'_>> = own
        .iter()
        .zip(&fillers)
        .map(|(builtin, filler)| Entry {
            origin: Origin::Host,
            ..Entry::new(builtin.name, filler, builtin.path)
        })
        .collect();
    sorted.extend(listed.iter().map(|&i| entries[i]));
    let counted = match budget {
        Budget::ClaudeCode => claude_code::report(&sorted, options.context),
        Budget::Codex => codex::report(&sorted, options.context),
        Budget::Zed => zed::report(&sorted),
        Budget::AgentSkills => agent_skills::report(&sorted),
        Budget::Chars(limit) => plain::report(&sorted, budget, limit, Unit::Chars),
        Budget::Tokens(limit) => plain::report(&sorted, budget, limit, Unit::Tokens),
    };
    // What passes the budget is yours: the host's own come first.
    let culprit = counted
        .culprit
        .map(|i| i.max(own.len()))
        .and_then(|i| listed.get(i - own.len()).copied());
    let mut counted_lines = counted.lines.into_iter();
    let mut lines: Vec<Line> = counted_lines.by_ref().take(own.len()).collect();
    // Yours in the host's order, each hidden one in its place at no cost.
    // (The formulas return a line for every entry they are given.)
    for &i in &order {
        let counted = if hidden(i) {
            None
        } else {
            counted_lines.next()
        };
        let line = counted.unwrap_or_else(|| line(&entries[i], 0, Fate::Hidden));
        lines.push(Line {
            entry: Some(i),
            ..line
        });
    }
    Report {
        culprit: culprit.and_then(|entry| lines.iter().position(|l| l.entry == Some(entry))),
        lines,
        ..counted
    }
}

/// The order in which a host lists `entries` (indices): every researched
/// host by name (none knows usage at build time); where the host's own
/// skills are counted and a skill of yours takes one's place, that skill
/// first.
fn listing_order(entries: &[Entry<'_>], builtins: bool, listing: builtins::Listing) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&entries[a], &entries[b]);
        a.name.cmp(b.name).then(a.path.cmp(b.path))
    });
    if builtins && listing.shadow == Shadow::InPlace {
        let shadows = |i: &usize| listing.own.iter().any(|b| b.name == entries[*i].name);
        order.sort_by_key(|i| !shadows(i));
    }
    order
}

/// A line of `entry` costing `cost`; its index is set by [`report`].
fn line(entry: &Entry<'_>, cost: usize, fate: Fate) -> Line {
    Line {
        entry: None,
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
            present::catalog_line_of(entry.name, entry.description, entry.catalog_chars)
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

impl BudgetConfig {
    /// How the table asks reports to count.
    pub fn options(&self) -> Options {
        Options {
            context: self.context,
            builtins: self.builtins.unwrap_or(true),
        }
    }

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
