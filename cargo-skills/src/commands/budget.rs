//! `cargo skills budget`: the catalog against each host's context budget.
//!
//! [`skills_compiler::ops::budget`] measures; this prints the tables. Exit
//! 1 when a configured budget (the package's `budget` table, or `--host`,
//! `--chars`, `--tokens`) is exceeded.

use std::path::PathBuf;

use clap::ValueEnum;
use serde_json::{Value, json};
use skills_compiler::Overrides;
use skills_compiler::budget::{self, Entry, Fate, Host, Line, Report};
use skills_compiler::diagnostics::render;
use skills_compiler::ops;

use crate::failure::Failure;
use crate::output::outln;
use crate::select::{Selection, targets};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// A host's formula: claude-code, codex, zed, agent-skills, or all
    /// (repeatable; default: the package's `budget.hosts`, else all).
    #[arg(long = "host", value_name = "HOST", value_parser = parse_hosts)]
    hosts: Vec<Vec<Host>>,
    /// The model's context window in tokens (default: the package's
    /// `budget.context`, else each host's fallback).
    #[arg(long, value_name = "TOKENS")]
    context: Option<u64>,
    /// Also measure this project's catalog against so many characters.
    #[arg(long, value_name = "N")]
    chars: Option<usize>,
    /// Also measure this project's catalog against so many estimated tokens.
    #[arg(long, value_name = "N")]
    tokens: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Count each entry's tokens with OpenAI's o200k tokenizer (the
    /// `exact-tokens` feature of cargo-skills).
    #[arg(long)]
    exact_tokens: bool,
    /// Leave out the skills each host ships and lists before yours (Codex's
    /// system skills, Zed's `create-skill`, Claude Code's bundled skills).
    #[arg(long)]
    no_builtins: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

fn parse_hosts(value: &str) -> Result<Vec<Host>, String> {
    if value == "all" {
        return Ok(Host::ALL.to_vec());
    }
    value.parse::<Host>().map(|host| vec![host])
}

pub fn run(args: Args) -> Result<(), Failure> {
    let counter = token_counter(args.exact_tokens)?;
    let targets = targets(&args.selection, &args.paths, &Overrides::default())?;
    let request = ops::budget::Request {
        hosts: args.hosts.concat(),
        context: args.context,
        chars: args.chars,
        tokens: args.tokens,
        no_builtins: args.no_builtins,
    };
    let catalog = ops::budget::catalog(targets, &request);
    for diagnostic in &catalog.errors {
        anstream::eprintln!("{}", render::short(diagnostic));
    }
    if !catalog.errors.is_empty() {
        anstream::eprintln!(
            "note: {} error(s) above; the skills they concern are not in the report (`cargo skills check` lists them)",
            catalog.errors.len()
        );
    }
    let entries = catalog.entries();
    let reports = catalog.reports(&entries);
    match args.format {
        Format::Table => print_tables(&reports, &entries, counter),
        Format::Json => print_json(&reports, &entries, catalog.config.context, counter),
    }
    if catalog.is_over(&reports) {
        return Err(Failure::Invalid);
    }
    Ok(())
}

/// Counts the tokens of a text exactly, when asked and built in.
type Counter = fn(&str) -> usize;

#[cfg(feature = "exact-tokens")]
fn token_counter(asked: bool) -> Result<Option<Counter>, Failure> {
    fn o200k(text: &str) -> usize {
        bpe_openai::o200k_base().count(text)
    }
    Ok(asked.then_some(o200k as Counter))
}

#[cfg(not(feature = "exact-tokens"))]
fn token_counter(asked: bool) -> Result<Option<Counter>, Failure> {
    if asked {
        return Err(Failure::Usage(
            "`--exact-tokens` needs cargo-skills built with the `exact-tokens` feature: \
             cargo install cargo-skills --features exact-tokens"
                .to_owned(),
        ));
    }
    Ok(None)
}

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

/// Exact tokens of a line: yours only, since the host's own are counted by
/// length, not text.
fn exact_tokens(
    counter: Option<Counter>,
    report: &Report,
    entries: &[Entry<'_>],
    line: &Line,
) -> Option<usize> {
    let count = counter?;
    let entry = &entries[line.entry?];
    Some(count(&budget::entry_text(report.budget, entry)))
}

fn print_tables(reports: &[Report], entries: &[Entry<'_>], counter: Option<Counter>) {
    let width = reports
        .iter()
        .flat_map(|report| &report.lines)
        .map(|line| line.name.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    for (i, report) in reports.iter().enumerate() {
        if i > 0 {
            outln!("");
        }
        outln!(
            "{}: {} of {} {} ({:.1}%); budget: {}",
            report.budget.name(),
            budget::thousands(report.used),
            budget::thousands(report.limit.amount),
            report.limit.unit.as_str(),
            round_tenth(report.usage()),
            report.limit.basis
        );
        outln!("  {}", report.summary());
        let builtins = report.builtin_lines().count();
        if builtins > 0 {
            outln!(
                "  before yours: {builtins} {} of the host's own, {} {}",
                if builtins == 1 { "skill" } else { "skills" },
                budget::thousands(report.builtin_cost()),
                report.limit.unit.as_str()
            );
        }
        let exact = if counter.is_some() { "  O200K" } else { "" };
        outln!(
            "  {:width$}  {:>7}  {:>6}{exact}  FATE",
            "SKILL",
            "COST",
            "SHARE"
        );
        for line in &report.lines {
            let exact = match (counter, exact_tokens(counter, report, entries, line)) {
                (Some(_), Some(tokens)) => format!("  {tokens:>5}"),
                (Some(_), None) => format!("  {:>5}", "-"),
                (None, _) => String::new(),
            };
            outln!(
                "  {:width$}  {:>7}  {:>5.1}%{exact}  {}",
                line.name,
                budget::thousands(line.cost),
                round_tenth(report.share(line)),
                line_fate(line)
            );
        }
    }
}

/// A share to one decimal, half away from zero: the table prints it with
/// `{:.1}` and the JSON as a number, and both say the same (`{:.1}` alone
/// rounds 4.35 to 4.3 where the JSON said 4.4).
fn round_tenth(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// One decimal, as JSON prints it.
fn tenth(value: f64) -> Value {
    if value.is_finite() {
        json!(round_tenth(value))
    } else {
        Value::Null
    }
}

fn print_json(
    reports: &[Report],
    entries: &[Entry<'_>],
    context: Option<u64>,
    counter: Option<Counter>,
) {
    let reports: Vec<Value> = reports
        .iter()
        .map(|report| {
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
                        value["o200k_tokens"] = json!(exact_tokens(counter, report, entries, line));
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
                "culprit": report.culprit.map(|i| report.lines[i].name.clone()),
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
        })
        .collect();
    outln!(
        "{}",
        serde_json::to_string_pretty(&json!({
            "skills": entries.len(),
            "context": context,
            "reports": reports,
        }))
        .unwrap_or_default()
    );
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
