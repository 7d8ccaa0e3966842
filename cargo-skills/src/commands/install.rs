//! `install`: a package's skills written into an agent's folder, each as
//! compiled (its directory, bytes and execute bits exact), with a record of
//! what was installed, so that a second install knows exactly what it finds
//! (`skills_core::install`).

use std::path::PathBuf;

use skills_core::install::{HOSTS, Install, Installed, State};

use crate::failure::Failure;
use crate::output::{outln, shown};
use crate::select::Selection;

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
    let (folder, shown_folder) = folder(&args)?;
    let set = super::inspect::compiled(&args.selection, &args.from)?;
    let chosen = skills_compiler::ops::targets::named_in(&set, &args.names)?;
    let how = Install {
        force: args.force,
        dry_run: args.dry_run,
    };
    // Each skill is read, hashed and written on a core of its own, and its
    // bytes dropped before the next: that is most of an install, and the
    // memory a skill took is what the next one reuses (BENCHMARKS.md).
    // Each skill's install is whole or not done; one that cannot be done
    // stops no other, and every one is said.
    let results: Vec<Result<Installed, String>> = {
        use rayon::prelude::*;
        chosen
            .par_iter()
            .map(|skill| {
                install_one(skill, &folder, how).map_err(|why| {
                    format!(
                        "cannot install `{}` into {shown_folder}: {why}",
                        skill.name()
                    )
                })
            })
            .collect()
    };
    let (installed, failed): (Vec<_>, Vec<_>) = results.into_iter().partition(Result::is_ok);
    let installed: Vec<Installed> = installed.into_iter().flatten().collect();
    // Every skill is said, and the summary counts them all: one that could
    // not be installed is never left out of the tally.
    for why in failed.iter().filter_map(|r| r.as_ref().err()) {
        anstream::eprintln!("error: {}", shown(why));
    }
    report(&installed, failed.len(), &shown_folder, how);
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// One skill read from its directory, lowered and written into `folder`.
fn install_one(
    skill: &skills_compiler::ir::Skill,
    folder: &std::path::Path,
    how: Install,
) -> Result<Installed, String> {
    let files = skills_compiler::lower::read_files(skill)
        .map_err(|diagnostic| skills_compiler::diagnostics::render::short(&diagnostic))?;
    let lowered = skills_compiler::lower::skill(skill, files.into());
    // The record's digests, made on every core: one skill's fonts can be
    // most of a set's bytes.
    {
        use rayon::prelude::*;
        lowered.files().par_iter().for_each(|file| {
            file.sha256_hex();
        });
    }
    skills_core::install::install(folder, [&lowered], how)
        .map_err(|error| error.to_string())?
        .pop()
        .ok_or_else(|| "it was not written".to_owned())
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

/// The folder to install into, and how to print it (never an absolute path
/// the user did not write).
fn folder(args: &InstallArgs) -> Result<(PathBuf, String), Failure> {
    let Some(host) = HOSTS.iter().find(|host| host.name == args.to) else {
        if args.global {
            return Err(Failure::Usage(format!(
                "--global names a host's folder in the home directory; `{}` is a folder, not one of: {}",
                args.to,
                hosts()
            )));
        }
        return Ok((PathBuf::from(&args.to), shown_resolved(&args.to)));
    };
    if !args.global {
        // A project's folder is never reached through a symlink that a
        // commit could have planted.
        let folder = skills_core::install::project_folder(std::path::Path::new("."), host.project)
            .map_err(|e| Failure::Io(format!("cannot install into {}: {e}", host.project)))?;
        let folder = folder
            .strip_prefix(".")
            .map(PathBuf::from)
            .unwrap_or(folder);
        return Ok((folder, host.project.to_owned()));
    }
    let home = std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .ok_or_else(|| Failure::Usage("--global needs HOME to be set".to_owned()))?;
    Ok((
        PathBuf::from(home).join(host.global),
        format!("~/{}", host.global),
    ))
}

/// A folder the user named, and where it leads when a symlink on the way
/// takes it elsewhere: what the output says is where the files went.
fn shown_resolved(written: &str) -> String {
    let path = std::path::Path::new(written);
    let through_link = path
        .ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .any(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()));
    let existing = path
        .ancestors()
        .find(|p| !p.as_os_str().is_empty() && p.exists());
    match (through_link, existing.map(std::fs::canonicalize)) {
        (true, Some(Ok(resolved))) => {
            let rest = existing
                .and_then(|e| path.strip_prefix(e).ok())
                .unwrap_or(std::path::Path::new(""));
            format!(
                "{written} (through a symlink: {})",
                resolved.join(rest).display()
            )
        }
        _ => written.to_owned(),
    }
}

fn hosts() -> String {
    HOSTS
        .iter()
        .map(|host| host.name)
        .collect::<Vec<_>>()
        .join(", ")
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
        tally(written, installed.len() + failed, failed, folder, how)
    );
}

/// The last line of an install: what was written of every skill chosen.
fn tally(written: usize, total: usize, failed: usize, folder: &str, how: Install) -> String {
    let verb = if how.dry_run { "would write" } else { "wrote" };
    let failures = match failed {
        0 => String::new(),
        n => format!("; {n} could not be installed"),
    };
    format!(
        "{verb} {written} of {total} skill{} in {folder}{failures}",
        if total == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 58, item 21: a failed skill is counted in the tally.
    #[test]
    fn the_tally_counts_the_skills_that_failed() {
        let how = Install {
            force: false,
            dry_run: false,
        };
        assert_eq!(
            tally(1, 2, 1, ".agents/skills", how),
            "wrote 1 of 2 skills in .agents/skills; 1 could not be installed"
        );
        assert_eq!(tally(1, 1, 0, "x", how), "wrote 1 of 1 skill in x");
    }
}
