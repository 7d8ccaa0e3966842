//! What a run of trigger tests says as diagnostics: each failing case at
//! its place in its file (S606), two skills that take each other's cases
//! (W028), and a skill that wins none of its own (W029), each at the
//! skill's description, quoting the requests.

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
                "say in each description what it is for that the other is not (`{}` and `{}`), in the words a user would use",
                pair.expected, pair.chosen
            )),
        );
    }
    for figures in report
        .summary
        .skills
        .iter()
        .filter(|f| f.cases > 0 && f.found == 0)
    {
        let Some(at) = skill(&figures.skill) else {
            continue;
        };
        let requests: Vec<String> = report
            .outcomes
            .iter()
            .filter(|o| o.case.expected.skill() == Some(figures.skill.as_str()))
            .map(|o| o.case.query.clone())
            .collect();
        found.push(
            at_description(
                at,
                Code::NeverChosen,
                format!(
                    "`{}` won none of its {} case{}: {}",
                    figures.skill,
                    figures.cases,
                    if figures.cases == 1 { "" } else { "s" },
                    quoted(&requests)
                ),
            )
            .with_help("put the words these requests use in the description, before the host's cut, or fix the cases"),
        );
    }
    crate::diagnostics::sort(&mut found);
    found
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
            .with_help("make the description say what this request asks for, or fix the case; `cargo skills route QUERY` shows the ranking")
        })
        .collect()
}
