//! `pack`: each skill as a zip bundle for hosted APIs (`NAME.zip`: one
//! top-level folder, `SKILL.md` at its root, execute bits kept, entries
//! sorted, timestamps fixed). Every bundle is made and checked against the
//! upload limits first (S523); only then is any written.

use std::path::PathBuf;

use skills_compiler::diagnostics::render;

use crate::failure::Failure;
use crate::output::{outln, shown};
use crate::select::Selection;

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
    let set = super::inspect::compiled(&args.selection, &args.from)?;
    let chosen = skills_compiler::ops::targets::named_in(&set, &args.names)?;
    let mut bundles = Vec::with_capacity(chosen.len());
    let mut refused = false;
    for skill in chosen {
        let files = skills_compiler::lower::read_files(skill)
            .map_err(|diagnostic| Failure::Io(render::short(&diagnostic)))?;
        // Compiled skills hold only checked paths: this refuses nothing.
        let zip = skills_compiler::lower::skill(skill, files.into())
            .zip()
            .map_err(|error| Failure::Io(error.to_string()))?;
        if let Some(diagnostic) = skills_compiler::bundle::check(skill, zip.len()) {
            anstream::eprintln!("{}", render::short(&diagnostic));
            refused = true;
        }
        bundles.push((skill.name().to_owned(), zip));
    }
    if refused {
        return Err(Failure::Invalid);
    }
    for (name, zip) in &bundles {
        let path = args.out.join(format!("{name}.zip"));
        std::fs::create_dir_all(&args.out)
            .and_then(|()| skills_compiler::ops::files::write_whole(&path, zip))
            .map_err(|error| Failure::Io(format!("cannot write {}: {error}", path.display())))?;
        outln!(
            "{}  {} bytes",
            shown(&path.display().to_string()),
            zip.len()
        );
    }
    Ok(())
}
