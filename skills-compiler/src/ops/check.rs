//! `check`: the targets as the build would compile them, with the
//! command line's gates on top (`-D warnings`, `--locked`, signatures),
//! each compiled without keeping what no check reads.

use std::path::PathBuf;

use super::error::Error;
use super::targets::{self, Selection, Target};
use crate::config::{Keep, Overrides};
use crate::diagnostics::render;

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

/// The prefix that names a server instead of a path (`mcp+stdio:CMD`).
pub const SERVER_PREFIX: &str = "mcp+stdio:";

/// The servers `paths` name (`mcp+stdio:CMD`), when they all name one;
/// mixing servers and paths is a usage error.
pub fn servers(paths: &[PathBuf]) -> Result<Option<Vec<String>>, Error> {
    let servers: Vec<String> = paths
        .iter()
        .filter_map(|path| path.to_str()?.strip_prefix(SERVER_PREFIX))
        .map(str::to_owned)
        .collect();
    match servers.len() {
        0 => Ok(None),
        n if n == paths.len() => Ok(Some(servers)),
        _ => Err(Error::Usage(
            "check either servers (`mcp+stdio:CMD`) or paths, not both at once".into(),
        )),
    }
}

/// How a check prints its diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageFormat {
    /// rustc-style, with snippets; vendored skills' warnings summarised.
    Human,
    /// `file:line:col: error[S101]: message`; summarised as `Human`.
    Short,
    /// One JSON object per diagnostic.
    Json,
    /// GitHub Actions workflow commands.
    Github,
    /// rustc's JSON diagnostics, one per line.
    RustcJson,
    /// One SARIF 2.1.0 log for the whole check ([`sarif`]): nothing a target.
    Sarif,
}

impl MessageFormat {
    /// Whether a person reads it (stderr, summarised) or a machine (stdout,
    /// whole).
    pub fn is_for_people(self) -> bool {
        matches!(self, MessageFormat::Human | MessageFormat::Short)
    }
}

/// One target's counts and its diagnostics, rendered.
#[derive(Debug)]
pub struct Checked {
    /// Its errors and warnings.
    pub tally: crate::pipeline::Tally,
    /// The codes of the errors, for the closing `cargo skills explain` line.
    pub error_codes: std::collections::BTreeSet<crate::diagnostics::Code>,
    /// The diagnostics in the format, one after the other.
    pub rendered: String,
}

/// `compilation`'s diagnostics in `format` (with `verbose`, each warning of
/// a vendored skill with its place), coloured as `color` says.
pub fn render(
    compilation: &crate::pipeline::Compilation,
    format: MessageFormat,
    verbose: bool,
    color: render::Color,
) -> Checked {
    use std::fmt::Write as _;
    let mut checked = Checked {
        tally: compilation.tally(),
        error_codes: Default::default(),
        rendered: String::new(),
    };
    let sources = &compilation.sources;
    let diagnostics = if format.is_for_people() {
        targets::reported(compilation, verbose)
    } else {
        compilation.diagnostics.as_slice().into()
    };
    for diagnostic in diagnostics.iter() {
        if diagnostic.is_error() {
            checked.error_codes.insert(diagnostic.code);
        }
        let out = &mut checked.rendered;
        let _ = match format {
            MessageFormat::Human => {
                writeln!(out, "{}\n", render::human(diagnostic, sources, color))
            }
            MessageFormat::Short => writeln!(out, "{}", render::short(diagnostic)),
            MessageFormat::Json => writeln!(out, "{}", render::json(diagnostic, sources)),
            MessageFormat::Github => writeln!(out, "{}", render::github(diagnostic)),
            MessageFormat::RustcJson => {
                writeln!(out, "{}", render::rustc_json(diagnostic, sources))
            }
            MessageFormat::Sarif => Ok(()),
        };
    }
    checked
}

/// Every target's diagnostics in one SARIF log (named `tool` at `version`),
/// and whether any is an error.
pub fn sarif(targets: &[Target], tool: &str, version: &str) -> (String, bool) {
    use rayon::prelude::*;
    let diagnostics: Vec<crate::diagnostics::Diagnostic> = targets
        .par_iter()
        .flat_map_iter(|target| target.compile().diagnostics)
        .collect();
    let failed = diagnostics.iter().any(|d| d.is_error());
    (
        crate::diagnostics::sarif::log(&diagnostics, tool, version),
        failed,
    )
}
