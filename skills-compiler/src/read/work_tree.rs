//! Which git work tree a folder is in, found once a run for each folder on
//! the way: the roots of a command line's skills (each skill's parent)
//! share most of their ancestors, and looking for the work tree from each
//! root alone cost a `readlink` per component to resolve it and a `stat`
//! of a `.git` per folder upwards (2,360 system calls over a collection of
//! 1,189 skills in 157 folders, 8% of its check).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The folders a run has resolved and looked at for a `.git`.
#[derive(Debug, Default)]
pub(crate) struct WorkTrees {
    /// Each folder as it was named: its resolved path (`None` when it
    /// cannot be resolved).
    resolved: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
    /// Each resolved folder: the top of the work tree it is in, if any.
    tops: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
}

impl WorkTrees {
    /// `path` resolved, as `fs::canonicalize` resolves it: an absolute path
    /// whose last entry is not a symlink is its parent's resolved path with
    /// that name added, so each folder on the way costs one `lstat` a run.
    pub(crate) fn resolve(&self, path: &Path) -> Option<PathBuf> {
        if let Some(known) = lock(&self.resolved).get(path) {
            return known.clone();
        }
        let resolved = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) if path.is_absolute() => match fs::symlink_metadata(path) {
                Ok(entry) if !entry.file_type().is_symlink() => {
                    self.resolve(parent).map(|parent| parent.join(name))
                }
                Ok(_) => fs::canonicalize(path).ok(),
                Err(_) => None,
            },
            // The file system's root, a relative path, a path ending in `..`.
            _ => fs::canonicalize(path).ok(),
        };
        lock(&self.resolved).insert(path.to_path_buf(), resolved.clone());
        resolved
    }

    /// The top of the work tree the resolved folder `folder` is in: the
    /// nearest folder, itself or above, that holds a `.git`.
    pub(crate) fn top_of(&self, folder: &Path) -> Option<PathBuf> {
        if let Some(known) = lock(&self.tops).get(folder) {
            return known.clone();
        }
        let top = if folder.join(".git").exists() {
            Some(folder.to_path_buf())
        } else {
            folder.parent().and_then(|parent| self.top_of(parent))
        };
        lock(&self.tops).insert(folder.to_path_buf(), top.clone());
        top
    }
}

fn lock<T>(map: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    map.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resolving through the memo gives what `fs::canonicalize` gives, for
    /// paths with links (to folders above, beside, and chained), `.` and
    /// `..`; the top found is the nearest `.git` upwards, as a search from
    /// each folder alone finds it.
    #[cfg(unix)]
    #[test]
    fn resolving_and_finding_the_top_through_the_memo_is_as_each_alone() {
        let dir = std::env::temp_dir().join(format!("skills-work-tree-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for folder in ["repo/.git", "repo/a/b/c", "repo/d", "plain/e"] {
            fs::create_dir_all(dir.join(folder)).unwrap();
        }
        let dir = fs::canonicalize(&dir).unwrap();
        std::os::unix::fs::symlink(dir.join("repo/a"), dir.join("plain/to-a")).unwrap();
        std::os::unix::fs::symlink("../d", dir.join("repo/a/up-d")).unwrap();
        std::os::unix::fs::symlink(dir.join("plain/to-a"), dir.join("plain/chain")).unwrap();
        let work_trees = WorkTrees::default();
        for path in [
            "repo/a/b/c",
            "repo/a/b",
            "repo/a/./b/c",
            "repo/a/b/../b/c",
            "repo/a/up-d",
            "plain/to-a/b/c",
            "plain/chain/b",
            "plain/e",
            "plain/e/..",
            "plain/missing",
            "plain/missing/x",
        ] {
            let path = dir.join(path);
            let resolved = work_trees.resolve(&path);
            assert_eq!(resolved, fs::canonicalize(&path).ok(), "{}", path.display());
            if let Some(resolved) = resolved {
                let alone = resolved.ancestors().find(|f| f.join(".git").exists());
                assert_eq!(
                    work_trees.top_of(&resolved).as_deref(),
                    alone,
                    "{}",
                    path.display()
                );
            }
        }
        assert_eq!(
            work_trees.top_of(&dir.join("repo/a/b")),
            Some(dir.join("repo"))
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
