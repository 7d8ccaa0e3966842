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
//! use skills_compiler::ops::budget::{Budget, Entry, Options, report};
//!
//! let entries = [Entry::new("deploy", "Deploys the app. Use when the user asks to ship.", "skills/deploy/SKILL.md")];
//! let zed = report(Budget::Zed, &entries, &Options::default());
//! assert!(!zed.is_over());
//! // Zed's own `create-skill` comes first: 143 bytes.
//! assert_eq!(zed.builtin_cost(), 143);
//! assert_eq!(zed.used, 143 + "deploy".len() + entries[0].description.len());
//! ```

// The macro's build runs the budget gate (`lint/budget.rs`); the printers
// and the re-exports `ops::budget` names are only `ops`'s. What only they
// use is dead in the macro's build and stays beside the formulas it
// reports on, rather than split item by item behind `cfg`.
#![cfg_attr(
    not(feature = "ops"),
    allow(dead_code, unused_imports, unreachable_pub)
)]

// The model every host shares, then one file per host: its formula, caps
// and sources; and each host's own skills.
mod model;
pub use model::*;
mod listing;
pub use listing::entry_text;
pub(crate) use listing::listed_text;
mod agent_skills;
pub mod builtins;
use builtins::Shadow;
mod claude_code;
mod codex;
pub(crate) mod cuts;
#[cfg(feature = "ops")]
pub mod json;
mod plain;
#[cfg(feature = "ops")]
pub mod table;
mod zed;

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
    let hidden = |i: usize| listing.hides.hides(&entries[i]);
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
    sorted.extend(listed.iter().map(|&i| entries[i].clone()));
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
