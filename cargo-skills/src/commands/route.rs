//! `cargo skills route QUERY`: how the offline router ranks the catalogue
//! for one query, and what it chooses, to debug a trigger case; with
//! `--explain`, why: each top skill's matched words (field and share),
//! the words no skill has, the confidence and its distance from the cut.

use std::path::PathBuf;

use skills_compiler::ops::trigger::explain;

use crate::failure::Failure;
use crate::output::{out, outln};
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
        Format::Json => outln!("{}", explain::json(&explained, args.explain)),
        Format::Human => out!("{}", explain::text(&explained, args.explain, args.top)),
    }
    Ok(())
}
