//! What the skills of one run share: a command line that names a thousand
//! skills of one collection has one parent folder and one `exclude` list,
//! so their `.gitignore` rules and their compiled globs are made once, not
//! once a skill (the git work-tree search alone cost 15 system calls a
//! skill: a `readlink` per path component, a `stat` per folder upwards).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::read::files::Exclude;
use crate::read::gitignore::GitRules;
use crate::read::work_tree::WorkTrees;

/// The rules a run reads once and every skill of it uses: each skills
/// root's `.gitignore` rules, each `exclude` list compiled. Made by a
/// front end for one run (`cargo skills check a b c ...`) and dropped with
/// it, so that a long-lived process (a watch) reads edited rules again.
///
/// ```
/// let shared = skills_compiler::Shared::default();
/// # let _ = shared;
/// ```
#[derive(Default)]
pub struct Shared {
    git_rules: Mutex<HashMap<PathBuf, Arc<Option<GitRules>>>>,
    work_trees: WorkTrees,
    excludes: Mutex<HashMap<Vec<String>, Arc<Exclude>>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("roots", &self.lock_rules().len())
            .finish_non_exhaustive()
    }
}

impl Shared {
    /// The `.gitignore` rules in force in the folder `root`, read on its
    /// first skill.
    pub(crate) fn git_rules(&self, root: &Path) -> Arc<Option<GitRules>> {
        if let Some(known) = self.lock_rules().get(root) {
            return Arc::clone(known);
        }
        // Read outside the lock: two threads may read the same root once
        // each, and the first kept wins; neither waits on the other's I/O.
        let read = Arc::new(GitRules::at_root(root, &self.work_trees));
        Arc::clone(self.lock_rules().entry(root.to_path_buf()).or_insert(read))
    }

    /// `config`'s `exclude` patterns, compiled on first use.
    pub(crate) fn exclude(&self, config: &Config) -> Result<Arc<Exclude>, Diagnostic> {
        let mut excludes = self.excludes.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = excludes.get(&config.exclude) {
            return Ok(Arc::clone(known));
        }
        let compiled = Arc::new(Exclude::new(config)?);
        excludes.insert(config.exclude.clone(), Arc::clone(&compiled));
        Ok(compiled)
    }

    fn lock_rules(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Option<GitRules>>>> {
        self.git_rules
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
