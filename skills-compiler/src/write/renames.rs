//! Folder renames, planned whole before the first one: a migration that
//! renames skills (`fix --to portable` slugs a name and renames its folder)
//! is all or nothing.
//!
//! A skill nested in another is renamed before the skill that holds it:
//! renaming the outer folder first moves the inner one, and its rename then
//! finds nothing ("No such file or directory", half the renames done). Every
//! source must exist and every target must be free, on disk and among the
//! plan's own targets, before anything moves; a rename that still fails
//! puts back the ones done before it.

use std::path::{Path, PathBuf};

/// Renames checked against the disk and each other, in the order they can
/// be done (the deepest source first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    steps: Vec<(PathBuf, PathBuf)>,
}

/// Checks `renames` (each a folder and its new path, both as the disk has
/// them before any rename) and orders them; every problem found, when a
/// rename cannot be done, in which case nothing may be.
pub(crate) fn plan(renames: &[(String, String)]) -> Result<Plan, Vec<String>> {
    let mut problems = Vec::new();
    for (i, (from, to)) in renames.iter().enumerate() {
        if let Some((other, _)) = renames[..i].iter().find(|(_, earlier)| earlier == to) {
            problems.push(format!(
                "{other} and {from} both would be renamed to {to}: give one of the skills another name"
            ));
        } else if std::fs::symlink_metadata(to).is_ok() && !same_entry(from, to) {
            problems.push(format!("cannot rename {from} to {to}: {to} exists"));
        }
        if std::fs::symlink_metadata(from).is_err() {
            problems.push(format!("cannot rename {from}: it does not exist"));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut steps: Vec<(PathBuf, PathBuf)> = renames
        .iter()
        .map(|(from, to)| (PathBuf::from(from), PathBuf::from(to)))
        .collect();
    // The deepest source first: nothing it lies in has moved yet.
    steps.sort_by_key(|(from, _)| std::cmp::Reverse(from.components().count()));
    Ok(Plan { steps })
}

/// Whether `to` is `from` itself under another case (a case-only rename on
/// a disk that folds case): not a collision.
fn same_entry(from: &str, to: &str) -> bool {
    from.eq_ignore_ascii_case(to)
        && match (std::fs::canonicalize(from), std::fs::canonicalize(to)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
}

impl Plan {
    /// The renames, in the order [`Plan::apply`] does them.
    pub(crate) fn steps(&self) -> impl Iterator<Item = (&Path, &Path)> {
        self.steps
            .iter()
            .map(|(from, to)| (from.as_path(), to.as_path()))
    }

    /// Does every rename; when one fails, puts back those done before it
    /// (in reverse order) and says which failed.
    pub(crate) fn apply(&self) -> Result<(), String> {
        for (at, (from, to)) in self.steps.iter().enumerate() {
            if let Err(error) = std::fs::rename(from, to) {
                for (done_from, done_to) in self.steps[..at].iter().rev() {
                    let _ = std::fs::rename(done_to, done_from);
                }
                return Err(format!(
                    "cannot rename {} to {}: {error}; nothing was renamed",
                    from.display(),
                    to.display()
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("renames-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn text(path: PathBuf) -> String {
        path.display().to_string()
    }

    /// Issue 57, item 6: a parent renamed before its nested child left the
    /// child's rename with nothing to rename.
    #[test]
    fn a_nested_folder_is_renamed_before_the_folder_that_holds_it() {
        let root = dir("nested");
        std::fs::create_dir_all(root.join("Parent/Child/Grand")).unwrap();
        let renames = [
            (text(root.join("Parent")), text(root.join("parent"))),
            (
                text(root.join("Parent/Child")),
                text(root.join("Parent/child")),
            ),
            (
                text(root.join("Parent/Child/Grand")),
                text(root.join("Parent/Child/grand")),
            ),
        ];
        plan(&renames).unwrap().apply().unwrap();
        assert!(root.join("parent/child/grand").is_dir());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_collision_or_a_missing_source_is_found_before_anything_moves() {
        let root = dir("collide");
        std::fs::create_dir_all(root.join("A")).unwrap();
        std::fs::create_dir_all(root.join("B")).unwrap();
        std::fs::create_dir_all(root.join("taken")).unwrap();
        let problems = plan(&[
            (text(root.join("A")), text(root.join("same"))),
            (text(root.join("B")), text(root.join("same"))),
            (text(root.join("A")), text(root.join("taken"))),
            (text(root.join("Gone")), text(root.join("gone"))),
        ])
        .unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(root.join("A").is_dir() && root.join("B").is_dir());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_rename_that_fails_puts_back_the_ones_before_it() {
        let root = dir("rollback");
        std::fs::create_dir_all(root.join("Deep/Er")).unwrap();
        std::fs::create_dir_all(root.join("Top")).unwrap();
        let plan = plan(&[
            (text(root.join("Deep/Er")), text(root.join("Deep/er"))),
            (text(root.join("Top")), text(root.join("top"))),
        ])
        .unwrap();
        // The second source goes away after planning: its rename fails.
        std::fs::remove_dir_all(root.join("Top")).unwrap();
        assert!(plan.apply().is_err());
        assert!(
            root.join("Deep/Er").is_dir(),
            "the first rename is put back"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
