//! The files git ignores are not files of a skill: a `.env`, a build
//! output or a virtualenv the author never committed is not compiled in,
//! as `cargo package` leaves it out of a crate. The rules are git's own
//! `.gitignore` files, read by ripgrep's matcher: those of the work tree
//! around the skill (its top down to the skill directory, and
//! `.git/info/exclude`), and those inside the skill, read as the walk
//! enters each folder. Only entries inside the skill are matched, so a
//! skill that itself lies in an ignored folder (a test's `target/`) keeps
//! its files. Outside a git work tree no rule applies.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::read::work_tree::WorkTrees;

/// The name of a folder's git rules.
pub(crate) const GITIGNORE: &str = ".gitignore";

/// The `.gitignore` rules in force at one point of a walk, outermost first.
/// Those above a skills root are read once per root and shared by its
/// skills (a `.gitignore` is parsed into a matcher, which is not free).
#[derive(Clone)]
pub(crate) struct GitRules {
    /// The work tree's top, which the rules' names are shown relative to.
    top: PathBuf,
    /// The folder the rules were gathered down to, canonical: a skills root,
    /// then the skill directory whose entries are matched by their path
    /// under it.
    folder: PathBuf,
    rules: Vec<Arc<Rules>>,
}

/// One `.gitignore` (or `info/exclude`) and how it is shown.
struct Rules {
    matcher: Gitignore,
    shown: String,
}

impl GitRules {
    /// The rules in force in the folder `root` (its own `.gitignore`
    /// included), or `None` when it is not in a git work tree; the folders
    /// on the way are looked at through `work_trees`, once a run.
    pub(crate) fn at_root(root: &Path, work_trees: &WorkTrees) -> Option<GitRules> {
        let root = work_trees.resolve(root)?;
        let top = work_trees.top_of(&root)?;
        let mut found = GitRules {
            top: top.clone(),
            folder: top.clone(),
            rules: Vec::new(),
        };
        found.add(&top, &top.join(".git").join("info").join("exclude"));
        found.add(&top, &top.join(GITIGNORE));
        found.descend_to(&root, true);
        Some(found)
    }

    /// These rules, carried down to the skill directory `dir` below the
    /// root: the `.gitignore` files on the way are added, the skill's own
    /// is the walk's to add when it enters it. `None` when `dir` leads out
    /// of the root's work tree (a link), where these rules do not hold.
    pub(crate) fn for_skill(&self, dir: &Path) -> Option<GitRules> {
        let dir = dir.canonicalize().ok()?;
        if !dir.starts_with(&self.top) {
            return None;
        }
        let mut found = self.clone();
        found.descend_to(&dir, false);
        Some(found)
    }

    /// [`Self::for_skill`] for the skill directory `name` in the root,
    /// reached without a symlink: its resolved path is the root's with
    /// `name` added, so it is not resolved again (a system call per
    /// component: in a work tree, a check resolved every skill's path).
    pub(crate) fn for_skill_named(&self, name: &str) -> GitRules {
        let dir = self.full(name);
        let mut found = self.clone();
        found.descend_to(&dir, false);
        found
    }

    /// Adds the `.gitignore` of every folder below [`Self::folder`] down to
    /// `to` (and of `to` itself when `including`), then stands at `to`.
    fn descend_to(&mut self, to: &Path, including: bool) {
        let mut between: Vec<PathBuf> = to
            .ancestors()
            .skip(usize::from(!including))
            .take_while(|folder| folder.starts_with(&self.folder) && *folder != self.folder)
            .map(Path::to_path_buf)
            .collect();
        between.reverse();
        for folder in between {
            self.add(&folder, &folder.join(GITIGNORE));
        }
        self.folder = to.to_path_buf();
    }

    /// Adds the `.gitignore` of the skill's folder `relative` (`""` for the
    /// skill directory, `scripts/`), if it has one; says whether it did, so
    /// that the walk [`leave`](Self::leave)s it when done with the folder.
    pub(crate) fn enter(&mut self, relative: &str) -> bool {
        let folder = self.full(relative);
        self.add(&folder, &folder.join(GITIGNORE))
    }

    /// Drops the rules the last [`enter`](Self::enter) added.
    pub(crate) fn leave(&mut self) {
        self.rules.pop();
    }

    /// Why git ignores the skill's entry `relative` (`assets/key.secret`),
    /// as "`*.secret` in `.gitignore`"; `None` when it does not. The
    /// deepest file that says something decides, and `!pattern` keeps a
    /// file.
    pub(crate) fn ignoring(&self, relative: &str, is_dir: bool) -> Option<String> {
        let full = self.full(relative);
        for rules in self.rules.iter().rev() {
            match rules.matcher.matched(&full, is_dir) {
                Match::Ignore(glob) => {
                    return Some(format!("`{}` in `{}`", glob.original(), rules.shown));
                }
                Match::Whitelist(_) => return None,
                Match::None => {}
            }
        }
        None
    }

    fn add(&mut self, folder: &Path, file: &Path) -> bool {
        if !file.is_file() {
            return false;
        }
        let mut builder = GitignoreBuilder::new(folder);
        // A line that is not a glob is skipped, as git skips it.
        let _ = builder.add(file);
        let Ok(matcher) = builder.build() else {
            return false;
        };
        let shown = file
            .strip_prefix(&self.top)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_else(|_| GITIGNORE.to_owned());
        self.rules.push(Arc::new(Rules { matcher, shown }));
        true
    }

    fn full(&self, relative: &str) -> PathBuf {
        relative
            .split('/')
            .filter(|part| !part.is_empty())
            .fold(self.folder.clone(), |path, part| path.join(part))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skill named in its root gets, without resolving its path, the
    /// rules that resolving it gives: the same folder, the same files read
    /// on the way, the same answers for every entry (its own `.gitignore`
    /// and a subfolder's entered as the walk enters them).
    #[test]
    fn a_skill_named_in_its_root_gets_the_rules_its_resolved_path_gets() {
        let dir = std::env::temp_dir().join(format!("skills-gitignore-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in [
            (".git/info/exclude", "*.tmp\n"),
            (".gitignore", "*.secret\n"),
            ("skills/.gitignore", "drafts/\n"),
            ("skills/a/.gitignore", "!keep.secret\n*.log\n"),
            ("skills/a/sub/.gitignore", "out/\n"),
        ] {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        // Named with `.` in it, as a root often is (`cargo skills check .`).
        let work_trees = WorkTrees::default();
        let root = GitRules::at_root(&dir.join("skills/."), &work_trees).expect("a work tree");
        let mut resolved = root.for_skill(&dir.join("skills/a")).expect("inside");
        let mut named = root.for_skill_named("a");
        assert_eq!(
            (&named.top, &named.folder),
            (&resolved.top, &resolved.folder)
        );
        assert_eq!(named.rules.len(), resolved.rules.len());
        for rules in [&mut resolved, &mut named] {
            assert!(rules.enter(""));
            assert!(rules.enter("sub/"));
        }
        for (entry, is_dir) in [
            ("x.secret", false),
            ("keep.secret", false),
            ("a.log", false),
            ("drafts", true),
            ("sub/out", true),
            ("sub/y.tmp", false),
            ("notes.md", false),
        ] {
            assert_eq!(
                named.ignoring(entry, is_dir),
                resolved.ignoring(entry, is_dir),
                "{entry}"
            );
        }
        assert_eq!(named.ignoring("keep.secret", false), None);
        assert!(named.ignoring("sub/out", true).is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
