//! The budget reports as tables (`cargo skills budget`): per host, the
//! usage, what it cuts, and each skill's cost, share and fate.

use std::fmt::Write as _;

use super::json::{Counter, exact_tokens, round_tenth};
use super::model::{Entry, Fate, Line, Report, thousands};

fn fate_text(fate: Fate) -> String {
    match fate {
        Fate::Shortened { shown } => format!("shortened to {shown} characters"),
        Fate::NameOnly => "name only".to_owned(),
        Fate::Omitted => "left out".to_owned(),
        Fate::OverTarget => "over the per-skill target".to_owned(),
        Fate::Full => "full".to_owned(),
        Fate::Hidden => "hidden (disable-model-invocation)".to_owned(),
    }
}

/// The line's fate, saying when the skill is the host's own.
fn line_fate(line: &Line) -> String {
    match line.entry {
        Some(_) => fate_text(line.fate),
        None => format!("{} (built-in)", fate_text(line.fate)),
    }
}

/// Each report as a table, one after another (the last line ends with a
/// line break).
pub fn text(reports: &[Report], entries: &[Entry<'_>], counter: Option<Counter>) -> String {
    let mut out = String::new();
    let width = reports
        .iter()
        .flat_map(|report| &report.lines)
        .map(|line| line.name.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    for (i, report) in reports.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(out);
        }
        let _ = writeln!(
            out,
            "{}: {} of {} {} ({:.1}%); budget: {}",
            report.budget.name(),
            thousands(report.used),
            thousands(report.limit.amount),
            report.limit.unit.as_str(),
            round_tenth(report.usage()),
            report.limit.basis
        );
        let _ = writeln!(out, "  {}", report.summary());
        let builtins = report.builtin_lines().count();
        if builtins > 0 {
            let _ = writeln!(
                out,
                "  before yours: {builtins} {} of the host's own, {} {}",
                if builtins == 1 { "skill" } else { "skills" },
                thousands(report.builtin_cost()),
                report.limit.unit.as_str()
            );
        }
        let exact = if counter.is_some() { "  O200K" } else { "" };
        let _ = writeln!(
            out,
            "  {:width$}  {:>7}  {:>6}{exact}  FATE",
            "SKILL", "COST", "SHARE"
        );
        for line in &report.lines {
            let exact = match (counter, exact_tokens(counter, report.budget, entries, line)) {
                (Some(_), Some(tokens)) => format!("  {tokens:>5}"),
                (Some(_), None) => format!("  {:>5}", "-"),
                (None, _) => String::new(),
            };
            let _ = writeln!(
                out,
                "  {:width$}  {:>7}  {:>5.1}%{exact}  {}",
                line.name,
                thousands(line.cost),
                round_tenth(report.share(line)),
                line_fate(line)
            );
        }
    }
    out
}
