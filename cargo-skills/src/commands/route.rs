//! `cargo skills route QUERY`: how the offline router ranks the catalogue
//! for one query, and what it chooses, to debug a trigger case.

use std::path::PathBuf;

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
    host: Option<skills_compiler::budget::Host>,
    /// How many of the ranked skills to show.
    #[arg(long, default_value_t = 10)]
    top: usize,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = crate::select::catalogue_of(&args.selection, &args.paths, args.recursive, args.host)?;
    let ranked = set.catalogue.router().route(&args.query);
    for scored in ranked.top(args.top) {
        outln!("{:.4}  {}", scored.score, shown(&scored.skill));
    }
    match ranked.chosen() {
        Some(skill) if ranked.reason() == Some(skills_core::route::Reason::Named) => {
            outln!("chosen: {} (the query names it)", shown(skill))
        }
        Some(skill) => outln!("chosen: {}", shown(skill)),
        None => outln!("chosen: none (no skill scores over the threshold)"),
    }
    Ok(())
}
