//! What a run of trigger tests says as diagnostics: each failing case at
//! its place in its file (S606), two skills that take each other's cases
//! (W028), and a skill that wins fewer than half of its own (W029), each
//! at the skill's description, quoting the requests.
//!
//! No advice here asks for a case's words to be put in a description: a
//! description tuned to a test set reads as a keyword list to the model
//! that actually reads it. The help names what differs (the concepts the
//! requests speak of that the description does not) and asks for a
//! sentence about what the skill is for.

use crate::diagnostics::source::Sources;
use crate::diagnostics::{Code, Diagnostic};
use crate::ir::Skill;
use crate::lint::at::at_description;

use super::cases::Expected;
use super::evaluate::Report;

/// The most requests a warning quotes.
const QUOTED: usize = 3;

/// W028 and W029 for `report`'s run over `skills`, sorted by skill.
pub fn lints(report: &Report, skills: &[Skill]) -> Vec<Diagnostic> {
    let skill = |name: &str| skills.iter().find(|skill| skill.name() == name);
    // The requests of `expected`'s cases that went to `chosen`.
    let taken = |expected: &str, chosen: &str| -> Vec<String> {
        report
            .outcomes
            .iter()
            .filter(|o| !o.pass && o.case.expected.skill() == Some(expected))
            .filter(|o| o.chosen.as_deref() == Some(chosen))
            .map(|o| o.case.query.clone())
            .collect()
    };
    let mut found = Vec::new();
    for pair in &report.summary.attractors {
        let back = taken(&pair.chosen, &pair.expected);
        // Both ways once (reported from the first name), or one way twice.
        let both = !back.is_empty();
        if (both && pair.expected > pair.chosen) || (!both && pair.count < 2) {
            continue;
        }
        let Some(at) = skill(&pair.expected) else {
            continue;
        };
        let mut message = format!(
            "{} of `{}`'s cases went to `{}`: {}",
            pair.count,
            pair.expected,
            pair.chosen,
            quoted(&taken(&pair.expected, &pair.chosen))
        );
        if both {
            message.push_str(&format!(
                "; and {} of `{}`'s went to `{}`: {}",
                back.len(),
                pair.chosen,
                pair.expected,
                quoted(&back)
            ));
        }
        found.push(
            at_description(at, Code::CasesTakenByAnother, message).with_help(format!(
                "say in one sentence of each description what it is for that the other is not (`{}` and `{}`); `cargo skills route --explain QUERY` shows the words each matched",
                pair.expected, pair.chosen
            )),
        );
    }
    for figures in report
        .summary
        .skills
        .iter()
        .filter(|f| f.cases > 0 && f.found * 2 < f.cases)
    {
        let Some(at) = skill(&figures.skill) else {
            continue;
        };
        let lost: Vec<String> = report
            .outcomes
            .iter()
            .filter(|o| !o.pass && o.case.expected.skill() == Some(figures.skill.as_str()))
            .map(|o| o.case.query.clone())
            .collect();
        let won = if figures.found == 0 {
            "none".to_owned()
        } else {
            figures.found.to_string()
        };
        found.push(
            at_description(
                at,
                Code::NeverChosen,
                format!(
                    "`{}` won {won} of its {} case{}; lost: {}",
                    figures.skill,
                    figures.cases,
                    if figures.cases == 1 { "" } else { "s" },
                    quoted(&lost)
                ),
            )
            .with_help(missing_concept(at.description(), &lost)),
        );
    }
    crate::diagnostics::sort(&mut found);
    found
}

/// The help of W029: the concepts the lost requests speak of that the
/// description does not, most shared first, as the requests spell them.
fn missing_concept(description: &str, lost: &[String]) -> String {
    use skills_core::route::words;
    let described: std::collections::HashSet<String> = words(description).into_iter().collect();
    // Each missing word: how many requests say it, and how the first spells it.
    let mut missing: Vec<(String, usize, String)> = Vec::new();
    for request in lost {
        let mut seen = std::collections::HashSet::new();
        for token in request.split(|c: char| !c.is_alphanumeric()) {
            let Some(word) = words(token).into_iter().next() else {
                continue;
            };
            if described.contains(&word) || !seen.insert(word.clone()) {
                continue;
            }
            match missing.iter_mut().find(|(w, _, _)| *w == word) {
                Some(entry) => entry.1 += 1,
                None => missing.push((word, 1, token.to_lowercase())),
            }
        }
    }
    missing.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let named: Vec<String> = missing
        .iter()
        .take(3)
        .map(|(_, _, spelled)| format!("\"{}\"", skills_core::printable(spelled)))
        .collect();
    if named.is_empty() {
        return "the description has these requests' words, and another skill's fits them better: say in one sentence what this skill is for that the others are not, or fix the cases".to_owned();
    }
    format!(
        "these requests speak of {} and the description does not: if the skill is for that, say so in a sentence about what it does (a list of the cases' words fits these cases and no other), or fix the cases",
        named.join(", ")
    )
}

/// The first requests, quoted, and how many more.
fn quoted(requests: &[String]) -> String {
    let mut text: Vec<String> = requests
        .iter()
        .take(QUOTED)
        .map(|query| format!("\"{}\"", skills_core::printable(query)))
        .collect();
    if requests.len() > QUOTED {
        text.push(format!("and {} more", requests.len() - QUOTED));
    }
    text.join(", ")
}

/// S606 for each case of `report` that failed, at the case in its file
/// (`sources` holds the case files), in the cases' order.
pub fn failures(report: &Report, sources: &Sources) -> Vec<Diagnostic> {
    report
        .outcomes
        .iter()
        .filter(|outcome| !outcome.pass)
        .map(|outcome| {
            let case = &outcome.case;
            let chosen = match &outcome.chosen {
                Some(skill) => format!("`{skill}`"),
                None => "no skill".to_owned(),
            };
            let wanted = match &case.expected {
                Expected::Skill { name, .. } => format!("`{name}`"),
                Expected::Nothing { .. } => "no skill".to_owned(),
                Expected::NotSkill(name) => format!("anything but `{name}`"),
            };
            let message = format!(
                "case `{}` (\"{}\") chose {chosen}, not {wanted}",
                skills_core::printable(&case.id),
                skills_core::printable(&case.query)
            );
            match (sources.get(&case.file), &case.span) {
                (Some(source), Some(span)) => {
                    Diagnostic::at(Code::TriggerCaseFailed, source, span.clone(), message)
                }
                _ => Diagnostic::error(Code::TriggerCaseFailed, case.file.clone(), message),
            }
            .with_help("`cargo skills route --explain QUERY` shows the words each skill matched, the words no skill has, and the cut")
        })
        .collect()
}
