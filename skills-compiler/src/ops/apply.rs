//! Carrying out a [`Plan`]: every check before the first write, then the
//! writes, then the renames (the deepest first), then the folder moves,
//! all or nothing.
//!
//! The checks, in the order a person meets them: a rename that collides
//! or names nothing; a file with uncommitted work (when the plan's
//! [`Guards`] ask, as `cargo fix` does); a signed skill, whose signature
//! the edit would break; a read-only file. Any one refuses the whole plan
//! with nothing written. A write or rename that still fails puts back
//! what was done before it.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::error::Error;
use super::files::{self, Replaced};
use super::moves;
use super::plan::{Change, Plan, Rename};
use crate::write::{renames, signed};

/// What [`apply`] must refuse, beyond what it always checks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Guards {
    /// Refuse files with uncommitted changes, or outside a git work tree,
    /// as `cargo fix` does: `fix`'s edits would mix with the person's.
    pub clean_tree: bool,
    /// Edit signed skills (`skill.oms.sig`) too; their signatures stop
    /// verifying, which [`Applied::unsigned`] names.
    pub allow_unsigned_edit: bool,
}

/// What [`apply`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// The index in the plan of each change written. A change is left out
    /// when its file changed since it was read (see `notes`).
    pub written: Vec<usize>,
    /// The renames, in the order they were done.
    pub renamed: Vec<Rename>,
    /// Signed skill folders edited (allowed by the guards): their
    /// signatures no longer verify.
    pub unsigned: Vec<PathBuf>,
    /// What the person should know: a file left as it is because it
    /// changed since it was read, a hard link that keeps the old text.
    pub notes: Vec<String>,
}

/// Checks `plan` whole, then writes and renames. Nothing is written when
/// a check fails; a failure half way puts back what was done.
pub fn apply(plan: &Plan, guards: Guards) -> Result<Applied, Error> {
    let pairs: Vec<(String, String)> = plan
        .renames
        .iter()
        .map(|rename| (rename.from.clone(), rename.to.clone()))
        .collect();
    let ordered = renames::plan(&pairs).map_err(|problems| Error::Refused {
        problems,
        outcome: "nothing was written: rename the folders by hand first".to_owned(),
    })?;
    if guards.clean_tree {
        let files = plan.renames.iter().filter(|r| Path::new(&r.from).is_file());
        refuse_dirty(changed_paths(plan).chain(files.map(|r| r.from.as_str())))?;
    }
    let unsigned = refuse_signed(plan, guards.allow_unsigned_edit)?;
    refuse_read_only(&plan.changes)?;
    let missing = moves::missing(&plan.moves);
    if !missing.is_empty() {
        return Err(Error::Refused {
            problems: missing,
            outcome: "nothing was written".to_owned(),
        });
    }
    let mut applied = Applied {
        unsigned,
        ..Applied::default()
    };
    let mut made = Vec::new();
    write_all(&plan.changes, &mut applied, &mut made)?;
    if let Err(why) = ordered.apply() {
        put_back(&plan.changes, &applied.written, &made);
        return Err(Error::Io(format!("{why}; nothing was written")));
    }
    // The moves go with the files written beside them (a lock and the
    // skills it records): all of them, or none.
    if !plan.moves.is_empty() {
        let kept = (plan.changes.len() != applied.written.len()).then(|| applied.notes.join("; "));
        let moved = match kept {
            Some(why) => Err(why),
            None => moves::run(&plan.moves),
        };
        if let Err(why) = moved {
            put_back(&plan.changes, &applied.written, &made);
            return Err(Error::Io(format!("{why}; nothing was written")));
        }
    }
    // In the order they were done, which `renames::plan` decided.
    applied.renamed = ordered
        .steps()
        .filter_map(|(from, _)| plan.renames.iter().find(|r| Path::new(&r.from) == from))
        .cloned()
        .collect();
    Ok(applied)
}

fn changed_paths(plan: &Plan) -> impl Iterator<Item = &str> {
    plan.changes.iter().map(|change| change.path.as_str())
}

/// A signed skill (`skill.oms.sig`) is not edited: the edit would break
/// its signature. With `allow`, the folders that will be.
fn refuse_signed(plan: &Plan, allow: bool) -> Result<Vec<PathBuf>, Error> {
    let renamed = plan.renames.iter().map(|rename| rename.from.as_str());
    let folders = signed::signed_folders(changed_paths(plan).chain(renamed));
    if folders.is_empty() || allow {
        return Ok(folders);
    }
    let named = folders
        .iter()
        .map(|folder| folder.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    Err(Error::Usage(format!(
        "{named} {} signed (`skill.oms.sig`), and the edit would break the signature; nothing was written. \
         Edit it upstream and get a new signed release, or pass --allow-unsigned-edit (then sign it again with `cargo skills sign`)",
        if folders.len() == 1 { "is" } else { "are" }
    )))
}

/// As `cargo fix`: files with uncommitted changes, or outside a git work
/// tree, are not touched.
fn refuse_dirty<'a>(paths: impl Iterator<Item = &'a str>) -> Result<(), Error> {
    let paths: Vec<&str> = paths.collect();
    if paths.is_empty() {
        return Ok(());
    }
    let output = Command::new("git")
        // Untracked and ignored files hold work git cannot give back.
        .args([
            "status",
            "--porcelain",
            "--untracked-files=all",
            "--ignored",
            "--",
        ])
        .args(&paths)
        .output();
    let output = match output {
        Ok(output) if output.status.success() => output,
        _ => {
            return Err(Error::Usage(
                "no git work tree here, so `fix` cannot tell your edits from its own; \
                 commit the files first, or pass --allow-dirty"
                    .to_owned(),
            ));
        }
    };
    let dirty: Vec<&str> = std::str::from_utf8(&output.stdout)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.get(3..))
        .collect();
    if dirty.is_empty() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "these files have uncommitted changes, which `fix` would mix with its own: {}; \
         commit or stash them first, or pass --allow-dirty",
        dirty.join(", ")
    )))
}

/// A read-only file stops the plan before anything is written.
fn refuse_read_only(changes: &[Change]) -> Result<(), Error> {
    let read_only: Vec<String> = changes
        .iter()
        .filter(|change| {
            std::fs::metadata(&change.path).is_ok_and(|meta| meta.permissions().readonly())
        })
        .map(|change| change.path.clone())
        .collect();
    if read_only.is_empty() {
        return Ok(());
    }
    let verb = if read_only.len() == 1 { "is" } else { "are" };
    Err(Error::Refused {
        problems: Vec::new(),
        outcome: format!(
            "{} {verb} read-only: nothing was written",
            read_only.join(", ")
        ),
    })
}

/// Writes every change; one that fails puts back those before it. `made`
/// gets the folders made for new files, each before the folders in it.
fn write_all(
    changes: &[Change],
    applied: &mut Applied,
    made: &mut Vec<PathBuf>,
) -> Result<(), Error> {
    for (index, change) in changes.iter().enumerate() {
        match write_one(change, &mut applied.notes, made) {
            Ok(true) => applied.written.push(index),
            Ok(false) => {}
            Err(message) => {
                let undone = !applied.written.is_empty() || !made.is_empty();
                put_back(changes, &applied.written, made);
                return Err(Error::Io(if undone {
                    format!("{message}; nothing was written")
                } else {
                    message
                }));
            }
        }
    }
    Ok(())
}

/// Writes one change: a new file (never over one that appeared since), or
/// the new text over a file that still holds the old (an edit saved since
/// it was read is kept, with a note). Whether it was written.
fn write_one(
    change: &Change,
    notes: &mut Vec<String>,
    made: &mut Vec<PathBuf>,
) -> Result<bool, String> {
    let path = Path::new(&change.path);
    let cannot = |error: std::io::Error| format!("cannot write {}: {error}", change.path);
    if change.before.is_empty() && std::fs::symlink_metadata(path).is_err() {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            moves::make_folders(parent, made).map_err(cannot)?;
        }
        return files::create(path, change.after.as_bytes())
            .map(|()| true)
            .map_err(cannot);
    }
    // Asked before the write: the write is what unlinks it from the others.
    let linked = files::has_other_links(path);
    match files::replace(path, change.before.as_bytes(), change.after.as_bytes()) {
        Ok(Replaced::Written) => {
            if linked {
                notes.push(format!(
                    "{} has other hard links; they keep the old text",
                    change.path
                ));
            }
            Ok(true)
        }
        Ok(Replaced::ChangedSince) => {
            notes.push(format!(
                "{} changed since it was read; left as it is",
                change.path
            ));
            Ok(false)
        }
        Err(error) => Err(cannot(error)),
    }
}

/// Each written file holds its text before again (replaced atomically,
/// and only while it still holds what was written); a file the plan
/// created is removed, and the folders made for it.
fn put_back(changes: &[Change], written: &[usize], made: &[PathBuf]) {
    for change in written.iter().filter_map(|&index| changes.get(index)) {
        let path = Path::new(&change.path);
        if change.before.is_empty() {
            let _ = std::fs::remove_file(path);
        } else {
            let _ = files::replace(path, change.after.as_bytes(), change.before.as_bytes());
        }
    }
    // The folders made for new files, innermost first; one that holds
    // something (written there since) is not empty, and stays.
    for folder in made.iter().rev() {
        let _ = std::fs::remove_dir(folder);
    }
}
