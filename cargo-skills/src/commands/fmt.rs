//! `cargo skills fmt`: one canonical frontmatter style
//! (`skills_compiler::format`); `--check` for CI prints the diff and exits 1.

use std::path::PathBuf;

use skills_compiler::Overrides;
use skills_compiler::write::format::{self, Outcome};

use crate::Failure;
use crate::commands::fix::diff;
use crate::output::outln;
use crate::select::{Selection, targets};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Write nothing; print a diff of each file that is not formatted and exit 1.
    #[arg(long)]
    check: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let mut unformatted = 0usize;
    for target in targets(&args.selection, &args.paths, &Overrides::default())? {
        let mut problems = Vec::new();
        for files in target.files(&mut problems) {
            match format::skill(&files, &target.config) {
                Outcome::Unchanged => {}
                Outcome::Skipped(reason) => {
                    anstream::eprintln!("note: {} left as it is: {reason}", files.path);
                }
                Outcome::Changed(after) => {
                    unformatted += 1;
                    let before = String::from_utf8_lossy(&files.bytes).into_owned();
                    if args.check {
                        outln!(
                            "{}",
                            diff(&skills_compiler::write::fix::Change {
                                path: files.path.clone(),
                                before,
                                after,
                            })
                        );
                    } else {
                        if super::fix::write_back(&files.path, &before, &after)? {
                            anstream::eprintln!("Formatted {}", files.path);
                        }
                    }
                }
            }
        }
    }
    if args.check && unformatted > 0 {
        anstream::eprintln!(
            "{unformatted} file{} not formatted: run `cargo skills fmt`",
            if unformatted == 1 { " is" } else { "s are" }
        );
        return Err(Failure::Invalid);
    }
    Ok(())
}
