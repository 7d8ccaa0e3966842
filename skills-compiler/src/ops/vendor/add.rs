//! `add`: skills from git or a folder, staged, checked with the rules
//! vendored skills are held to, and planned into the root with their
//! lock entries.

use super::super::error::Error;
use super::vendored::{Vendored, gate, placed, plan_of};
use crate::vendoring::install::{Package, Staging, VendorError, failed};
use crate::vendoring::offer::Offered;
use crate::vendoring::source::Source;
use crate::vendoring::{Pick, Prepared, display, entry_from, fields_for, is_same_source, list};

/// Fetches `source` (`shown` as the user wrote it) and plans the skills
/// `pick` names into the root; `force` lets skills with errors under the
/// vendored rules through (never a signature `trust` refuses).
pub fn add(
    package: &Package,
    source: &Source,
    shown: &str,
    pick: &Pick,
    force: bool,
) -> Result<Vendored, Error> {
    let prepared = stage(package, source, shown, pick)?;
    Ok(Vendored {
        said: Vec::new(),
        plan: plan_of(package, &prepared)?,
        refused: gate(&prepared, force),
        done: placed(package, &prepared, "Added", Some(shown)),
        prepared,
        judged: true,
    })
}

/// Fetches `source` and stages the skills `pick` names, each checked with
/// the package's rules. A name already in the root is refused unless the
/// lock says it came from the same source (then it is an update).
fn stage(
    package: &Package,
    source: &Source,
    shown: &str,
    pick: &Pick,
) -> Result<Prepared, VendorError> {
    let listed = list(package, source, shown)?;
    let chosen = choose(&listed.skills, pick, shown)?;
    let lock = package.lock()?;
    let staging = Staging::new(package)?;
    let mut staged = Vec::new();
    let mut lock_after = lock.clone();
    for offer in chosen {
        // The lock keys the skill by this name, and it becomes a folder.
        if let Some(why) = crate::lock::folder_name_problem(&offer.name) {
            return Err(failed(format!(
                "`{shown}` offers a skill named `{}`, which cannot name a folder of the skills root: {why}",
                offer.name
            )));
        }
        let fields = fields_for(package, source, &listed.fetched, offer);
        let existing = lock.get(&offer.name);
        let present = package.root().join(&offer.name).exists();
        let same_source = existing
            .as_ref()
            .is_some_and(|entry| is_same_source(entry, &fields));
        if (present || existing.is_some()) && !same_source {
            let from = match &existing {
                Some(entry) => format!(
                    "the lock says it came from `{}`",
                    entry.source().unwrap_or("?")
                ),
                None => "it is not in the lock".to_owned(),
            };
            return Err(failed(format!(
                "`{}` is already in the skills root and did not come from `{shown}` ({from}); remove it first with `cargo skills remove {}`",
                display(package, &offer.name),
                offer.name
            )));
        }
        let skill = staging.stage(package, &offer.name, &offer.dir, |digest| {
            entry_from(&fields, digest)
        })?;
        let entry = match existing {
            Some(old) => old.updated_with(skill.entry.clone()),
            None => skill.entry.clone(),
        };
        lock_after.insert(&offer.name, entry);
        staged.push(skill);
    }
    Ok(Prepared {
        staged,
        changes: Vec::new(),
        staging,
        lock: Some(lock_after),
        _fetched: vec![listed.fetched],
    })
}

fn choose<'a>(
    skills: &'a [Offered],
    pick: &Pick,
    shown: &str,
) -> Result<Vec<&'a Offered>, VendorError> {
    let names = || {
        skills
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match pick {
        Pick::All => Ok(skills.iter().collect()),
        Pick::TheOnly if skills.len() == 1 => Ok(skills.iter().collect()),
        Pick::TheOnly => Err(VendorError::Usage(format!(
            "`{shown}` offers {} skills ({}): name them with `--skill NAME`, or take every one with `--all`",
            skills.len(),
            names()
        ))),
        Pick::Named(wanted) => wanted
            .iter()
            .map(|name| {
                skills.iter().find(|s| &s.name == name).ok_or_else(|| {
                    VendorError::Usage(format!(
                        "`{shown}` has no skill named `{name}`; it offers {}",
                        names()
                    ))
                })
            })
            .collect(),
    }
}
