//! A plan's folder moves: each checked before the first write, then done
//! in order, a folder already in the way moved aside first, and all of it
//! moved back when one fails. Renames within one disk: a staged skill is
//! made beside the root for that.

use std::path::{Path, PathBuf};

use super::plan::Move;

/// Every move whose folder is not there: the plan is refused whole.
pub(crate) fn missing(moves: &[Move]) -> Vec<String> {
    (moves.iter())
        .filter(|step| std::fs::symlink_metadata(&step.from).is_err())
        .map(|step| format!("`{}` is not there to move", step.from.display()))
        .collect()
}

/// A move done, to undo.
struct Done<'a> {
    step: &'a Move,
    set_aside: bool,
}

/// Does every move; on a failure, moves back what was moved (and removes
/// the folders made for them) and says what failed.
pub(crate) fn run(moves: &[Move]) -> Result<(), String> {
    let mut done = Vec::new();
    let mut made = Vec::new();
    for step in moves {
        if let Err(why) = one(step, &mut made).map(|set_aside| done.push(Done { step, set_aside }))
        {
            undo(&done, &made);
            return Err(why);
        }
    }
    Ok(())
}

/// Moves one folder; whether a folder in its way was set aside.
fn one(step: &Move, made: &mut Vec<PathBuf>) -> Result<bool, String> {
    if let Some(parent) = step.to.parent() {
        make_folders(parent, made)
            .map_err(|e| format!("cannot create `{}`: {e}", parent.display()))?;
    }
    let in_the_way = std::fs::symlink_metadata(&step.to).is_ok();
    let set_aside = match (&step.aside, in_the_way) {
        (Some(aside), true) => {
            if let Some(parent) = aside.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create `{}`: {e}", parent.display()))?;
            }
            std::fs::rename(&step.to, aside)
                .map_err(|e| format!("cannot move `{}` aside: {e}", step.to.display()))?;
            true
        }
        _ => false,
    };
    if let Err(e) = std::fs::rename(&step.from, &step.to) {
        if let (true, Some(aside)) = (set_aside, &step.aside) {
            let _ = std::fs::rename(aside, &step.to);
        }
        return Err(format!(
            "cannot move `{}` into place: {e}",
            step.to.display()
        ));
    }
    Ok(set_aside)
}

/// Moves back what was moved, the last first.
fn undo(done: &[Done<'_>], made: &[PathBuf]) {
    for Done { step, set_aside } in done.iter().rev() {
        let _ = std::fs::rename(&step.to, &step.from);
        if let (true, Some(aside)) = (set_aside, &step.aside) {
            let _ = std::fs::rename(aside, &step.to);
        }
    }
    for folder in made.iter().rev() {
        let _ = std::fs::remove_dir(folder);
    }
}

/// Makes `folder` and the folders above it that are missing, outermost
/// first, each recorded in `made` once made.
pub(crate) fn make_folders(folder: &Path, made: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let missing: Vec<&Path> = folder
        .ancestors()
        .filter(|ancestor| !ancestor.as_os_str().is_empty())
        .take_while(|ancestor| std::fs::symlink_metadata(ancestor).is_err())
        .collect();
    for ancestor in missing.into_iter().rev() {
        match std::fs::create_dir(ancestor) {
            Ok(()) => made.push(ancestor.to_owned()),
            // Made since it was looked at: not ours to remove.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}
