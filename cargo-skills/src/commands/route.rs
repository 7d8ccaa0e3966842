//! `cargo skills route QUERY`: how the offline router ranks the catalogue
//! for one query, and what it chooses, to debug a trigger case; with
//! `--explain`, why: each top skill's matched words (field and share),
//! the words no skill has, the confidence and its distance from the cut.

use std::path::PathBuf;

use serde_json::json;
use skills_core::route::{Explained, Reason};

use crate::failure::Failure;
use crate::output::{outln, shown};
use crate::select::Selection;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// What a user says.
    query: String,
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Every skill below each PATH, at any depth.
    #[arg(long, requires = "paths")]
    recursive: bool,
    /// The host whose listing the router reads (default: the package's, else claude-code).
    #[arg(long)]
    host: Option<skills_compiler::ops::budget::Host>,
    /// How many of the ranked skills to show.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// The least confidence, 0 to 1, the router chooses at (default: the
    /// package's `test.threshold`, else 0.25).
    #[arg(long, value_name = "CUT", value_parser = crate::router::parse_threshold)]
    threshold: Option<f64>,
    /// Why: each top skill's matched words, the words no skill has, the cut.
    #[arg(long)]
    explain: bool,
    /// How to report.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    message_format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for a person.
    Human,
    /// One JSON object (stdout).
    Json,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = crate::select::catalogue_of(&args.selection, &args.paths, args.recursive, args.host)?;
    let explained = set.router(args.threshold).explain(&args.query, args.top);
    match args.message_format {
        Format::Json => outln!("{}", as_json(&explained, args.explain)),
        Format::Human => print_human(&explained, args.explain, args.top),
    }
    Ok(())
}

fn print_human(explained: &Explained, explain: bool, top: usize) {
    let ranked = &explained.ranked;
    for (scored, why) in ranked.top(top).iter().zip(&explained.top) {
        outln!("{:.4}  {}", scored.score, shown(&scored.skill));
        if explain {
            outln!(
                "        coverage {:.3}, evidence {:.3}",
                why.coverage,
                why.evidence
            );
            for matched in &why.matched {
                outln!(
                    "        {:<20} {:<12} {:.3}",
                    shown(&matched.word),
                    matched.field.as_str(),
                    matched.share
                );
            }
            if why.more > 0 {
                outln!("        and {} more", why.more);
            }
        }
    }
    if explain {
        if explained.unknown.is_empty() {
            outln!("words no skill has: none");
        } else {
            let more = explained.unknown_count - explained.unknown.len();
            outln!(
                "words no skill has (they count neither way): {}{}",
                explained
                    .unknown
                    .iter()
                    .map(|w| shown(w).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if more > 0 {
                    format!(", and {more} more")
                } else {
                    String::new()
                }
            );
        }
        match explained.margin() {
            Some(margin) => outln!(
                "cut {:.3}: the best is {:.3} {} it",
                explained.threshold,
                margin.abs(),
                if margin >= 0.0 { "above" } else { "below" }
            ),
            None => outln!(
                "cut {:.3}: no skill shares a word with the query",
                explained.threshold
            ),
        }
    }
    match (ranked.chosen(), ranked.reason()) {
        (Some(skill), Some(Reason::Named)) => {
            outln!("chosen: {} (the query names it)", shown(skill))
        }
        (Some(skill), Some(Reason::Invoked)) => {
            outln!("chosen: {} (the query invokes it)", shown(skill))
        }
        (Some(skill), _) => outln!("chosen: {}", shown(skill)),
        (None, _) => outln!(
            "chosen: none (no skill's confidence reaches the cut, {:.3})",
            explained.threshold
        ),
    }
}

fn rounded(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}

fn as_json(explained: &Explained, explain: bool) -> serde_json::Value {
    let ranked = &explained.ranked;
    let reason = ranked.reason().map(|reason| match reason {
        Reason::Confident => "confident",
        Reason::Named => "named",
        Reason::Invoked => "invoked",
    });
    let top: Vec<serde_json::Value> = explained
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
