//! What a run of trigger tests says about the descriptions: two skills that
//! take each other's cases (W028), and a skill that wins none of its own
//! (W029), each at the skill's description, quoting the requests.

use crate::diagnostics::{Code, Diagnostic};
use crate::ir::Skill;
use crate::lint::at::at_description;

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
