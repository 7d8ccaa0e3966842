//! The budget's model: what a catalog entry is, what a host does with it,
//! and the report of a whole catalog; the counting every host shares.

use std::fmt;

pub(crate) use crate::config::Level;
pub use crate::config::{BudgetConfig, Host};
use crate::ir::Skill;
use crate::ir::present;

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
    /// The budget this host's catalog is measured against.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// The skill's description, as the host reads it.
    pub description: &'a str,
    /// Claude Code's `when_to_use`, which it counts with the description.
    pub when_to_use: Option<std::borrow::Cow<'a, str>>,
    /// The skill file as the catalog shows it.
    pub path: &'a str,
    /// The most characters of the description in this project's catalog.
    pub catalog_chars: usize,
    /// `disable-model-invocation: true`: hosts that honour it do not list the skill.
    pub hidden: bool,
    /// `false` when the skill's `agents/openai.yaml` sets
    /// `policy.allow_implicit_invocation: false`: Codex does not list it.
    pub codex_implicit: bool,
    /// Yours, or one of the host's own.
    pub origin: Origin,
}

/// Whose a catalog entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Origin {
    /// A skill of the set being measured.
    #[default]
    Project,
    /// One the host ships and lists first ([`builtins`](super::builtins)).
    Host,
}

impl<'a> Entry<'a> {
    /// An entry of this project with the default catalog length, no `when_to_use`, listed.
    pub fn new(name: &'a str, description: &'a str, path: &'a str) -> Self {
        Entry {
            name,
            description,
            when_to_use: None,
            path,
            catalog_chars: present::CATALOG_DESCRIPTION_CHARS,
            hidden: false,
            codex_implicit: true,
            origin: Origin::Project,
        }
    }
}

impl<'a> From<&'a Skill> for Entry<'a> {
    fn from(skill: &'a Skill) -> Self {
        use serde_json::Value;
        let when_to_use = match skill.extra("when_to_use") {
            Some(Value::String(text)) => Some(text.into()),
            _ => None,
        };
        let hidden = skill.extra("disable-model-invocation") == Some(Value::Bool(true));
        Entry {
            name: skill.name(),
            description: skill.description(),
            when_to_use,
            path: skill.path(),
            catalog_chars: skill.table.catalog_chars,
            hidden,
            codex_implicit: skill.codex_implicit,
            origin: Origin::Project,
        }
    }
}

/// What a budget counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Characters (Unicode scalar values).
    Chars,
    /// UTF-8 bytes.
    Bytes,
    /// Estimated tokens (about four characters each).
    Tokens,
}

impl Unit {
    /// The unit's name in a sentence: `characters`, `bytes`, `tokens`.
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
    /// How many units.
    pub amount: usize,
    /// What is counted.
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
    Shortened {
        /// The characters of the description shown.
        shown: usize,
    },
    /// Shown by name only: the description is dropped.
    NameOnly,
    /// Not shown at all.
    Omitted,
    /// Shown in full, but longer than the host recommends for one entry.
    OverTarget,
    /// Not listed, by the skill's own wish (`disable-model-invocation: true`;
    /// for Codex, `policy.allow_implicit_invocation: false`).
    Hidden,
}

impl Fate {
    /// The fate's name in reports: `full`, `shortened`, `name-only`, ...
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
    /// The skill's name.
    pub name: String,
    /// The whole entry's cost, in the limit's unit.
    pub cost: usize,
    /// What the host does with the entry.
    pub fate: Fate,
}

/// A catalog measured against one budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The budget measured against.
    pub budget: Budget,
    /// Its size, and where the number comes from.
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
        let hidden = match self.budget {
            Budget::Codex => "hidden (policy.allow_implicit_invocation: false)",
            _ => "hidden (disable-model-invocation)",
        };
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
            (self.count(|f| f == Fate::Hidden), hidden),
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
pub(crate) fn thousands(n: usize) -> String {
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
    /// Count the host's own skills ([`builtins`](super::builtins)) first, as the host does.
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

/// A line of `entry` costing `cost`; its index is set by [`report`].
pub(super) fn line(entry: &Entry<'_>, cost: usize, fate: Fate) -> Line {
    Line {
        entry: None,
        name: entry.name.to_owned(),
        cost,
        fate,
    }
}

/// Estimated tokens of `text`: 4 characters each, rounded up.
pub(crate) fn estimated_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The first index at which the running total of `costs` passes `limit`.
pub(super) fn first_past(costs: impl IntoIterator<Item = usize>, limit: usize) -> Option<usize> {
    let mut total = 0usize;
    costs.into_iter().position(|cost| {
        total = total.saturating_add(cost);
        total > limit
    })
}

/// Every entry in full up to `first`, and from there on left out.
pub(super) fn cut_from(entries: &[Entry<'_>], costs: &[usize], first: Option<usize>) -> Vec<Line> {
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
pub(super) fn prefix_chars(text: &str, max: usize) -> &str {
    text.char_indices()
        .nth(max)
        .map_or(text, |(end, _)| &text[..end])
}
