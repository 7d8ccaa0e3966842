//! A run's judgement: each case's choices against what it expects, the
//! figures skill-reach and skill-creator report, and the gates.

use std::collections::BTreeMap;

use skills_core::route::Ranked;

use super::cases::{Case, Expected};
use crate::config::{Host, TestConfig};

/// The least figures a run must reach: skill-reach's CI gate by default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gates {
    /// Should-trigger cases whose skill is chosen, at least.
    pub recall: f64,
    /// Cases that pass, at least.
    pub accuracy: f64,
    /// Cases given a wrong skill, at most.
    pub misroute: f64,
    /// Hold the gates for each skill with cases too, not only the set.
    pub per_skill: bool,
    /// The share of a case's runs that must choose right for it to pass.
    pub pass_rate: f64,
}

impl Default for Gates {
    fn default() -> Self {
        Gates {
            recall: 0.8,
            accuracy: 0.8,
            misroute: 0.1,
            per_skill: true,
            pass_rate: 0.5,
        }
    }
}

impl Gates {
    /// The gates `[package.metadata.skills.test]` sets, defaults elsewhere.
    pub fn of(config: Option<&TestConfig>) -> Gates {
        let default = Gates::default();
        let Some(config) = config else {
            return default;
        };
        Gates {
            recall: config.recall.map_or(default.recall, |r| r.0),
            accuracy: config.accuracy.map_or(default.accuracy, |r| r.0),
            misroute: config.misroute.map_or(default.misroute, |r| r.0),
            per_skill: config.per_skill.unwrap_or(default.per_skill),
            pass_rate: config.pass_rate.map_or(default.pass_rate, |r| r.0),
        }
    }
}

/// The host whose listing trigger tests read: the manifest's, or Claude Code.
pub fn host(config: Option<&TestConfig>) -> Host {
    config.and_then(|c| c.host).unwrap_or(Host::ClaudeCode)
}

/// One case's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The case.
    pub case: Case,
    /// Each run's choice.
    pub runs: Vec<Option<String>>,
    /// The choice the case is judged by: the most frequent of the runs (the
    /// first of them on a tie).
    pub chosen: Option<String>,
    /// The last run's ranking (the offline router's is the same each run).
    pub ranked: Vec<skills_core::route::Scored>,
    /// Whether enough runs chose right.
    pub pass: bool,
}

/// Precision, recall and F1 of one skill.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillFigures {
    /// The skill.
    pub skill: String,
    /// Its should-trigger cases.
    pub cases: usize,
    /// Those chosen right.
    pub found: usize,
    /// Cases of others (or of none) it took.
    pub taken: usize,
    /// Its cases whose skill the ranking put first.
    pub top1: usize,
    /// Its cases whose skill the ranking put in its best three.
    pub top3: usize,
    /// found / (found + taken); 1 when it took nothing.
    pub precision: f64,
    /// found / cases; 1 when it has no cases.
    pub recall: f64,
    /// Their harmonic mean.
    pub f1: f64,
}

/// Two skills that take each other's cases: `chosen` took `count` of
/// `expected`'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attractor {
    /// The skill the cases are for.
    pub expected: String,
    /// The skill chosen instead.
    pub chosen: String,
    /// How many.
    pub count: usize,
}

/// A gate a run missed.
#[derive(Debug, Clone, PartialEq)]
pub struct GateFailure {
    /// `None` for the set, else the skill.
    pub skill: Option<String>,
    /// `recall`, `accuracy` or `misroute`.
    pub gate: &'static str,
    /// The figure reached.
    pub value: f64,
    /// The gate's bound.
    pub bound: f64,
}

impl GateFailure {
    /// `recall of `pdf` is 0.500 < 0.800 (at least)`.
    pub fn describe(&self) -> String {
        let what = self.skill.as_deref().map_or("the set".to_owned(), |s| {
            format!("`{}`", skills_core::printable(s))
        });
        let (relation, sign) = if self.gate == "misroute" {
            ("at most", ">")
        } else {
            ("at least", "<")
        };
        format!(
            "{} of {what} is {:.3} {sign} {:.3} ({relation})",
            self.gate, self.value, self.bound
        )
    }
}

/// The figures of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Cases run.
    pub cases: usize,
    /// Cases that passed.
    pub passed: usize,
    /// passed / cases (top-1 accuracy).
    pub accuracy: f64,
    /// Should-trigger cases whose skill was chosen, over all of them.
    pub recall: f64,
    /// Cases given a skill that is wrong for them.
    pub misroute: f64,
    /// Cases given no skill.
    pub abstention: f64,
    /// Should-trigger cases whose skill the ranking put first, over all of
    /// them (what the ranking knew, whatever the choice).
    pub top1: f64,
    /// Should-trigger cases whose skill the ranking put in its best three.
    pub top3: f64,
    /// Failing cases where the router chose nothing while it ranked the
    /// right skill first: the cut, not the ranking, lost them.
    pub abstained_ranked_first: usize,
    /// The cut the choices were held to (`None` for a model).
    pub threshold: Option<f64>,
    /// Each skill that has cases or took one, by name.
    pub skills: Vec<SkillFigures>,
    /// Pairs that take each other's cases, most first.
    pub attractors: Vec<Attractor>,
    /// The gates missed; empty when the run passes.
    pub failures: Vec<GateFailure>,
}

/// Every case's outcome and the figures.
#[derive(Debug, Clone)]
pub struct Report {
    /// In the cases' order.
    pub outcomes: Vec<Outcome>,
    /// The figures and the gates.
    pub summary: Summary,
}

impl Report {
    /// The failing cases under the skill each expects (`(no skill)` for a
    /// case that wants none), by name: how a person reads what to fix.
    pub fn failing_by_skill(&self) -> std::collections::BTreeMap<String, Vec<&Outcome>> {
        let mut by_skill: std::collections::BTreeMap<String, Vec<&Outcome>> = Default::default();
        for outcome in self.outcomes.iter().filter(|o| !o.pass) {
            let key = match &outcome.case.expected {
                Expected::Skill { name, .. } | Expected::NotSkill(name) => name.clone(),
                Expected::Nothing { .. } => "(no skill)".to_owned(),
            };
            by_skill.entry(key).or_default().push(outcome);
        }
        by_skill
    }
}

/// Runs `route` `runs` times on each case and judges the choices. A router
/// error stops the run (it is never counted as a routing failure).
pub fn evaluate<E>(
    cases: &[Case],
    mut route: impl FnMut(&str) -> Result<Ranked, E>,
    runs: usize,
    gates: &Gates,
) -> Result<Report, E> {
    let runs = runs.max(1);
    let mut outcomes = Vec::with_capacity(cases.len());
    let mut threshold = None;
    for case in cases {
        let mut choices = Vec::with_capacity(runs);
        let mut ranked = Vec::new();
        for _ in 0..runs {
            let routed = route(&case.query)?;
            choices.push(routed.chosen().map(str::to_owned));
            threshold = routed.threshold;
            ranked = routed.ranked;
        }
        let right = choices
            .iter()
            .filter(|choice| case.expected.passes(choice.as_deref()))
            .count();
        outcomes.push(Outcome {
            chosen: most_frequent(&choices),
            pass: right as f64 >= gates.pass_rate * runs as f64 && right > 0,
            runs: choices,
            ranked,
            case: case.clone(),
        });
    }
    let mut summary = summarise(&outcomes, gates);
    summary.threshold = threshold;
    Ok(Report { outcomes, summary })
}

fn most_frequent(choices: &[Option<String>]) -> Option<String> {
    let count = |c: &Option<String>| choices.iter().filter(|x| *x == c).count();
    choices
        .iter()
        .max_by(|a, b| count(a).cmp(&count(b)).then(std::cmp::Ordering::Greater))
        .cloned()
        .flatten()
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// The figures of `outcomes`, and the gates they miss.
fn summarise(outcomes: &[Outcome], gates: &Gates) -> Summary {
    let cases = outcomes.len();
    let passed = outcomes.iter().filter(|o| o.pass).count();
    let wrong_skill = |o: &Outcome| o.chosen.is_some() && !o.pass;
    let misrouted = outcomes.iter().filter(|o| wrong_skill(o)).count();
    let abstained = outcomes.iter().filter(|o| o.chosen.is_none()).count();
    let should: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.case.expected.skill().is_some())
        .collect();
    let found = should.iter().filter(|o| o.pass).count();
    let top1 = should.iter().filter(|o| ranked_within(o, 1)).count();
    let top3 = should.iter().filter(|o| ranked_within(o, 3)).count();
    let abstained_ranked_first = outcomes
        .iter()
        .filter(|o| !o.pass && o.chosen.is_none() && ranked_within(o, 1))
        .count();

    // Per skill: its should-trigger cases, and the cases it took wrongly.
    // (cases, found, taken, top-1, top-3)
    let mut by_skill: BTreeMap<&str, (usize, usize, usize, usize, usize)> = BTreeMap::new();
    let mut pairs: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut skill_cases: BTreeMap<&str, Vec<&Outcome>> = BTreeMap::new();
    for outcome in outcomes {
        if let Some(skill) = outcome.case.expected.skill() {
            let entry = by_skill.entry(skill).or_default();
            entry.0 += 1;
            entry.1 += usize::from(outcome.pass);
            entry.3 += usize::from(ranked_within(outcome, 1));
            entry.4 += usize::from(ranked_within(outcome, 3));
        }
        if let Some(skill) = skill_of_case(&outcome.case.expected) {
            skill_cases.entry(skill).or_default().push(outcome);
        }
        if let (Some(chosen), false) = (&outcome.chosen, outcome.pass) {
            by_skill.entry(chosen).or_default().2 += 1;
            if let Some(expected) = outcome.case.expected.skill() {
                *pairs.entry((expected, chosen)).or_default() += 1;
            }
        }
    }
    let skills: Vec<SkillFigures> = by_skill
        .into_iter()
        .map(|(skill, (cases, found, taken, top1, top3))| {
            let precision = ratio(found, found + taken);
            let recall = ratio(found, cases);
            let f1 = if precision + recall == 0.0 {
                0.0
            } else {
                2.0 * precision * recall / (precision + recall)
            };
            SkillFigures {
                skill: skill.to_owned(),
                cases,
                found,
                taken,
                top1,
                top3,
                precision,
                recall,
                f1,
            }
        })
        .collect();
    let mut attractors: Vec<Attractor> = pairs
        .into_iter()
        .map(|((expected, chosen), count)| Attractor {
            expected: expected.to_owned(),
            chosen: chosen.to_owned(),
            count,
        })
        .collect();
    attractors.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.expected.cmp(&b.expected))
    });

    let mut failures = Vec::new();
    let mut hold = |skill: Option<&str>, accuracy: f64, recall: f64, misroute: f64| {
        for (gate, value, bound, ok) in [
            ("recall", recall, gates.recall, recall >= gates.recall),
            (
                "accuracy",
                accuracy,
                gates.accuracy,
                accuracy >= gates.accuracy,
            ),
            (
                "misroute",
                misroute,
                gates.misroute,
                misroute <= gates.misroute,
            ),
        ] {
            if !ok {
                failures.push(GateFailure {
                    skill: skill.map(str::to_owned),
                    gate,
                    value,
                    bound,
                });
            }
        }
    };
    let summary_recall = ratio(found, should.len());
    hold(
        None,
        ratio(passed, cases),
        summary_recall,
        if cases == 0 {
            0.0
        } else {
            ratio(misrouted, cases)
        },
    );
    if gates.per_skill {
        for (skill, own) in &skill_cases {
            let should: Vec<_> = own
                .iter()
                .filter(|o| o.case.expected.skill().is_some())
                .collect();
            let passed = own.iter().filter(|o| o.pass).count();
            let misrouted = own.iter().filter(|o| wrong_skill(o)).count();
            hold(
                Some(skill),
                ratio(passed, own.len()),
                ratio(should.iter().filter(|o| o.pass).count(), should.len()),
                ratio(misrouted, own.len()),
            );
        }
    }
    Summary {
        cases,
        passed,
        accuracy: ratio(passed, cases),
        recall: summary_recall,
        misroute: if cases == 0 {
            0.0
        } else {
            ratio(misrouted, cases)
        },
        abstention: if cases == 0 {
            0.0
        } else {
            ratio(abstained, cases)
        },
        top1: ratio(top1, should.len()),
        top3: ratio(top3, should.len()),
        abstained_ranked_first,
        threshold: None,
        skills,
        attractors,
        failures,
    }
}

/// Whether the ranking put a skill the case passes with in its best `k`.
fn ranked_within(outcome: &Outcome, k: usize) -> bool {
    outcome.case.expected.skill().is_some()
        && outcome
            .ranked
            .iter()
            .take(k)
            .any(|scored| outcome.case.expected.passes(Some(&scored.skill)))
}

/// The skill a case belongs to, for the per-skill gates: the one it is
/// for, or the one it must not choose.
fn skill_of_case(expected: &Expected) -> Option<&str> {
    match expected {
        Expected::Skill { name, .. } | Expected::NotSkill(name) => Some(name),
        Expected::Nothing { .. } => None,
    }
}
