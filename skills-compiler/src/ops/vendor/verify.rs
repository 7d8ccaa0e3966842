//! `verify`: each skill of the root and of the lock against the lock.

use super::super::error::Error;
use super::package::{present, require_lock};
use crate::lock::{Status, check};
use crate::read::discover::display_path;
use crate::vendoring::install::Package;

/// Each skill against the lock, one line each, and what they add up to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verified {
    /// `NAME: matches`, `NAME: modified: FILES`, `NAME: missing (...)`...
    pub lines: Vec<String>,
    /// Every skill matches its entry.
    pub all_match: bool,
    /// A skill was changed or is gone: `sync` or `update` brings it back.
    pub drifted: bool,
}

/// Each skill of the root and of the lock against the lock: matches,
/// modified (which files), missing, unlocked. Nothing to verify (no lock,
/// or a lock and a root with no skill) is an error, never a pass.
pub fn verify(package: &Package) -> Result<Verified, Error> {
    require_lock(
        package,
        " to verify against: write one with `cargo skills lock`",
    )?;
    let lock = package.lock()?;
    let statuses = check::statuses(
        &package.base,
        &package.config.dir,
        &package.lock_path,
        &lock,
        &present(package),
        crate::lock::check::Scope::Root,
    );
    if statuses.is_empty() {
        return Err(Error::Io(format!(
            "nothing to verify: `{}` locks no skill and `{}` has none",
            display_path(&package.lock_path),
            display_path(&package.config.dir)
        )));
    }
    let mut verified = Verified {
        all_match: true,
        ..Verified::default()
    };
    for checked in &statuses {
        // Vercel's CLI writes entries without per-file lines.
        let by_hash_only = lock.get(&checked.name).is_some_and(|e| e.files().is_none());
        verified.lines.push(line(package, checked, by_hash_only));
        verified.all_match &= matches!(checked.status, Ok(Status::Matches));
        verified.drifted |= matches!(
            checked.status,
            Ok(Status::Modified { .. } | Status::Missing)
        );
    }
    Ok(verified)
}

/// What `verify` says of one skill.
fn line(package: &Package, checked: &check::Checked, by_hash_only: bool) -> String {
    let name = &checked.name;
    let line = match &checked.status {
        Ok(Status::Matches) if by_hash_only => format!(
            "{name}: matches (by `computedHash` only: no per-file lines, so modes are not checked; `cargo skills lock {name}` adds them)"
        ),
        Ok(Status::Matches) => format!("{name}: matches"),
        Ok(Status::Missing) => {
            format!("{name}: missing (looked in {})", checked.looked.join(", "))
        }
        Ok(Status::Unlocked) => format!("{name}: unlocked"),
        Ok(Status::Modified { changed }) if changed.is_empty() => {
            format!("{name}: modified (the entry names no files)")
        }
        Ok(Status::Modified { changed }) => {
            let changed: Vec<String> = changed.iter().map(ToString::to_string).collect();
            format!("{name}: modified: {}", changed.join(", "))
        }
        Err(error) => format!("{name}: cannot be verified: {error}"),
    };
    // A skill Vercel's CLI installed for an agent is verified there.
    let in_root = display_path(&package.config.dir.join(name));
    if checked.folder == in_root || !checked.looked.is_empty() {
        return line;
    }
    match line.split_once(": ") {
        Some((name, rest)) => format!("{name} (in {}): {rest}", checked.folder),
        None => line,
    }
}
