//! `pack`: each skill as a zip bundle for hosted APIs (`NAME.zip`: one
//! top-level folder, `SKILL.md` at its root, execute bits kept, entries
//! sorted, timestamps fixed), made by [`skills_compiler::ops::export`].
//! Every bundle is made and checked against the upload limits first
//! (S523); only then is any written.

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::ops;

use crate::failure::Failure;
use crate::output::{outln, shown};
use crate::select::{Selection, compiled};

#[derive(Debug, clap::Args)]
pub struct PackArgs {
    /// The skills to pack (default: every skill of the selection).
    names: Vec<String>,
    /// Where to write `NAME.zip` (default: the current directory).
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Skills roots or skill directories to pack from (default: the
    /// workspace's packages), as `list` takes them.
    #[arg(long = "from")]
    from: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
}

pub fn run(args: PackArgs) -> Result<(), Failure> {
    let set = compiled(&args.selection, &args.from)?;
    let chosen = ops::targets::named_in(&set, &args.names)?;
    let (bundles, refused) = ops::export::pack(&chosen, &args.out)?;
    for diagnostic in &refused {
        anstream::eprintln!("{}", render::short(diagnostic));
    }
    if !refused.is_empty() {
        return Err(Failure::Invalid);
    }
    ops::export::write(&bundles, &args.out)?;
    for bundle in &bundles {
        let path = shown(&bundle.path.display().to_string()).into_owned();
        outln!("{path}  {} bytes", bundle.bytes.len());
    }
    Ok(())
}
