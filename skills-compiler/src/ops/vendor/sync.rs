//! `sync`: each locked skill restored to exactly what the lock recorded
//! (the `npm ci` of skills); the lock is left as it is.

use std::path::PathBuf;

use super::super::error::Error;
use super::package::require_lock;
use super::vendored::{Vendored, plan_of};
use crate::lock::Status;
use crate::lock::file::Entry;
use crate::lock::verify::{Change, compare};
use crate::read::discover::display_path;
use crate::vendoring::install::{Package, Staging, VendorError, failed};
use crate::vendoring::{
    Outside, Prepared, against, describe_restore, display, display_path_of, fetch_entry,
    hash_folder_at, located, missing_target, source_of,
};

/// Plans each named locked skill (every one when `names` is empty) back
/// to what the lock recorded. A skill that matches is left alone; a lock
/// that locks nothing is nothing to restore (an error). `dry_run` only
/// changes what is said: `Would restore`, with the files.
pub fn sync(
    package: &Package,
    names: &[String],
    outside: Outside,
    dry_run: bool,
) -> Result<Vendored, Error> {
    require_lock(
        package,
        ": nothing to restore (add skills with `cargo skills add`)",
    )?;
    let synced = stage(package, names, outside)?;
    if synced.matching.is_empty() && synced.prepared.staged.is_empty() {
        return Err(Error::Io(format!(
            "`{}` locks no skill: nothing to restore",
            display_path(&package.lock_path)
        )));
    }
    let verb = if dry_run { "Would restore" } else { "Restored" };
    let prepared = synced.prepared;
    let mut done = Vec::new();
    for (skill, files) in prepared.staged.iter().zip(&prepared.changes) {
        done.push(skill.restored(verb));
        if dry_run {
            done.push(format!("  {files}"));
        }
    }
    Ok(Vendored {
        said: (synced.matching.iter())
            .map(|name| format!("{name}: matches the lock"))
            .collect(),
        plan: plan_of(package, &prepared)?,
        refused: None,
        done,
        prepared,
        judged: false,
    })
}

/// Restores each named locked skill (every one when `names` is empty) to
/// exactly what the lock recorded: the `npm ci` of skills. A skill that
/// already matches its entry is left alone, unfetched. Any other is
/// fetched at the recorded `commit` (an entry Vercel's CLI wrote has none:
/// then at its `ref`), copied, and held to the entry: its per-file lines
/// when it has them, its `computedHash` in any case. Nothing is written
/// unless every skill verifies, and the lock is never written.
fn stage(package: &Package, names: &[String], outside: Outside) -> Result<Synced, VendorError> {
    let lock = package.lock()?;
    if let Some(unknown) = names.iter().find(|n| lock.get(n).is_none()) {
        return Err(VendorError::Usage(format!(
            "`{unknown}` is not in `{}`",
            display_path_of(package)
        )));
    }
    let mut selected: Vec<(String, Entry)> = lock
        .entries()
        .filter(|(name, _)| names.is_empty() || names.iter().any(|n| n == name))
        .map(|(name, entry)| (name.to_owned(), entry))
        .collect();
    selected.sort_by(|a, b| a.0.cmp(&b.0));
    let staging = Staging::new(package)?;
    let mut staged = Vec::new();
    let mut matching = Vec::new();
    let mut fetched_all = Vec::new();
    let mut restores = Vec::new();
    // Each skill where it is: the root, or an agent's folder that Vercel's
    // CLI installed it in (restored there).
    let located = located(package, &lock);
    for (name, entry) in selected {
        let target = match located.get(&name) {
            Some(checked) if checked.status == Ok(Status::Matches) => {
                matching.push(name);
                continue;
            }
            Some(checked) if checked.looked.is_empty() => PathBuf::from(&checked.folder),
            _ => missing_target(package, &name),
        };
        let Some(mut source) = source_of(package, &name, &entry, outside)? else {
            return Err(failed(format!(
                "`{}` differs from its entry, which records a copy of itself (`cargo skills lock`): there is nowhere to restore it from; nothing was written. Restore the folder from version control, record it as it is with `cargo skills lock {name}`, or drop the entry with `cargo skills remove {name}`",
                display(package, &name)
            )));
        };
        let pinned = entry.commit().is_some();
        if let Some(commit) = entry.commit() {
            source.reference = Some(commit.to_owned());
        }
        let shown = entry.source().unwrap_or(&name).to_owned();
        let (listed, at) = fetch_entry(package, &source, &entry, &name, &shown)?;
        let offer = &listed.skills[at];
        let mut skill = staging.stage(package, &name, &offer.dir, |_| entry.clone())?;
        skill.target = target;
        match compare(&skill.digest, &entry) {
            Status::Matches
                if skill
                    .digest
                    .computed_hash
                    .eq_ignore_ascii_case(entry.computed_hash().unwrap_or_default()) => {}
            status => {
                let why = match (&status, pinned) {
                    (Status::Modified { changed }, _) if !changed.is_empty() => changed
                        .iter()
                        .map(Change::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                    (_, true) => "its files do not hash to the recorded `computedHash`".to_owned(),
                    (_, false) => "upstream has changed since it was locked, and the entry records no commit to go back to (Vercel's CLI writes none)".to_owned(),
                };
                return Err(failed(format!(
                    "`{name}` from `{shown}` is not what `{}` recorded: {why}; nothing was written (move to upstream's newest with `cargo skills update {name}`)",
                    display_path_of(package)
                )));
            }
        }
        let here = hash_folder_at(&package.base.join(&skill.target));
        restores.push(describe_restore(&name, &against(&here, &skill.digest)));
        staged.push(skill);
        fetched_all.push(listed.fetched);
    }
    Ok(Synced {
        matching,
        prepared: Prepared {
            staged,
            changes: restores,
            staging,
            lock: None,
            _fetched: fetched_all,
        },
    })
}

/// What [`sync`] found: the skills that already match, and the ones to
/// restore, fetched and verified.
#[derive(Debug)]
struct Synced {
    /// Skills that match their entries: left as they are.
    matching: Vec<String>,
    /// The skills to restore, staged and verified against their entries.
    prepared: Prepared,
}
