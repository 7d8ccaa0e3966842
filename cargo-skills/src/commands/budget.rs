//! `cargo skills budget`: the catalog against each host's context budget.
//!
//! [`skills_compiler::ops::budget`] measures; this prints the tables. Exit
//! 1 when a configured budget (the package's `budget` table, or `--host`,
//! `--chars`, `--tokens`) is exceeded.

use std::path::PathBuf;

use clap::ValueEnum;
use skills_compiler::Overrides;
use skills_compiler::diagnostics::render;
use skills_compiler::ops;
use skills_compiler::ops::budget::json::{self, Counter};
use skills_compiler::ops::budget::{self, Host};

use crate::failure::Failure;
use crate::output::{out, outln};
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
        Format::Table => out!("{}", budget::table::text(&reports, &entries, counter)),
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
