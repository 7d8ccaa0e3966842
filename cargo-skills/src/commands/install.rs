//! `install`: a package's skills written into an agent's folder
//! ([`skills_compiler::ops::install`]), one line each and a tally.

use std::path::PathBuf;

use skills_compiler::ops;
use skills_core::install::{Install, Installed, State};

use crate::failure::Failure;
use crate::output::{outln, shown};
use crate::select::{Selection, compiled};

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// The skills to install (default: every skill of the selection).
    names: Vec<String>,
    /// Where: `claude`, `codex`, `agents` (the host's conventional folder),
    /// or a folder.
    #[arg(long, default_value = "agents")]
    to: String,
    /// The host's folder for every project, in the home directory, instead
    /// of the one in the current directory.
    #[arg(long)]
    global: bool,
    /// Skills roots or skill directories to install from (default: the
    /// workspace's packages), as `list` takes them.
    #[arg(long = "from")]
    from: Vec<PathBuf>,
    /// Also write over skills edited since they were installed, and over
    /// folders that are not ours.
    #[arg(long)]
    force: bool,
    /// Print what each skill's folder holds and what would be done; write
    /// nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    selection: Selection,
}

pub fn run(args: InstallArgs) -> Result<(), Failure> {
    without_huge_pages();
    let folder = ops::install::folder(&args.to, args.global)?;
    let set = compiled(&args.selection, &args.from)?;
    let chosen = ops::targets::named_in(&set, &args.names)?;
    let how = Install {
        force: args.force,
        dry_run: args.dry_run,
    };
    let results = ops::install::install(&chosen, &folder, how);
    let (installed, failed): (Vec<_>, Vec<_>) = results.into_iter().partition(Result::is_ok);
    let installed: Vec<Installed> = installed.into_iter().flatten().collect();
    // Every skill is said, and the summary counts them all: one that could
    // not be installed is never left out of the tally.
    for why in failed.iter().filter_map(|r| r.as_ref().err()) {
        anstream::eprintln!("error: {}", shown(why));
    }
    report(&installed, failed.len(), &folder.shown, how);
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// Turns transparent huge pages off for the rest of this process. An
/// install touches each byte it reads once, on every core; the allocator
/// asks for huge pages (which pays off for `check` over thousands of
/// skills), and the kernel then zeroes 2 MiB for each fresh region a
/// thread touches: a third of an install's time (BENCHMARKS.md). Where the
/// call is refused, the install is only slower.
fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl` with `PR_SET_THP_DISABLE` reads no pointer; it sets a
    // flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// One line per skill: its name, what its folder held, what was done;
/// then the tally, the skills that failed (said above) counted in it.
fn report(installed: &[Installed], failed: usize, folder: &str, how: Install) {
    let width = installed.iter().map(|i| i.skill.len()).max().unwrap_or(0);
    for item in installed {
        let done = match (item.written, how.dry_run, item.state) {
            (true, false, State::Missing) => "installed",
            (true, false, _) => "updated",
            (true, true, State::Missing) => "would install",
            (true, true, _) => "would update",
            (false, _, State::UpToDate) => "left as it is",
            (false, _, _) => "left alone (--force writes over it)",
        };
        outln!(
            "{:<width$}  {:<10}  {done}",
            shown(&item.skill),
            item.state.as_str()
        );
    }
    let written = installed.iter().filter(|i| i.written).count();
    outln!(
        "{}",
        ops::install::tally(written, installed.len() + failed, failed, folder, how)
    );
}
