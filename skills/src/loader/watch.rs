//! A loaded set that follows its files (feature `watch`): every change under
//! the root, debounced, reloads it. A valid reload replaces the set; a broken
//! one keeps the last good set in use and makes its diagnostics available.
//!
//! A reload reads only the skills whose folders changed (and those whose
//! checks look into other folders), keeps every other skill as it was, and
//! runs the set's checks over all: the outcome a whole load gives, at the
//! cost of one skill (`skills_compiler::again`). A change that is no
//! skill's (the root itself, a `.gitignore` in it) reads the root whole.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::load::{LoadError, Loader};
use super::reloading::Reloading;
use crate::set::SkillSet;
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{
    DebounceEventResult, DebouncedEvent, Debouncer, RecommendedCache, new_debouncer_opt,
};

/// What one reload gave.
#[derive(Debug, Clone)]
pub enum Reload {
    /// The new set is in use.
    Loaded {
        /// How many skills the new set has.
        skills: usize,
        /// How many warnings they have.
        warnings: usize,
    },
    /// The files are broken: the previous set stays in use.
    Failed(Arc<LoadError>),
    /// The watcher itself reported a problem (the root vanished, say).
    WatchError(String),
}

struct State {
    /// The set in use, and what the next reload needs of the last.
    skills: Reloading,
    last_error: Option<Arc<LoadError>>,
    reloads: u64,
}

/// A skills root loaded once and again on every change.
///
/// ```no_run
/// use std::time::Duration;
/// use skills::loader::{Loader, Watch};
///
/// let watch = Watch::start(Loader::new(), "skills", Duration::from_millis(200), |reload| {
///     eprintln!("{reload:?}");
/// })?;
/// let set = watch.current(); // an Arc<SkillSet>, cheap to take per request
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Watch {
    state: Arc<Mutex<State>>,
    root: PathBuf,
    // Dropping it stops watching.
    _debouncer: Debouncer<notify_debouncer_full::notify::RecommendedWatcher, RecommendedCache>,
}

/// Why watching could not start.
#[derive(Debug)]
pub enum WatchError {
    /// The first load failed: there is no set to start from.
    Load(LoadError),
    /// The file watcher could not be set up.
    Notify(String),
}

impl std::fmt::Display for WatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WatchError::Load(error) => error.fmt(f),
            WatchError::Notify(message) => write!(f, "cannot watch the skills root: {message}"),
        }
    }
}

impl std::error::Error for WatchError {}

impl Watch {
    /// Loads `root`, then reloads it `debounce` after each burst of changes,
    /// calling `on_reload` with the outcome (on the watcher's thread).
    pub fn start(
        loader: Loader,
        root: impl Into<PathBuf>,
        debounce: Duration,
        on_reload: impl Fn(&Reload) + Send + 'static,
    ) -> Result<Watch, WatchError> {
        let root = root.into();
        let skills = Reloading::start(loader, &root).map_err(WatchError::Load)?;
        let state = Arc::new(Mutex::new(State {
            skills,
            last_error: None,
            reloads: 0,
        }));
        let handler_state = Arc::clone(&state);
        // Links are not followed: a link inside a skill to a large tree
        // elsewhere would be watched whole (a watch per directory) and
        // reload the set on changes that are not the skills'.
        let config = notify_debouncer_full::notify::Config::default().with_follow_symlinks(false);
        let on_events = move |events: DebounceEventResult| {
            let reload = match events {
                // Reading a file is not changing it: the loader's own reads
                // raise open and access events, which would reload for ever.
                Ok(events) if events.iter().all(|event| event.kind.is_access()) => return,
                Ok(events) => reload(&handler_state, &events),
                Err(errors) => Reload::WatchError(
                    errors
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
            };
            on_reload(&reload);
        };
        let mut debouncer = new_debouncer_opt::<_, RecommendedWatcher, RecommendedCache>(
            debounce,
            None,
            on_events,
            RecommendedCache::new(),
            config,
        )
        .map_err(|error| WatchError::Notify(error.to_string()))?;
        debouncer
            .watch(&root, RecursiveMode::Recursive)
            .map_err(|error| WatchError::Notify(error.to_string()))?;
        Ok(Watch {
            state,
            root,
            _debouncer: debouncer,
        })
    }

    /// The set in use: the last one that loaded without errors.
    pub fn current(&self) -> Arc<SkillSet> {
        Arc::clone(self.lock().skills.set())
    }

    /// The diagnostics of the last reload when it failed; `None` once the
    /// files load again.
    pub fn last_error(&self) -> Option<Arc<LoadError>> {
        self.lock().last_error.clone()
    }

    /// How many reloads ran (valid or not).
    pub fn reloads(&self) -> u64 {
        self.lock().reloads
    }

    /// The root watched.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-written: each field
        // is replaced whole. So a poisoned lock is still good.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reloads what `events` changed.
fn reload(state: &Mutex<State>, events: &[DebouncedEvent]) -> Reload {
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    let changed = events
        .iter()
        .filter(|event| !event.kind.is_access())
        .flat_map(|event| &event.paths);
    let result = state.skills.reload(changed);
    state.reloads += 1;
    match result {
        Ok(()) => {
            state.last_error = None;
            Reload::Loaded {
                skills: state.skills.set().len(),
                warnings: state.skills.warnings().len(),
            }
        }
        Err(error) => {
            let error = Arc::new(error);
            state.last_error = Some(Arc::clone(&error));
            Reload::Failed(error)
        }
    }
}
