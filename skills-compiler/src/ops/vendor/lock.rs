//! `lock`: skills recorded in the lock as they are now, as local copies
//! of themselves (or kept as their source's, when their bytes still are).

use std::path::PathBuf;

use super::super::error::Error;
use super::super::plan::Plan;
use super::package::present;
use super::vendored::lock_change;
use crate::lock::file::source_type;
use crate::read::discover::display_path;
use crate::vendoring::install::{Package, failed};
use crate::vendoring::{display, located};

// The lock's format, hashing and verification (the private `lock`
// module's), for a caller that reads or checks a lock itself.
pub use crate::lock::verify::verify_cached;
pub use crate::lock::{
    Change, ChangeKind, Entry, EntryFields, FileDigest, FolderDigest, HashCache, HashError,
    LOCK_FILE, Limits, LockFile, Mode, Status, compare, file_digests, hash_folder, verify,
};

/// What `lock` will write, and what it says of each skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locking {
    /// The skills recorded.
    pub locked: Vec<Locked>,
    /// The lock's change (empty when every skill is locked already).
    pub plan: Plan,
    /// One line a skill (and a note on a signature that no longer
    /// verifies), or why nothing is written.
    pub said: Vec<String>,
}

/// Plans entries for the skills of the root the lock does not name, or
/// for `names` (skills of the root or locked ones in an agent's folder).
/// A root with no skill and no name is nothing to lock (an error).
pub fn lock(package: &Package, names: &[String]) -> Result<Locking, Error> {
    let present = present(package);
    if present.is_empty() && names.is_empty() {
        return Err(Error::Io(format!(
            "no skill in `{}` to lock",
            display_path(&package.config.dir)
        )));
    }
    let (locked, lock) = entries(package, &present, names)?;
    let root = display_path(&package.config.dir);
    if locked.is_empty() {
        return Ok(Locking {
            locked,
            plan: Plan::default(),
            said: vec![format!(
                "every skill of `{root}` is locked already; name one to record it as it is now"
            )],
        });
    }
    let plan = Plan {
        changes: vec![lock_change(package, &lock)?],
        ..Plan::default()
    };
    let said = locked.iter().flat_map(|l| said_of(package, l)).collect();
    Ok(Locking { locked, plan, said })
}

/// What `lock` says of one skill it recorded.
fn said_of(package: &Package, locked: &Locked) -> Vec<String> {
    let (name, lock) = (&locked.name, display_path(&package.lock_path));
    let Some(from) = &locked.now_local_copy_of else {
        return vec![format!("Locked {name} in {lock}")];
    };
    let mut said = vec![format!(
        "Locked {name} in {lock} as a local copy: its files are no longer what `{from}` holds, so the entry names no commit or signer (`vendoredFrom` keeps where it came from; `cargo skills update` no longer follows it)"
    )];
    if locked.stale_signature {
        said.push(format!(
            "note: {name}/skill.oms.sig is its publisher's and does not verify over the edit: remove it, or sign the copy with `cargo skills sign`"
        ));
    }
    said
}

/// A skill `lock` recorded, and whether its entry became a local copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locked {
    /// The skill.
    pub name: String,
    /// The source an edited vendored skill came from, when its entry was
    /// turned into a local copy (its bytes are no longer what the source
    /// produces, so the entry no longer names a commit or a signer).
    pub now_local_copy_of: Option<String>,
    /// A local copy that still holds its publisher's `skill.oms.sig`,
    /// which no longer verifies over the edited files.
    pub stale_signature: bool,
}

/// Entries for the skills of the root that the lock does not name
/// (every present skill named in `names`, locked or not), as local copies:
/// `source` is the skill's own folder, `sourceType` `local`.
///
/// A locked skill named again keeps its entry's source when its bytes
/// still hash as recorded (its signer too). One whose bytes changed is
/// no longer what its source produces: a lock never claims a commit holds
/// bytes it does not, so the entry becomes a local copy
/// ([`Entry::into_local_copy`]).
fn entries(
    package: &Package,
    present: &[String],
    names: &[String],
) -> Result<(Vec<Locked>, LockFile), Error> {
    let mut lock = package.lock()?;
    // A locked skill that Vercel's CLI installed for an agent is recorded
    // where it is (`.claude/skills/pdf`).
    let elsewhere: std::collections::HashMap<String, PathBuf> = located(package, &lock)
        .into_values()
        .filter(|checked| checked.looked.is_empty() && !present.contains(&checked.name))
        .map(|checked| (checked.name, PathBuf::from(checked.folder)))
        .collect();
    if let Some(unknown) = names
        .iter()
        .find(|n| !present.contains(n) && !elsewhere.contains_key(*n))
    {
        return Err(Error::Usage(format!(
            "`{unknown}` is not a skill of `{}`",
            display_path(&package.config.dir)
        )));
    }
    let mut written = Vec::new();
    let candidates = present
        .iter()
        .chain(names.iter().filter(|n| elsewhere.contains_key(*n)));
    for name in candidates {
        let chosen = if names.is_empty() {
            lock.get(name).is_none()
        } else {
            names.contains(name)
        };
        if !chosen {
            continue;
        }
        let dir = match elsewhere.get(name) {
            Some(folder) => package.base.join(folder),
            None => package.root().join(name),
        };
        let digest = crate::lock::hash::hash_folder(&dir, crate::lock::hash::Limits::default())
            .map_err(|e| failed(format!("cannot hash `{}`: {e}", display(package, name))))?;
        let own_copy = package.portable_path(&dir);
        let local = Entry::new(EntryFields {
            source: own_copy.clone(),
            source_type: source_type::LOCAL.to_owned(),
            computed_hash: digest.computed_hash.clone(),
            files: digest.files.iter().map(|f| f.line()).collect(),
            ..EntryFields::default()
        });
        let mut now_local_copy_of = None;
        let fresh = match lock.get(name) {
            None => local,
            Some(old) if is_copy_of_itself(&old, &own_copy) => old.updated_with(local),
            Some(old)
                if old
                    .computed_hash()
                    .is_some_and(|hash| hash.eq_ignore_ascii_case(&digest.computed_hash)) =>
            {
                // The same bytes: where they came from (and who signed
                // them) is still true; the per-file lines are refreshed.
                let signer = old.signer().map(|(s, a)| (s.to_owned(), a.to_owned()));
                let fields = EntryFields {
                    source: old.source().unwrap_or_default().to_owned(),
                    source_type: old.source_type().unwrap_or(source_type::LOCAL).to_owned(),
                    source_url: old.source_url().map(str::to_owned),
                    reference: old.reference().map(str::to_owned),
                    skill_path: old.skill_path().map(str::to_owned),
                    commit: old.commit().map(str::to_owned),
                    computed_hash: digest.computed_hash.clone(),
                    files: digest.files.iter().map(|f| f.line()).collect(),
                };
                old.updated_with(Entry::new(fields))
                    .with_signer(signer.as_ref().map(|(s, a)| (s.as_str(), a.as_str())))
            }
            Some(old) => {
                now_local_copy_of = Some(old.source().unwrap_or(name).to_owned());
                old.into_local_copy(&own_copy, local)
            }
        };
        lock.insert(name, fresh);
        written.push(Locked {
            name: name.clone(),
            stale_signature: now_local_copy_of.is_some()
                && dir.join(skills_core::SIGNATURE_FILE).is_file(),
            now_local_copy_of,
        });
    }
    Ok((written, lock))
}

/// An entry that records the skill's own folder as its source: there is
/// nothing to fetch, whatever its bytes.
fn is_copy_of_itself(entry: &Entry, own_copy: &str) -> bool {
    entry.source_type() == Some(source_type::LOCAL) && entry.source() == Some(own_copy)
}
