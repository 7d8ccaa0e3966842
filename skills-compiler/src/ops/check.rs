//! `check`: the targets as the build would compile them, with the
//! command line's gates on top (`-D warnings`, `--locked`, signatures),
//! each compiled without keeping what no check reads.

use std::path::PathBuf;

use super::error::Error;
use super::targets::{self, Selection, Target};
use crate::config::{Keep, Overrides};

/// The gates a check adds to each package's own (not `routing::Gates`,
/// the pass marks of trigger tests).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckGates {
    /// Warnings are errors (`-D warnings`).
    pub deny_warnings: bool,
    /// Every skill must be what the lock recorded (`--locked`).
    pub locked: bool,
    /// Which skills must be signed (`--require-signatures[=vendored]`);
    /// `None` keeps each package's own setting.
    pub require_signatures: Option<crate::config::RequireSignatures>,
    /// Signing roots to trust, as the command line names them (relative
    /// to where it runs), added to each package's own.
    pub trust: Vec<PathBuf>,
}

/// The targets for `paths`, each with `gates`, and the notes of packages
/// that use skills but name no root (said when nothing else is checked).
pub fn targets(
    selection: &Selection,
    paths: &[PathBuf],
    gates: &CheckGates,
) -> Result<(Vec<Target>, Vec<String>), Error> {
    let overrides = Overrides {
        deny_warnings: gates.deny_warnings.then_some(true),
        locked: gates.locked.then_some(true),
        require_signatures: gates.require_signatures,
        ..Overrides::default()
    };
    let (mut targets, skipped) = targets::targets_and_skipped(selection, paths, &overrides)?;
    let trusted: Vec<PathBuf> = gates
        .trust
        .iter()
        .filter_map(|file| std::path::absolute(file).ok())
        .collect();
    for target in &mut targets {
        target.config.trust.extend(trusted.iter().cloned());
        // Nothing of a valid skill is read after the checks but what the
        // set's checks read: its body is let go as soon as it is checked.
        target.config.keep = Keep::Checks;
    }
    let skipped = if targets.is_empty() {
        skipped
    } else {
        Vec::new()
    };
    Ok((targets, skipped))
}
