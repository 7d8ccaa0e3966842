//! Whether the skills on disk are what the lock says: the one rule that
//! `cargo skills check --locked`, the build with `locked = true` and the
//! run-time loader's `locked` all apply.

use std::collections::BTreeMap;
use std::path::Path;

use crate::lock::cache::HashCache;
use crate::lock::file::{Entry, LOCK_FILE};
use crate::lock::hash::{FileDigest, FolderDigest, HashError, Limits, file_digests, hash_folder};

/// What a skill is against the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Its files are those locked, byte for byte (and mode for mode, when
    /// the entry has our per-file lines).
    Matches,
    /// Its files differ. `changed` names them when the entry has per-file
    /// lines; an entry with only Vercel's `computedHash` cannot say which.
    Modified {
        /// The files that differ, when the entry can say.
        changed: Vec<Change>,
    },
    /// Locked, but there is no such folder in the root.
    Missing,
    /// In the root, not in the lock.
    Unlocked,
}

/// One file that differs from the lock.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// The file, relative to the skill's folder.
    pub path: String,
    /// How it differs.
    pub kind: ChangeKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
/// How a file differs from the lock.
pub enum ChangeKind {
    /// On disk, not in the lock.
    Added,
    /// In the lock, not on disk.
    Removed,
    /// Other bytes.
    Edited,
    /// The same bytes; executable on one side only.
    ModeChanged,
}

impl ChangeKind {
    /// The kind's name, as printed: `added`, `removed`, `edited`, `mode changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Edited => "edited",
            ChangeKind::ModeChanged => "mode changed",
        }
    }
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.path, self.kind.as_str())
    }
}

/// The skill folder `dir` against `entry`.
pub fn verify(dir: &Path, entry: &Entry) -> Result<Status, HashError> {
    verify_cached(dir, entry, &mut HashCache::none())
}

/// [`verify`], reading only the files `cache` has not seen at their size
/// and time when the entry has per-file lines (Vercel's `computedHash`
/// alone needs every byte).
pub fn verify_cached(
    dir: &Path,
    entry: &Entry,
    cache: &mut HashCache,
) -> Result<Status, HashError> {
    if !dir.is_dir() {
        return Ok(Status::Missing);
    }
    let digest = match entry.files() {
        Some(_) => FolderDigest {
            computed_hash: String::new(),
            files: file_digests(dir, Limits::default(), cache)?,
        },
        None => hash_folder(dir, Limits::default())?,
    };
    Ok(compare(&digest, entry))
}

/// A folder's digest against an entry: per-file lines when the entry has
/// them, else Vercel's `computedHash`.
pub fn compare(digest: &FolderDigest, entry: &Entry) -> Status {
    let Some(lines) = entry.files() else {
        return match entry.computed_hash() {
            Some(hash) if hash.eq_ignore_ascii_case(&digest.computed_hash) => Status::Matches,
            _ => Status::Modified {
                changed: Vec::new(),
            },
        };
    };
    let locked: BTreeMap<String, FileDigest> = lines
        .iter()
        .filter_map(|line| FileDigest::parse(line))
        .map(|file| (file.path.clone(), file))
        .collect();
    let mut changed = Vec::new();
    let on_disk: BTreeMap<&str, &FileDigest> =
        digest.files.iter().map(|f| (f.path.as_str(), f)).collect();
    for (path, file) in &on_disk {
        let kind = match locked.get(*path) {
            None => Some(ChangeKind::Added),
            Some(lock) if lock.sha256 != file.sha256 => Some(ChangeKind::Edited),
            Some(lock) if lock.mode != file.mode => Some(ChangeKind::ModeChanged),
            Some(_) => None,
        };
        if let Some(kind) = kind {
            changed.push(Change {
                path: path.to_string(),
                kind,
            });
        }
    }
    for path in locked
        .keys()
        .filter(|path| !on_disk.contains_key(path.as_str()))
    {
        changed.push(Change {
            path: path.to_string(),
            kind: ChangeKind::Removed,
        });
    }
    // A line that does not parse stands for a file that cannot match.
    if locked.len() != lines.len() && changed.is_empty() {
        changed.push(Change {
            path: LOCK_FILE.to_owned(),
            kind: ChangeKind::Edited,
        });
    }
    changed.sort();
    if changed.is_empty() {
        Status::Matches
    } else {
        Status::Modified { changed }
    }
}
