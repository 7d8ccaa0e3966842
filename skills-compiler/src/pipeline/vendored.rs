//! Vendored skills are someone else's files. A skill that the root's lock
//! records came from elsewhere (`cargo skills add`, Vercel's CLI): editing
//! it would break the lock, so it is held to the rules hosts load skills by
//! (`vendored_profile`, `lenient` by default) while the package's own
//! skills keep the package's profile, and each of its diagnostics names the
//! upstream to report it to.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::config::Config;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::lock::check::{find, read};
use crate::read::discover::SkillFiles;

/// The skills of one root that its lock records, and the rules they are
/// checked by.
pub(crate) struct Vendored {
    /// The configuration with the vendored profile.
    config: Config,
    /// Each locked folder's source, as the lock gives it (`owner/repo`).
    sources: HashMap<String, String>,
    /// The root as diagnostics show it (`skills`).
    root: String,
    /// The lock as diagnostics show it.
    lock: String,
}

impl Vendored {
    /// The vendored skills of `config.dir`, when a lock records any. An
    /// unreadable lock gives none: `locked` and `check --locked` report it.
    pub(crate) fn of(base: &Path, config: &Config) -> Option<Vendored> {
        let path = config
            .lock_file
            .clone()
            .or_else(|| find(base, &config.dir))?;
        let read = read(base, &path).ok()?;
        let lock_dir = base.join(path.parent().unwrap_or(Path::new("")));
        let root = base.join(&config.dir);
        let sources: HashMap<String, String> = read
            .lock
            .entries()
            .filter(|(name, entry)| !is_own(entry, &lock_dir, &root.join(name)))
            .map(|(name, entry)| (name.to_owned(), entry.source().unwrap_or("?").to_owned()))
            .collect();
        if sources.is_empty() {
            return None;
        }
        Some(Vendored {
            config: Config {
                profile: config.vendored_profile,
                ..config.clone()
            },
            sources,
            root: crate::read::discover::display_path(&config.dir),
            lock: read.source.path().to_owned(),
        })
    }

    /// Whether the lock records the skill folder `folder` (as diagnostics
    /// show it, `skills/pdf`) from a source: a skill compiled on its own,
    /// not through its root, is looked up in its root's lock.
    pub(crate) fn records(base: &Path, config: &Config, folder: &str) -> bool {
        let path = Path::new(folder);
        let (Some(root), Some(name)) = (path.parent(), path.file_name()) else {
            return false;
        };
        let root_config = Config {
            dir: root.to_path_buf(),
            ..config.clone()
        };
        Vendored::of(base, &root_config)
            .is_some_and(|vendored| vendored.sources.contains_key(&*name.to_string_lossy()))
    }

    /// The configuration `files` is checked with, and the source it was
    /// vendored from: a folder of the root that the lock names (a skill
    /// nested in it is part of it, and keeps the package's rules only when
    /// the lock does not cover its folder).
    pub(crate) fn of_skill(&self, files: &SkillFiles) -> Option<(&Config, &str)> {
        let dir = files.dir.as_ref()?;
        // A folder of the root itself (`skills/pdf`, or `pdf` in the root `.`).
        let parent = dir.path.rsplit_once('/').map_or(".", |(parent, _)| parent);
        if parent != self.root {
            return None;
        }
        let source = self.sources.get(&files.directory)?;
        Some((&self.config, source))
    }

    /// Says, in each of a vendored skill's diagnostics, where to fix it.
    pub(crate) fn annotate(&self, name: &str, source: &str, diagnostics: &mut [Diagnostic]) {
        let note = format!(
            "`{name}` is vendored from `{}` ({}): report it there, since an edit here breaks the lock",
            skills_core::printable(source),
            self.lock
        );
        for diagnostic in diagnostics {
            diagnostic.help = Some(match diagnostic.help.take() {
                Some(help) => format!("{help}; {note}"),
                None => note.clone(),
            });
        }
    }
}

/// Whether `entry` records a skill of the package itself: `cargo skills
/// lock` writes a package's own skills as local copies of their own folder
/// (`dir`), to hold them to the lock; they keep the package's rules.
fn is_own(entry: &crate::lock::Entry, lock_dir: &Path, dir: &Path) -> bool {
    if entry.source_type() != Some(crate::lock::file::source_type::LOCAL) {
        return false;
    }
    let source = lock_dir.join(entry.source().unwrap_or_default());
    match (std::fs::canonicalize(source), std::fs::canonicalize(dir)) {
        (Ok(source), Ok(dir)) => source == dir,
        _ => false,
    }
}

/// `diagnostics` with each vendored skill's warnings (`vendored`: folder to
/// upstream) replaced by one W027 on its folder, which counts them by code;
/// in order otherwise.
pub(crate) fn summarise(
    diagnostics: &[Diagnostic],
    vendored: &BTreeMap<String, String>,
) -> Vec<Diagnostic> {
    let folder_of = |file: &str| {
        vendored
            .keys()
            .find(|folder| {
                file.strip_prefix(folder.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .cloned()
    };
    let mut folded: BTreeMap<String, BTreeMap<Code, usize>> = BTreeMap::new();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        match folder_of(&diagnostic.file).filter(|_| diagnostic.severity == Severity::Warning) {
            Some(folder) => {
                *folded
                    .entry(folder)
                    .or_default()
                    .entry(diagnostic.code)
                    .or_default() += 1
            }
            None => kept.push(diagnostic.clone()),
        }
    }
    for (folder, codes) in folded {
        let total: usize = codes.values().sum();
        let counts: Vec<String> = codes
            .iter()
            .map(|(code, n)| match n {
                1 => code.to_string(),
                n => format!("{code} ×{n}"),
            })
            .collect();
        let name = folder.rsplit('/').next().unwrap_or(&folder);
        let source = skills_core::printable(&vendored[&folder]);
        kept.push(
            Diagnostic::warning(
                Code::VendoredWarnings,
                folder.clone(),
                format!(
                    "`{name}`, vendored from `{source}`, has {total} warning{}: {}",
                    if total == 1 { "" } else { "s" },
                    counts.join(", ")
                ),
            )
            .with_help(format!(
                "`--verbose` shows each; report them to `{source}`, since an edit here breaks the lock, or set their level in `[package.metadata.skills.lints]`"
            )),
        );
    }
    crate::diagnostics::sort(&mut kept);
    kept
}
