//! A trigger run as JSON lines (`cargo skills test --message-format
//! json`): one object per case, then a summary object, scores to four
//! decimals so that every machine prints the same.

use serde_json::{Value, json};

use super::cases::Expected;
use super::{Gates, Outcome, Report};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::render;
use crate::diagnostics::source::Sources;

/// A score as reports print it: four decimals, the same on every machine.
pub fn rounded(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}

/// Every line of the run: each case, then the summary.
pub fn lines(
    report: &Report,
    gates: &Gates,
    lints: &[Diagnostic],
    sources: &Sources,
) -> Vec<Value> {
    let mut lines: Vec<Value> = report.outcomes.iter().map(case).collect();
    lines.push(summary(report, gates, lints, sources));
    lines
}

fn case(outcome: &Outcome) -> Value {
    let (expected, avoid) = match &outcome.case.expected {
        Expected::Skill { name, acceptable } => {
            let mut all = vec![name.clone()];
            all.extend(acceptable.iter().cloned());
            (json!(all), None)
        }
        Expected::Nothing { .. } => (Value::Null, None),
        Expected::NotSkill(name) => (Value::Null, Some(name)),
    };
    let ranked: Vec<Value> = outcome
        .ranked
        .iter()
        .take(5)
        .map(|scored| json!({"skill": scored.skill, "score": rounded(scored.score)}))
        .collect();
    let mut line = json!({
        "type": "case",
        "id": outcome.case.id,
        // Ids are unique per file: a case is known by both.
        "file": outcome.case.file,
        "query": outcome.case.query,
        "expected": expected,
        "chosen": outcome.chosen,
        "ranked": ranked,
        "pass": outcome.pass,
        "runs": outcome.runs,
    });
    if let Some(avoid) = avoid {
        line["not"] = json!(avoid);
    }
    line
}

fn summary(report: &Report, gates: &Gates, lints: &[Diagnostic], sources: &Sources) -> Value {
    let summary = &report.summary;
    json!({
        "type": "summary",
        "cases": summary.cases,
        "passed": summary.passed,
        "accuracy": rounded(summary.accuracy),
        "recall": rounded(summary.recall),
        "misroute": rounded(summary.misroute),
        "abstention": rounded(summary.abstention),
        "top1": rounded(summary.top1),
        "top3": rounded(summary.top3),
        "abstained_ranked_first": summary.abstained_ranked_first,
        "threshold": summary.threshold.map(rounded),
        "skills": summary.skills.iter().map(|s| json!({
            "skill": s.skill,
            "cases": s.cases,
            "found": s.found,
            "taken": s.taken,
            "top1": s.top1,
            "top3": s.top3,
            "precision": rounded(s.precision),
            "recall": rounded(s.recall),
            "f1": rounded(s.f1),
        })).collect::<Vec<_>>(),
        "attractors": summary.attractors.iter().map(|a| json!({
            "expected": a.expected,
            "chosen": a.chosen,
            "count": a.count,
        })).collect::<Vec<_>>(),
        "gates": {
            "recall": gates.recall,
            "accuracy": gates.accuracy,
            "misroute": gates.misroute,
            "per_skill": gates.per_skill,
        },
        "failures": summary.failures.iter().map(|f| json!({
            "skill": f.skill,
            "gate": f.gate,
            "value": rounded(f.value),
            "bound": f.bound,
        })).collect::<Vec<_>>(),
        "warnings": lints.iter().map(|lint| {
            serde_json::from_str::<Value>(&render::json(lint, sources)).unwrap_or(Value::Null)
        }).collect::<Vec<_>>(),
        "pass": summary.failures.is_empty(),
    })
}
