//! W011: the catalog over a configured budget, reported on the description
//! that pushes it over. The host models are in [`crate::budget`].

use std::borrow::Borrow;

use super::at::at_description;
use crate::budget::{Budget, BudgetConfig, Entry, Fate, Level, Report, report, thousands};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;

/// One diagnostic per configured budget that the skills exceed, on the
/// description that pushes the catalog over.
pub(crate) fn budget<S: Borrow<Skill>>(skills: &[S], config: &BudgetConfig) -> Vec<Diagnostic> {
    let entries: Vec<Entry<'_>> = skills
        .iter()
        .map(|skill| Entry::from(skill.borrow()))
        .collect();
    let severity = match config.level.unwrap_or_default() {
        Level::Warn => Severity::Warning,
        Level::Deny => Severity::Error,
    };
    config
        .budgets()
        .into_iter()
        .map(|budget| report(budget, &entries, &config.options()))
        .filter_map(|report| {
            let skill = skills[report.lines[report.culprit?].entry?].borrow();
            let mut diagnostic = at_description(skill, Code::OverBudget, over_message(&report))
                .with_help(help(&report));
            diagnostic.severity = severity;
            Some(diagnostic)
        })
        .collect()
}

fn over_message(report: &Report) -> String {
    let culprit = &report.lines[report.culprit.unwrap_or_default()];
    if report.budget == Budget::AgentSkills {
        return format!(
            "this skill's name and description are about {} tokens; {} is about 100 per skill ({} of {} skills are over)",
            culprit.cost,
            report.budget.phrase(),
            report.count(|f| f == Fate::OverTarget),
            report.lines.len()
        );
    }
    format!(
        "with this description the catalog passes {} of {} ({}): {} {} in all; {}",
        report.budget.phrase(),
        report.limit,
        report.limit.basis,
        thousands(report.used),
        report.limit.unit.as_str(),
        report.summary(),
    )
}

fn help(report: &Report) -> String {
    format!(
        "shorten the longest descriptions or remove skills (`cargo skills budget --host {}` lists every entry), or set `context` in `[package.metadata.skills.budget]`",
        report.budget.name()
    )
}
