//! Skills nested below a folder that is not itself a skills root: a
//! collection laid out as `skills/<owner>/<repo>/<skill>/SKILL.md`, or a
//! repository whose skills sit a level or two down.
//!
//! A skills root holds one folder per skill. A root given one level too high
//! holds no skill at all, and a check of it must say so and say where the
//! skills are ([`nearest`]); `check --recursive` checks every skill below a
//! folder, each named by its own folder ([`skill_dirs`]).
//!
//! The walk never follows a symlinked folder (a link to `.` would make it
//! endless), skips hidden folders and the usual build and package folders,
//! and stops at [`MAX_DEPTH`] levels and [`MAX_FOLDERS`] folders, saying so.

use std::fs;
use std::path::{Path, PathBuf};

use crate::read::layout::{SKILL_FILE, is_ignored_root_entry};

/// How deep below the folder skills are looked for.
pub const MAX_DEPTH: usize = 8;

/// How many folders are listed at most: a check of a home directory by
/// mistake ends in a second, with a word, instead of walking the disk.
pub const MAX_FOLDERS: usize = 20_000;

/// Folders that hold dependencies or build output, never skills of the collection.
const NOT_COLLECTIONS: &[&str] = &["node_modules", "target", "__pycache__"];

/// The skill folders below a folder, as a breadth-first walk found them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Nested {
    /// Each skill's folder (`folder/<...>/<skill>`), by depth, then sorted
    /// by path. A skill's own folder is not searched further: what is under
    /// it is its files.
    pub skills: Vec<NestedSkill>,
    /// The folders directly under `folder` that are not skills.
    pub folders_without_skill: Vec<String>,
    /// The walk stopped at a limit: there may be more.
    pub truncated: bool,
}

/// One skill folder found below the searched folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedSkill {
    /// Joined to the searched folder as it was given.
    pub path: PathBuf,
    /// 1 for a folder directly under the searched one.
    pub depth: usize,
}

/// Every skill folder below `folder` (not `folder` itself), to
/// [`MAX_DEPTH`] levels.
pub fn skill_dirs(folder: &Path) -> Nested {
    walk(folder, Stop::AtLimits)
}

/// The skill folders nearest to `folder`: the first level that has any.
pub fn nearest(folder: &Path) -> Nested {
    walk(folder, Stop::AtFirstLevelWithSkills)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    AtLimits,
    AtFirstLevelWithSkills,
}

fn walk(folder: &Path, stop: Stop) -> Nested {
    let mut nested = Nested::default();
    let mut level = vec![folder.to_path_buf()];
    let mut listed = 0usize;
    for depth in 1..=MAX_DEPTH {
        let mut next = Vec::new();
        for parent in &level {
            if listed == MAX_FOLDERS {
                nested.truncated = true;
                break;
            }
            listed += 1;
            for (name, is_link) in subfolders(parent) {
                let path = parent.join(&name);
                if path.join(SKILL_FILE).is_file() {
                    nested.skills.push(NestedSkill { path, depth });
                    continue;
                }
                if depth == 1 {
                    nested.folders_without_skill.push(name);
                }
                if !is_link {
                    next.push(path);
                }
            }
        }
        let found_here = nested.skills.last().is_some_and(|f| f.depth == depth);
        if nested.truncated || (stop == Stop::AtFirstLevelWithSkills && found_here) {
            break;
        }
        if next.is_empty() {
            break;
        }
        if depth == MAX_DEPTH {
            nested.truncated = true;
        }
        level = next;
    }
    nested
}

/// The folders in `dir` worth searching, sorted by name, each with whether
/// it is a symlink (listed, never entered). Unreadable folders are passed
/// over: the check of what is found reports what it cannot read.
fn subfolders(dir: &Path) -> Vec<(String, bool)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut folders: Vec<(String, bool)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if is_ignored_root_entry(&name) || NOT_COLLECTIONS.contains(&name.as_str()) {
                return None;
            }
            let kind = entry.file_type().ok()?;
            let is_link = kind.is_symlink();
            let is_dir = kind.is_dir() || (is_link && entry.path().is_dir());
            is_dir.then_some((name, is_link))
        })
        .collect();
    folders.sort();
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str, skills: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("skills-collection-{}", std::process::id()))
            .join(name);
        let _ = fs::remove_dir_all(&dir);
        for skill in skills {
            fs::create_dir_all(dir.join(skill)).unwrap();
            fs::write(dir.join(skill).join(SKILL_FILE), "---\n---\n").unwrap();
        }
        dir
    }

    fn relative(nested: &Nested, dir: &Path) -> Vec<(String, usize)> {
        nested
            .skills
            .iter()
            .map(|f| {
                let path = f.path.strip_prefix(dir).unwrap();
                (path.to_string_lossy().into_owned(), f.depth)
            })
            .collect()
    }

    #[test]
    fn finds_skills_at_every_depth_and_the_nearest_level() {
        let dir = tree(
            "depths",
            &["a/b/deep", "a/near", "c/d/e/deeper", "a/near/inner"],
        );
        assert_eq!(
            relative(&skill_dirs(&dir), &dir),
            [
                ("a/near".to_owned(), 2),
                ("a/b/deep".to_owned(), 3),
                ("c/d/e/deeper".to_owned(), 4)
            ]
        );
        assert_eq!(relative(&nearest(&dir), &dir), [("a/near".to_owned(), 2)]);
        assert_eq!(nearest(&dir).folders_without_skill, ["a", "c"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_back_up_is_listed_not_entered() {
        let dir = tree("loop", &["x/s"]);
        for name in ["l0", "l1", "l2"] {
            std::os::unix::fs::symlink(".", dir.join("x").join(name)).unwrap();
        }
        let nested = skill_dirs(&dir);
        assert_eq!(relative(&nested, &dir), [("x/s".to_owned(), 2)]);
        assert!(!nested.truncated);
    }
}
