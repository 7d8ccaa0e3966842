//! `cargo skills budget`: the catalog against each host's context budget.
//!
//! [`skills_compiler::ops::budget`] measures; this prints the tables. Exit
//! 1 when a configured budget (the package's `budget` table, or `--host`,
//! `--chars`, `--tokens`) is exceeded.

use std::path::PathBuf;

use clap::ValueEnum;
use skills_compiler::Overrides;
use skills_compiler::budget::json::{self, Counter, exact_tokens, round_tenth};
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
        Format::Json => {
            let document = json::document(&reports, &entries, catalog.config.context, counter);
            outln!(
                "{}",
                serde_json::to_string_pretty(&document).unwrap_or_default()
            );
        }
    }
    if catalog.is_over(&reports) {
        return Err(Failure::Invalid);
    }
    Ok(())
}

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
            let exact = match (counter, exact_tokens(counter, report.budget, entries, line)) {
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
