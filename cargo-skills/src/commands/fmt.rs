//! `cargo skills fmt`: one canonical frontmatter style
//! ([`skills_compiler::ops::fmt`]); `--check` for CI prints the diff and exits 1.

use std::path::PathBuf;

use skills_compiler::Overrides;
use skills_compiler::diagnostics::render;
use skills_compiler::ops::{self, Guards, fmt::Left};

use crate::failure::Failure;
use crate::output::outln;
use crate::select::{Selection, refuse_outside_workspace, targets};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Write nothing; print a diff of each file that is not formatted and exit 1.
    #[arg(long)]
    check: bool,
    /// Format signed skills (`skill.oms.sig`) too: their signatures stop
    /// verifying until they are signed again.
    #[arg(long)]
    allow_unsigned_edit: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let targets = targets(&args.selection, &args.paths, &Overrides::default())?;
    if !args.check {
        refuse_outside_workspace(&targets, "fmt")?;
    }
    let formatting = ops::fmt::plan(&targets);
    for left in &formatting.left {
        match left {
            Left::Skipped { path, reason } => {
                anstream::eprintln!("note: {path} left as it is: {reason}");
            }
            Left::Unchecked { path, reason } => {
                anstream::eprintln!("error: {path} could not be checked: {reason}");
            }
            Left::Unreadable(problem) => {
                anstream::eprintln!("{}", render::short(problem));
                anstream::eprintln!(
                    "error: {} could not be checked: it could not be read",
                    problem.file
                );
            }
        }
    }
    let changes = &formatting.plan.changes;
    if args.check {
        for change in changes {
            outln!("{}", ops::diff(change));
        }
    } else {
        let guards = Guards {
            clean_tree: false,
            allow_unsigned_edit: args.allow_unsigned_edit,
        };
        let applied = crate::output::applied(ops::apply(&formatting.plan, guards)?);
        for index in applied.written {
            anstream::eprintln!("Formatted {}", changes[index].path);
        }
    }
    if args.check && !changes.is_empty() {
        let n = changes.len();
        anstream::eprintln!(
            "{n} file{} not formatted: run `cargo skills fmt`",
            if n == 1 { " is" } else { "s are" }
        );
    }
    let unchecked: Vec<&str> = formatting.unchecked().collect();
    if !unchecked.is_empty() {
        let n = unchecked.len();
        anstream::eprintln!(
            "{n} file{} could not be checked: {}",
            if n == 1 { "" } else { "s" },
            unchecked.join(", ")
        );
    }
    if (args.check && !changes.is_empty()) || !unchecked.is_empty() {
        return Err(Failure::Invalid);
    }
    Ok(())
}
