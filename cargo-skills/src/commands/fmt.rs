//! `cargo skills fmt`: one canonical frontmatter style
//! (`skills_compiler::format`); `--check` for CI prints the diff and exits 1.

use std::path::PathBuf;

use skills_compiler::Overrides;
use skills_compiler::diagnostics::render;
use skills_compiler::write::fix::Change;
use skills_compiler::write::format::{self, Outcome};

use crate::commands::fix::{diff, refuse_signed, write_all};
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
    let mut changes = Vec::new();
    let mut unchecked = Vec::new();
    for target in &targets {
        let mut problems = Vec::new();
        for files in target.files(&mut problems) {
            match format::skill(&files, &target.config) {
                Outcome::Unchanged => {}
                Outcome::Skipped(reason) => {
                    anstream::eprintln!("note: {} left as it is: {reason}", files.path);
                }
                Outcome::Unchecked(reason) => {
                    anstream::eprintln!("error: {} could not be checked: {reason}", files.path);
                    unchecked.push(files.path.clone());
                }
                Outcome::Changed(after) => changes.push(Change {
                    before: String::from_utf8_lossy(&files.bytes).into_owned(),
                    path: files.path,
                    after,
                }),
            }
        }
        // What discovery could not read is not formatted either.
        for problem in problems.iter().filter(|d| d.is_error()) {
            anstream::eprintln!("{}", render::short(problem));
            anstream::eprintln!(
                "error: {} could not be checked: it could not be read",
                problem.file
            );
            unchecked.push(problem.file.clone());
        }
    }
    if args.check {
        for change in &changes {
            outln!("{}", diff(change));
        }
    } else {
        refuse_signed(
            changes.iter().map(|c| c.path.as_str()),
            args.allow_unsigned_edit,
        )?;
        for path in write_all(&changes)? {
            anstream::eprintln!("Formatted {path}");
        }
    }
    if args.check && !changes.is_empty() {
        let n = changes.len();
        anstream::eprintln!(
            "{n} file{} not formatted: run `cargo skills fmt`",
            if n == 1 { " is" } else { "s are" }
        );
    }
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
