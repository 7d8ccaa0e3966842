//! The budget reports as JSON (`cargo skills budget --format json`): one
//! document for every front end that shows them.

use serde_json::{Value, json};

use super::listing::entry_text;
use super::model::{Budget, Entry, Fate, Line, Report};

/// Counts the tokens of a text exactly (OpenAI's o200k, when a front end
/// has it).
pub type Counter = fn(&str) -> usize;

/// A share to one decimal, half away from zero: tables print it with
/// `{:.1}` and the JSON as a number, and both say the same (`{:.1}` alone
/// rounds 4.35 to 4.3 where the JSON said 4.4).
pub(crate) fn round_tenth(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// Exact tokens of a line: yours only, since the host's own are counted
/// by length, not text.
pub(crate) fn exact_tokens(
    counter: Option<Counter>,
    budget: Budget,
    entries: &[Entry<'_>],
    line: &Line,
) -> Option<usize> {
    let count = counter?;
    let entry = entries.get(line.entry?)?;
    Some(count(&entry_text(budget, entry)))
}

/// One decimal, as JSON prints it.
fn tenth(value: f64) -> Value {
    if value.is_finite() {
        json!(round_tenth(value))
    } else {
        Value::Null
    }
}

/// Every report, with the number of skills and the context window.
pub fn document(
    reports: &[Report],
    entries: &[Entry<'_>],
    context: Option<u64>,
    counter: Option<Counter>,
) -> Value {
    let reports: Vec<Value> = reports
        .iter()
        .map(|report| one(report, entries, counter))
        .collect();
    json!({
        "skills": entries.len(),
        "context": context,
        "reports": reports,
    })
}

fn one(report: &Report, entries: &[Entry<'_>], counter: Option<Counter>) -> Value {
    let skills: Vec<Value> = report
        .lines
        .iter()
        .map(|line| {
            let mut value = json!({
                "name": line.name,
                "cost": line.cost,
                "share_percent": tenth(report.share(line)),
                "fate": line.fate.as_str(),
            });
            if let Fate::Shortened { shown } = line.fate {
                value["shown_chars"] = json!(shown);
            }
            if line.entry.is_none() {
                value["builtin"] = json!(true);
            }
            if counter.is_some() {
                value["o200k_tokens"] = json!(exact_tokens(counter, report.budget, entries, line));
            }
            value
        })
        .collect();
    json!({
        "budget": report.budget.name(),
        "limit": {
            "amount": report.limit.amount,
            "unit": report.limit.unit.as_str(),
            "basis": report.limit.basis,
        },
        "used": report.used,
        "builtin_cost": report.builtin_cost(),
        "usage_percent": tenth(report.usage()),
        "over": report.is_over(),
        "culprit": report.culprit.and_then(|i| report.lines.get(i)).map(|line| line.name.clone()),
        "counts": {
            "full": report.count(|f| f == Fate::Full),
            "shortened": report.count(|f| matches!(f, Fate::Shortened { .. })),
            "name_only": report.count(|f| f == Fate::NameOnly),
            "omitted": report.count(|f| f == Fate::Omitted),
            "over_target": report.count(|f| f == Fate::OverTarget),
            "hidden": report.count(|f| f == Fate::Hidden),
        },
        "skills": skills,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table and the JSON round a share the same way (issue 24, item 7).
    #[test]
    fn the_table_and_the_json_round_a_share_alike() {
        for share in [4.35, 4.349, 0.05, 12.25, 99.95] {
            let table = format!("{:.1}", round_tenth(share));
            let json = tenth(share).to_string();
            assert_eq!(
                table.parse::<f64>().unwrap(),
                json.parse::<f64>().unwrap(),
                "{share}"
            );
        }
    }
}
