//! `update`: locked skills fetched again from their sources, staged,
//! checked, and planned into the root with their entries renewed.

use super::super::error::Error;
use super::package::require_lock;
use super::vendored::{Vendored, gate, placed, plan_of};
use crate::lock::file::Entry;
use crate::vendoring::install::{Package, Staging, VendorError};
use crate::vendoring::{
    Outside, Prepared, against, current_digest, describe_update, display_path_of, entry_from,
    fetch_entry, fields_for, refuse_new_signer, source_of,
};

/// Plans each named locked skill (every one when `names` is empty) from
/// its source again. Skills locked as local copies are left as they are;
/// when that leaves nothing, there is nothing to update (an error).
pub fn update(
    package: &Package,
    names: &[String],
    outside: Outside,
    force: bool,
) -> Result<Vendored, Error> {
    require_lock(package, ": nothing was added with `cargo skills add`")?;
    let prepared = stage(package, names, outside)?;
    if prepared.staged.is_empty() {
        return Err(Error::Io(
            "nothing to update: every locked skill is a local copy without a source to fetch"
                .to_owned(),
        ));
    }
    Ok(Vendored {
        said: prepared.changes.clone(),
        plan: plan_of(package, &prepared)?,
        refused: gate(&prepared, force),
        done: placed(package, &prepared, "Updated", None),
        prepared,
        judged: true,
    })
}

/// Fetches each named locked skill (every locked one when `names` is
/// empty) from its entry's source and ref again, and stages it with its
/// changes against the root. Skills locked as local copies without a
/// source folder (`cargo skills lock`) are left as they are.
fn stage(package: &Package, names: &[String], outside: Outside) -> Result<Prepared, VendorError> {
    let lock = package.lock()?;
    let mut selected: Vec<(String, Entry)> = lock
        .entries()
        .filter(|(name, _)| names.is_empty() || names.iter().any(|n| n == name))
        .map(|(name, entry)| (name.to_owned(), entry))
        .collect();
    if let Some(unknown) = names.iter().find(|n| lock.get(n).is_none()) {
        return Err(VendorError::Usage(format!(
            "`{unknown}` is not in `{}`",
            display_path_of(package)
        )));
    }
    selected.sort_by(|a, b| a.0.cmp(&b.0));
    let staging = Staging::new(package)?;
    let mut staged = Vec::new();
    let mut changes = Vec::new();
    let mut fetched_all = Vec::new();
    let mut lock_after = lock.clone();
    for (name, entry) in selected {
        let Some(source) = source_of(package, &name, &entry, outside)? else {
            continue;
        };
        let shown = entry.source().unwrap_or(&name).to_owned();
        let (listed, at) = fetch_entry(package, &source, &entry, &name, &shown)?;
        let offer = &listed.skills[at];
        let fields = fields_for(package, &source, &listed.fetched, offer);
        let skill = staging.stage(package, &name, &offer.dir, |digest| {
            entry_from(&fields, digest)
        })?;
        refuse_new_signer(&name, &entry, &skill.entry)?;
        let before = current_digest(package, &name);
        let status = against(&before, &skill.digest);
        changes.push(describe_update(&name, &status, &entry, &skill.digest));
        lock_after.insert(&name, entry.updated_with(skill.entry.clone()));
        staged.push(skill);
        fetched_all.push(listed.fetched);
    }
    Ok(Prepared {
        staged,
        changes,
        staging,
        lock: Some(lock_after),
        _fetched: fetched_all,
    })
}
