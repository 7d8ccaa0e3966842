//! A root loaded, then loaded again after changes its caller names, at the
//! cost of the skills that changed.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use skills_compiler::again::Kept;
use skills_compiler::emit::lower;
use skills_compiler::{Config, Diagnostic, ir};

use super::load::{LoadError, Loader};
use crate::set::SkillSet;

/// A skills root loaded once, then again after each change its caller
/// names: the skills whose folders changed are read and checked again,
/// every other skill is kept as it was (shared with the set before, not
/// copied), and the checks of the set (limits, duplicates, similar
/// descriptions, the lock) run over all of them, so each reload gives what
/// a whole [`Loader::load`] gives. A skill whose checks look into another
/// folder (a link into another skill, a flat skill's links, a folder that
/// is a symlink) is read on every reload. [`Watch`](super::Watch) is this
/// driven by the file system's events; a host with its own watcher, or an
/// editor that knows what it saved, uses it directly.
///
/// ```no_run
/// use skills::loader::{Loader, Reloading};
///
/// let mut skills = Reloading::start(Loader::new(), "skills")?;
/// // ... `skills/pdf/SKILL.md` was saved:
/// skills.reload(["skills/pdf/SKILL.md"])?;
/// let set = skills.set(); // an Arc<SkillSet>: every skill but `pdf` as it was
/// # Ok::<(), skills::loader::LoadError>(())
/// ```
pub struct Reloading {
    loader: Loader,
    root: PathBuf,
    /// The root as a changed path may name it: as given, absolute, and
    /// with its links resolved (a watcher reports any of them).
    places: Vec<PathBuf>,
    /// The last compilation, entry by entry.
    kept: Kept,
    /// The skills read since the set in use was made: a reload that failed
    /// read them, so the set in use still holds them as they were.
    unlowered: BTreeSet<String>,
    set: Arc<SkillSet>,
    warnings: Vec<Diagnostic>,
}

impl std::fmt::Debug for Reloading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reloading")
            .field("root", &self.root)
            .field("skills", &self.set.len())
            .finish_non_exhaustive()
    }
}

impl Reloading {
    /// Loads `root` whole; an error when it does not load, as
    /// [`Loader::load`] refuses it.
    pub fn start(loader: Loader, root: impl Into<PathBuf>) -> Result<Reloading, LoadError> {
        let root = root.into();
        let mut places = vec![root.clone()];
        places.extend(std::path::absolute(&root).ok());
        places.extend(root.canonicalize().ok());
        places.dedup();
        let mut reloading = Reloading {
            loader,
            root,
            places,
            kept: Kept::default(),
            unlowered: BTreeSet::new(),
            set: Arc::new(SkillSet::owned(Vec::new())),
            warnings: Vec::new(),
        };
        reloading.load(&BTreeSet::new())?;
        Ok(reloading)
    }

    /// Loads the root again after `changed` (files or folders, absolute or
    /// as the root was given, that were written, added or removed). A path
    /// that is no skill's (the root itself, a `.gitignore` in it, a path
    /// elsewhere) reads the root whole. On an error the set in use stays.
    pub fn reload<P: AsRef<Path>>(
        &mut self,
        changed: impl IntoIterator<Item = P>,
    ) -> Result<(), LoadError> {
        let mut entries = BTreeSet::new();
        for path in changed {
            match self.entry_of(path.as_ref()) {
                Some(entry) => entries.insert(entry),
                None => return self.reload_all(),
            };
        }
        self.load(&entries)
    }

    /// Loads the root again whole: every skill read and checked.
    pub fn reload_all(&mut self) -> Result<(), LoadError> {
        self.kept.forget();
        self.load(&BTreeSet::new())
    }

    /// The set in use: the last one that loaded.
    pub fn set(&self) -> &Arc<SkillSet> {
        &self.set
    }

    /// The warnings of the set in use.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The root loaded.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The entry of the root that `path` is in, as the compiler names it.
    fn entry_of(&self, path: &Path) -> Option<String> {
        let relative = self
            .places
            .iter()
            .find_map(|root| path.strip_prefix(root).ok())?;
        Kept::entry_of(relative)
    }

    /// Compiles the root again, reading `changed` and what cannot be
    /// kept, and makes the valid skills a set with the unchanged ones shared.
    fn load(&mut self, changed: &BTreeSet<String>) -> Result<(), LoadError> {
        let config = Config {
            dir: self.root.clone(),
            ..self.loader.config().clone()
        };
        let again = self.kept.compile(&config, changed);
        self.unlowered.extend(again.read);
        let before: HashMap<&str, &Arc<skills_core::Skill>> = self
            .set
            .shared_skills()
            .iter()
            .map(|skill| (skill.path(), skill))
            .collect();
        let loaded = self
            .loader
            .loaded_with(again.compilation, &self.root, |valid| {
                set_again(valid, &self.unlowered, &before)
            })?;
        let (set, warnings) = loaded.into_parts();
        self.set = Arc::new(set);
        self.warnings = warnings;
        self.unlowered.clear();
        Ok(())
    }
}

/// The valid skills as a set: a skill not `read` since the set `before`
/// was made is the one `before` holds at its path, shared; the others are
/// lowered with their files read (S508 when one cannot be).
fn set_again(
    valid: &ir::SkillSet,
    read: &BTreeSet<String>,
    before: &HashMap<&str, &Arc<skills_core::Skill>>,
) -> Result<SkillSet, Vec<Diagnostic>> {
    let kept = |skill: &ir::Skill| {
        before
            .get(skill.path())
            .filter(|_| !read.contains(skill.path()))
            .map(|&kept| Arc::clone(kept))
    };
    let mut skills = Vec::with_capacity(valid.skills.len());
    let mut fresh = Vec::new();
    for skill in &valid.skills {
        match kept(skill) {
            Some(kept) => skills.push(kept),
            None => fresh.push(&**skill),
        }
    }
    skills.extend(lower::each(fresh)?.into_iter().map(Arc::new));
    Ok(SkillSet::shared(skills))
}
