//! What `cargo skills route QUERY` prints: how the offline router ranked
//! the catalogue for one query and what it chose, and with `explain`, why
//! (each top skill's matched words, the words no skill has, the cut).

use serde_json::{Value, json};
use skills_core::printable;
use skills_core::route::{Explained, Reason};

/// Lines for a person: the `top` ranked skills, then the choice.
pub fn text(explained: &Explained, explain: bool, top: usize) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    let ranked = &explained.ranked;
    for (scored, why) in ranked.top(top).iter().zip(&explained.top) {
        line(format!("{:.4}  {}", scored.score, printable(&scored.skill)));
        if !explain {
            continue;
        }
        line(format!(
            "        coverage {:.3}, evidence {:.3}",
            why.coverage, why.evidence
        ));
        for matched in &why.matched {
            line(format!(
                "        {:<20} {:<12} {:.3}",
                printable(&matched.word),
                matched.field.as_str(),
                matched.share
            ));
        }
        if why.more > 0 {
            line(format!("        and {} more", why.more));
        }
    }
    if explain {
        line(unknown_words(explained));
        line(match explained.margin() {
            Some(margin) => format!(
                "cut {:.3}: the best is {:.3} {} it",
                explained.threshold,
                margin.abs(),
                if margin >= 0.0 { "above" } else { "below" }
            ),
            None => format!(
                "cut {:.3}: no skill shares a word with the query",
                explained.threshold
            ),
        });
    }
    line(match (ranked.chosen(), ranked.reason()) {
        (Some(skill), Some(Reason::Named)) => {
            format!("chosen: {} (the query names it)", printable(skill))
        }
        (Some(skill), Some(Reason::Invoked)) => {
            format!("chosen: {} (the query invokes it)", printable(skill))
        }
        (Some(skill), _) => format!("chosen: {}", printable(skill)),
        (None, _) => format!(
            "chosen: none (no skill's confidence reaches the cut, {:.3})",
            explained.threshold
        ),
    });
    out
}

fn unknown_words(explained: &Explained) -> String {
    if explained.unknown.is_empty() {
        return "words no skill has: none".to_owned();
    }
    let words: Vec<String> = explained
        .unknown
        .iter()
        .map(|w| printable(w).into_owned())
        .collect();
    let more = explained.unknown_count - explained.unknown.len();
    let more = if more > 0 {
        format!(", and {more} more")
    } else {
        String::new()
    };
    format!(
        "words no skill has (they count neither way): {}{more}",
        words.join(", ")
    )
}

/// One JSON object: the choice, its reason, the cut and the top skills
/// (with `explain`, their matched words, the unknown words and the margin).
/// Scores are rounded to four places, so that the output is stable.
pub fn json(explained: &Explained, explain: bool) -> Value {
    let ranked = &explained.ranked;
    let reason = ranked.reason().map(|reason| match reason {
        Reason::Confident => "confident",
        Reason::Named => "named",
        Reason::Invoked => "invoked",
    });
    let top: Vec<Value> = explained
        .top
        .iter()
        .map(|why| {
            let mut entry = json!({"skill": why.skill, "score": rounded(why.score)});
            if explain {
                entry["coverage"] = json!(rounded(why.coverage));
                entry["evidence"] = json!(rounded(why.evidence));
                entry["matched"] = why
                    .matched
                    .iter()
                    .map(|m| json!({"word": m.word, "field": m.field.as_str(), "share": rounded(m.share)}))
                    .collect();
                entry["more"] = json!(why.more);
            }
            entry
        })
        .collect();
    let mut out = json!({
        "chosen": ranked.chosen(),
        "reason": reason,
        "threshold": rounded(explained.threshold),
        "ranked": top,
    });
    if explain {
        out["unknown"] = json!(explained.unknown);
        out["unknown_count"] = json!(explained.unknown_count);
        out["margin"] = json!(explained.margin().map(rounded));
    }
    out
}

fn rounded(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}
