//! A root compiled again after a change: the entries that changed are read
//! and checked again, the others are taken as they were, and the set's
//! checks run over all of them. What a loader that follows its files does
//! after an edit, at the cost of one skill instead of the whole root.
//!
//! The outcome is the one a whole compile gives: an entry is kept only
//! when nothing it was checked against can have changed. An entry is read
//! again when it is named as changed, when it is new, when it is a symlink
//! (to another entry), and when its skill file names a path elsewhere in
//! the root (a link into another skill, or any link of a flat skill),
//! whose check looks at another entry on disk. The set's checks (limits,
//! duplicates, similar descriptions, the budget, the lock) always run.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path};

use super::compile::{Checked, Compilation, assemble, check_in_root};
use super::vendored::Vendored;
use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::lock;
use crate::read::discover::{Entry, Root, SkillFiles};
use crate::read::layout::is_ignored_root_entry;

/// A root's last compilation, kept entry by entry for the next one.
///
/// ```
/// use std::collections::BTreeSet;
/// use skills_compiler::{Config, again::Kept};
///
/// let dir = std::env::temp_dir().join(format!("skills-again-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("pdf")).unwrap();
/// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Reads PDF files.\n---\nRead them.\n").unwrap();
/// let config = Config { dir: dir.clone(), ..Config::default() };
///
/// let mut kept = Kept::default();
/// assert!(!kept.compile(&config, &BTreeSet::new()).compilation.has_errors()); // every entry read
/// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\n---\n").unwrap();
/// let changed = BTreeSet::from(["pdf".to_owned()]);
/// let again = kept.compile(&config, &changed);
/// assert!(again.compilation.has_errors());
/// assert_eq!(again.read.len(), 1); // `pdf` alone read again
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Default)]
pub struct Kept {
    /// The configuration the entries were checked under: another one (a
    /// profile, a limit, a lint level) checks every entry anew.
    config: Option<Config>,
    entries: HashMap<String, KeptEntry>,
}

/// A root compiled again.
#[derive(Debug)]
pub struct Again {
    /// What a whole compile of the root gives.
    pub compilation: Compilation,
    /// The skills read this time, by their skill file's path (the IR's
    /// `path`); every other skill is as the last compile read it.
    pub read: BTreeSet<String>,
}

/// What one entry of the root gave when it was last read.
#[derive(Debug)]
struct KeptEntry {
    /// Discovery's problems with it, before the levels.
    problems: Vec<Diagnostic>,
    /// Its skills (nested ones after it), each checked on its own.
    checked: Vec<Checked>,
    /// Its check looked at other entries of the root: never kept.
    looks_outside: bool,
}

impl Kept {
    /// Compiles the root `config.dir` as [`compile`](super::compile)
    /// does, reading again only the entries named in `changed` (by their
    /// names in the root, see [`Kept::entry_of`]) and those it cannot keep;
    /// the first call, and a call with another `config`, reads every entry.
    /// The result is kept for the next.
    pub fn compile(&mut self, config: &Config, changed: &BTreeSet<String>) -> Again {
        if self.config.as_ref() != Some(config) {
            self.entries.clear();
            self.config = Some(config.clone());
        }
        let base = Path::new("");
        let mut diagnostics = Vec::new();
        let shared = crate::read::shared::Shared::default();
        let Some(root) = Root::open(base, config, &shared, &mut diagnostics) else {
            self.entries.clear();
            return Again {
                compilation: locked(assemble(Vec::new(), config, diagnostics), config),
                read: BTreeSet::new(),
            };
        };
        // Read again each time: the lock decides which skills are vendored.
        let vendored = Vendored::of(base, config);
        let mut before = std::mem::take(&mut self.entries);
        let entries: Vec<(&Entry, Option<KeptEntry>)> = root
            .entries()
            .iter()
            .map(|entry| {
                let kept = before
                    .remove(entry.name())
                    .filter(|kept| keeps(kept, entry, changed));
                (entry, kept)
            })
            .collect();
        let entries = crate::parallel::map_in_order(entries, |(entry, kept)| match kept {
            Some(kept) => (entry.name().to_owned(), kept, false),
            None => (
                entry.name().to_owned(),
                read_entry(&root, entry, config, vendored.as_ref()),
                true,
            ),
        });
        let mut problems = Vec::new();
        let mut checked = Vec::new();
        let mut read = BTreeSet::new();
        for (_, entry, fresh) in &entries {
            problems.extend(entry.problems.iter().cloned());
            checked.extend(entry.checked.iter().cloned());
            if *fresh {
                read.extend(entry.checked.iter().map(|one| one.file().to_owned()));
            }
        }
        root.none_found(checked.len(), &mut problems);
        diagnostics.extend(problems);
        self.entries = entries
            .into_iter()
            .map(|(name, entry, _)| (name, entry))
            .collect();
        Again {
            compilation: locked(assemble(checked, config, diagnostics), config),
            read,
        }
    }

    /// The entry of the root that a changed path (relative to the root)
    /// belongs to; `None` when the change is to the root itself or to an
    /// entry that is no skill but can change every skill (a `.gitignore`):
    /// then [`Kept::forget`] and compile again.
    pub fn entry_of(relative: &Path) -> Option<String> {
        match relative.components().next()? {
            Component::Normal(name) => {
                let name = name.to_str()?;
                (!is_ignored_root_entry(name)).then(|| name.to_owned())
            }
            _ => None,
        }
    }

    /// Keeps nothing: the next compile reads every entry.
    pub fn forget(&mut self) {
        self.entries.clear();
    }

    /// How many entries are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Whether `kept` still stands for `entry`.
fn keeps(kept: &KeptEntry, entry: &Entry, changed: &BTreeSet<String>) -> bool {
    !kept.looks_outside && !entry.is_symlink() && !changed.contains(entry.name())
}

fn read_entry(
    root: &Root<'_>,
    entry: &Entry,
    config: &Config,
    vendored: Option<&Vendored>,
) -> KeptEntry {
    let (files, problems) = root.read_entry(entry);
    let mut looks_outside = false;
    let checked = files
        .into_iter()
        .map(|files| {
            looks_outside |= may_look_outside(&files);
            check_in_root(files, config, vendored)
        })
        .collect();
    KeptEntry {
        problems,
        checked,
        looks_outside,
    }
}

fn may_look_outside(files: &SkillFiles) -> bool {
    let dir = files.dir.as_ref().map(|dir| dir.path.as_str());
    crate::validate::may_look_outside(&String::from_utf8_lossy(&files.bytes), dir)
}

/// The lock's check, as a whole compile adds it (`locked = true`).
fn locked(mut compilation: Compilation, config: &Config) -> Compilation {
    if config.locked {
        let locks = lock::check::ReadLocks::default();
        compilation.check_lock(&locks, Path::new(""), config, lock::check::Scope::Root);
    }
    compilation
}
