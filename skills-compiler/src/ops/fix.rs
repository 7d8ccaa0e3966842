//! `fix`: every machine-applicable fix-it, planned (as `cargo fix` applies
//! rustc's). Which fix-its are safe and how they change the bytes is
//! `write::fix`; this gathers them over the targets
//! into one [`Plan`], with what they leave.

use super::plan::{Change, Plan, Rename};
use super::targets::Target;
use crate::config::{Config, Profile};
use crate::diagnostics::Applicability;
use crate::diagnostics::Diagnostic;
use crate::write::{fix, provenance, renames};
// One skill's fix-its applied in memory, and its rewrite for another
// profile: what `fix` plans, for a caller that holds the files.
pub use crate::write::fix::{Fixed, Migration, Skipped, skill, to_profile};

/// The fix-its that rename a skill file (`skill.md` to `SKILL.md`, S502),
/// a plan of their own: discovery reads a skill only under its right name,
/// so the other fix-its are planned once these are applied.
pub fn file_name_case(targets: &[Target]) -> Plan {
    let mut problems = Vec::new();
    for target in targets {
        target.files(&mut problems);
    }
    let renames = problems
        .iter()
        .filter_map(|diagnostic| {
            let fix = diagnostic.fix.as_ref()?;
            let to = fix.renamed_to()?;
            (fix.applicability == Applicability::MachineApplicable).then(|| Rename {
                from: diagnostic.file.clone(),
                to: to.to_owned(),
                code: Some(diagnostic.code),
            })
        })
        .collect();
    Plan {
        renames,
        ..Plan::default()
    }
}

/// How a `fix` run ends: planned only (`--dry-run`), or applied under
/// these guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Plan both phases; write nothing.
    DryRun,
    /// Apply each phase as it is planned.
    Apply(super::Guards),
}

/// A whole `fix` run, both phases: the file-name renames, then every
/// other fix-it planned on what discovery finds after them.
#[derive(Debug)]
pub struct Run {
    /// The renames of `skill.md` to `SKILL.md` (S502), planned first.
    pub file_names: Plan,
    /// What applying them did (`None` in a dry run).
    pub file_names_applied: Option<super::Applied>,
    /// The other fix-its, planned after the renames.
    pub fixes: Fixes,
    /// What applying them did, or why it was refused (`None` in a dry
    /// run). The first phase stays applied either way: it is reported.
    pub applied: Option<Result<super::Applied, super::Error>>,
}

/// Runs `fix` over `targets` in its two phases. A refusal of the first
/// phase stops the run with nothing written.
pub fn run(targets: &[Target], to: Option<Profile>, mode: Mode) -> Result<Run, super::Error> {
    let file_names = file_name_case(targets);
    let file_names_applied = match mode {
        Mode::DryRun => None,
        Mode::Apply(guards) => Some(super::apply(&file_names, guards)?),
    };
    // Discovery reads a skill only as `SKILL.md`: planned after the renames.
    let fixes = plan(targets, to);
    let applied = match mode {
        Mode::DryRun => None,
        Mode::Apply(guards) => Some(super::apply(&fixes.plan, guards)),
    };
    Ok(Run {
        file_names,
        file_names_applied,
        fixes,
        applied,
    })
}

/// What `fix` will do, and what it leaves.
#[derive(Debug, Clone, Default)]
pub struct Fixes {
    /// The files rewritten and the skill folders renamed.
    pub plan: Plan,
    /// Each fix-it applied (none for a rewrite to a profile).
    pub applied: Vec<fix::Applied>,
    /// The problems no fix-it settles, sorted.
    pub remaining: Vec<Diagnostic>,
    /// What a rewrite assumed or left alone, one line each.
    pub notes: Vec<String>,
    /// Renames that cannot be done (a name taken, two skills to one name):
    /// [`apply`](fn@super::apply) refuses the plan while there are any.
    pub collisions: Vec<String>,
}

/// Every fix-it of the targets' skills; with `to`, each skill rewritten
/// for that profile instead (what `lenient` assumed, written out).
pub fn plan(targets: &[Target], to: Option<Profile>) -> Fixes {
    let mut fixes = Fixes::default();
    for target in targets {
        for files in target.files(&mut fixes.remaining) {
            match to {
                None => fixes.add(fix::skill(files, &target.config)),
                Some(profile) => {
                    let config = Config {
                        profile,
                        ..target.config.clone()
                    };
                    fixes.migrate(fix::to_profile(files, &config));
                }
            }
        }
    }
    let pairs: Vec<(String, String)> = fixes
        .plan
        .renames
        .iter()
        .map(|rename| (rename.from.clone(), rename.to.clone()))
        .collect();
    fixes.collisions = renames::plan(&pairs).err().unwrap_or_default();
    crate::diagnostics::sort(&mut fixes.remaining);
    fixes
}

impl Fixes {
    fn add(&mut self, fixed: fix::Fixed) {
        self.plan.changes.extend(fixed.changes);
        self.applied.extend(fixed.applied);
        self.remaining.extend(fixed.remaining);
    }

    fn migrate(&mut self, migration: Result<fix::Migration, fix::Skipped>) {
        match migration {
            Ok(migration) => {
                self.notes.extend(migration.notes);
                self.plan.changes.extend(migration.changes);
                self.plan
                    .renames
                    .extend(migration.rename.map(|(from, to)| Rename {
                        from,
                        to,
                        code: None,
                    }));
                self.remaining.extend(migration.remaining);
            }
            Err(skipped) => {
                self.notes
                    .push(format!("left as it is: {}", skipped.reason));
                self.remaining.extend(skipped.remaining);
            }
        }
    }

    /// The fix-its applied to `path`, in the order they were.
    pub fn applied_to<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a fix::Applied> {
        self.applied.iter().filter(move |fix| fix.file == path)
    }
}

/// What `fix --strip-provenance` will do.
#[derive(Debug, Clone, Default)]
pub struct Stripped {
    /// Each skill file without the provenance keys other installers wrote.
    pub plan: Plan,
    /// How many skill files were read.
    pub files_seen: usize,
    /// A file left alone, and why.
    pub notes: Vec<String>,
    /// What discovery could not read.
    pub problems: Vec<Diagnostic>,
}

/// Each skill file with its install provenance taken out (`gh skill`'s
/// `metadata.github-*`, skill-embed's `x-embedded-*`), line by line.
pub fn strip_provenance(targets: &[Target]) -> Stripped {
    let mut stripped = Stripped::default();
    let mut problems = Vec::new();
    for target in targets {
        for files in target.files(&mut problems) {
            stripped.files_seen += 1;
            let before = String::from_utf8_lossy(&files.bytes).into_owned();
            match provenance::strip(&files.path, &before, &target.config) {
                Ok(Some(after)) => stripped.plan.changes.push(Change {
                    path: files.path,
                    before,
                    after,
                }),
                Ok(None) => {}
                Err(reason) => stripped
                    .notes
                    .push(format!("{} left as it is: {reason}", files.path)),
            }
        }
    }
    stripped.problems = problems.into_iter().filter(Diagnostic::is_error).collect();
    stripped
}
