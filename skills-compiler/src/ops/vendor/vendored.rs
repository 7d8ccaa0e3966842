//! What a vendoring operation hands back: the skills it staged and
//! checked, the [`Plan`] that puts them in place (the lock's text before
//! and after, and each staged folder moved into the root), the gate's
//! verdict, and what to say before and after. [`apply`](fn@crate::ops::apply)
//! carries the plan out, as it does every other operation's.

use super::super::error::Error;
use super::super::plan::{Change, Move, Plan};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::source::Sources;
use crate::lock::file::LockFile;
use crate::read::discover::display_path;
use crate::vendoring::Prepared;
use crate::vendoring::install::Package;

/// A vendoring operation, planned: nothing is written until its plan is
/// applied, and nothing is left behind when it is dropped (the staging
/// folder and the checkouts go with it, so keep it until the plan is applied).
#[derive(Debug)]
pub struct Vendored {
    /// What the operation says before anything happens (an update's
    /// changes, upstream's side; the skills a sync leaves as they match).
    pub said: Vec<String>,
    /// The lock's change and the folder moves.
    pub plan: Plan,
    /// Why the plan must not be applied (a skill that breaks the rules
    /// vendored skills are held to without `--force`, a signature its
    /// package's `trust` refuses), said after the staged skills' problems.
    pub refused: Option<String>,
    /// What to say once the plan is applied (`Added pdf to skills/pdf
    /// from owner/repo`).
    pub done: Vec<String>,
    /// The staged skills, kept until the plan is applied.
    pub prepared: Prepared,
    /// Whether the staged skills were judged (a sync restores bytes the
    /// lock recorded, and does not judge them again).
    pub(crate) judged: bool,
}

impl Vendored {
    /// Each staged skill's diagnostics, with the files they quote.
    pub fn problems(&self) -> impl Iterator<Item = (&Diagnostic, &Sources)> {
        (self.prepared.staged.iter())
            .filter(|_| self.judged)
            .flat_map(|skill| {
                let compilation = &skill.compilation;
                (compilation.diagnostics.iter()).map(move |d| (d, &compilation.sources))
            })
    }

    /// Whether a staged skill has an error under the vendored rules.
    pub fn has_errors(&self) -> bool {
        self.judged && self.prepared.has_errors()
    }
}

/// The gate before a write: trust is never overridden, the rules only
/// with `force`.
pub(crate) fn gate(prepared: &Prepared, force: bool) -> Option<String> {
    let untrusted: Vec<&str> = (prepared.staged.iter())
        .filter(|s| s.refused_by_trust())
        .map(|s| s.name.as_str())
        .collect();
    if !untrusted.is_empty() {
        return Some(format!(
            "nothing was written: the signature of {} does not verify under the package's `trust` (the errors above say why); trust is not a rule `--force` overrides",
            untrusted.join(", ")
        ));
    }
    let invalid: Vec<&str> = (prepared.staged.iter())
        .filter(|s| s.compilation.has_errors())
        .map(|s| s.name.as_str())
        .collect();
    if invalid.is_empty() || force {
        return None;
    }
    let one = invalid.len() == 1;
    Some(format!(
        "nothing was written: {} {} errors under the rules vendored skills are held to (`vendored_profile`, `lenient` by default; `--force` writes {} anyway)",
        invalid.join(", "),
        if one { "has" } else { "have" },
        if one { "it" } else { "them" }
    ))
}

/// The plan that puts `prepared`'s staged skills in place, a folder of
/// the same name set aside, and writes its lock (when it has one).
pub(crate) fn plan_of(package: &Package, prepared: &Prepared) -> Result<Plan, Error> {
    let aside = prepared.staging_dir().join(".old");
    let moves = (prepared.staged.iter())
        .map(|skill| Move {
            from: skill.dir.clone(),
            to: package.base.join(&skill.target),
            aside: Some(aside.join(&skill.name)),
        })
        .collect();
    let changes = match prepared.lock_after() {
        Some(lock) => vec![lock_change(package, lock)?],
        None => Vec::new(),
    };
    Ok(Plan {
        changes,
        moves,
        ..Plan::default()
    })
}

/// The lock's text now (empty when there is none yet) and `lock`'s.
pub(crate) fn lock_change(package: &Package, lock: &LockFile) -> Result<Change, Error> {
    let path = package.base.join(&package.lock_path);
    let before = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => {
            return Err(Error::Io(format!(
                "cannot read `{}`: {error}",
                display_path(&package.lock_path)
            )));
        }
    };
    Ok(Change {
        path: display_path(&path),
        before,
        after: lock.to_text(),
    })
}

/// What `add` and `update` say of each skill once it is in place.
pub(crate) fn placed(
    package: &Package,
    prepared: &Prepared,
    verb: &str,
    from: Option<&str>,
) -> Vec<String> {
    let root = display_path(&package.config.dir);
    let mut lines: Vec<String> = (prepared.staged.iter())
        .map(|skill| {
            let name = &skill.name;
            let mut line = match from {
                Some(from) => format!("{verb} {name} to {root}/{name} from {from}"),
                None => format!("{verb} {name} in {root}/{name}"),
            };
            if let Some(signed) = &skill.signed_by {
                line.push_str(&format!(
                    ": signed by {}, chain to {} ({})",
                    signed.subject,
                    signed.anchor,
                    signed.fingerprint.get(..16).unwrap_or(&signed.fingerprint)
                ));
            }
            line
        })
        .collect();
    lines.push(format!("Locked in {}", display_path(&package.lock_path)));
    lines
}
