//! `install`: skills written into an agent's folder, each as compiled (its
//! directory, bytes and execute bits exact), with a record of what was
//! installed, so that a second install knows exactly what it finds
//! (`skills_core::install`).

use std::path::{Path, PathBuf};

use super::error::Error;
use crate::diagnostics::render;
use crate::emit::lower;
use crate::ir::Skill;
use skills_core::install::{HOSTS, Install, Installed};

/// Where skills are installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    /// The folder.
    pub path: PathBuf,
    /// How to print it: never an absolute path the person did not write,
    /// and where a symlink on the way takes it.
    pub shown: String,
}

/// The folder `to` names: a host (`claude`, `codex`, `agents`) and its
/// conventional folder in the project, or with `global` in the home
/// directory; else a folder.
pub fn folder(to: &str, global: bool) -> Result<Folder, Error> {
    let Some(host) = HOSTS.iter().find(|host| host.name == to) else {
        if global {
            let hosts: Vec<&str> = HOSTS.iter().map(|host| host.name).collect();
            return Err(Error::Usage(format!(
                "--global names a host's folder in the home directory; `{to}` is a folder, not one of: {}",
                hosts.join(", ")
            )));
        }
        return Ok(Folder {
            path: PathBuf::from(to),
            shown: shown_resolved(to),
        });
    };
    if !global {
        // A project's folder is never reached through a symlink that a
        // commit could have planted.
        let folder = skills_core::install::project_folder(Path::new("."), host.project)
            .map_err(|e| Error::Io(format!("cannot install into {}: {e}", host.project)))?;
        let path = folder
            .strip_prefix(".")
            .map(PathBuf::from)
            .unwrap_or(folder);
        return Ok(Folder {
            path,
            shown: host.project.to_owned(),
        });
    }
    let home = std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .ok_or_else(|| Error::Usage("--global needs HOME to be set".to_owned()))?;
    Ok(Folder {
        path: PathBuf::from(home).join(host.global),
        shown: format!("~/{}", host.global),
    })
}

/// A folder the person named, and where it leads when a symlink on the
/// way takes it elsewhere: what the output says is where the files went.
fn shown_resolved(written: &str) -> String {
    let path = Path::new(written);
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
                .unwrap_or(Path::new(""));
            format!(
                "{written} (through a symlink: {})",
                resolved.join(rest).display()
            )
        }
        _ => written.to_owned(),
    }
}

/// Installs each skill into `folder`, each on a core of its own, its
/// bytes dropped before the next (that is most of an install, and the
/// memory a skill took is what the next one reuses: BENCHMARKS.md). Each
/// skill's install is whole or not done; one that cannot be done stops no
/// other, and says why.
pub fn install(skills: &[&Skill], folder: &Folder, how: Install) -> Vec<Result<Installed, String>> {
    use rayon::prelude::*;
    skills
        .par_iter()
        .map(|skill| {
            install_one(skill, &folder.path, how).map_err(|why| {
                format!(
                    "cannot install `{}` into {}: {why}",
                    skill.name(),
                    folder.shown
                )
            })
        })
        .collect()
}

/// One skill read from its directory, lowered and written into `folder`.
fn install_one(skill: &Skill, folder: &Path, how: Install) -> Result<Installed, String> {
    let files = lower::read_files(skill).map_err(|diagnostic| render::short(&diagnostic))?;
    let lowered = lower::skill(skill, files.into());
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

/// The last line of an install: what was written of every skill chosen,
/// those that could not be installed counted in.
pub fn tally(written: usize, total: usize, failed: usize, folder: &str, how: Install) -> String {
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
