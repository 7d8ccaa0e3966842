//! Which skills a command works on, as the command line says it:
//! [`skills_compiler::ops::targets`] decides.

use std::path::PathBuf;

use skills_compiler::Overrides;
use skills_compiler::ops;
pub use skills_compiler::ops::Target;

use crate::failure::Failure;

/// What the user selected on the command line.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Selection {
    /// Only this package of the workspace.
    #[arg(short = 'p', long = "package", value_name = "PKG")]
    pub package: Option<String>,
    /// Every workspace package with skills (the default without PATH).
    #[arg(long)]
    pub workspace: bool,
    /// Rule set: portable, extended or lenient (default: the package's).
    #[arg(long)]
    pub profile: Option<skills_compiler::Profile>,
    /// Each warning of a vendored skill, with its place (default: one line
    /// per vendored skill that counts them, W027).
    #[arg(short, long)]
    pub verbose: bool,
}

impl Selection {
    /// The diagnostics of `compilation` to print: a vendored skill's
    /// warnings in one line each unless `--verbose`.
    pub fn shown<'a>(
        &self,
        compilation: &'a skills_compiler::Compilation,
    ) -> std::borrow::Cow<'a, [skills_compiler::Diagnostic]> {
        ops::targets::reported(compilation, self.verbose)
    }

    fn ops(&self) -> ops::Selection {
        ops::Selection {
            package: self.package.clone(),
            profile: self.profile,
        }
    }
}

/// The targets for `paths` (empty: the workspace's packages with skills).
pub fn targets(
    selection: &Selection,
    paths: &[PathBuf],
    overrides: &Overrides,
) -> Result<Vec<Target>, Failure> {
    Ok(ops::targets(&selection.ops(), paths, overrides)?)
}

/// The targets of a check, with its gates, and the notes of packages
/// skipped (`ops::check::targets`).
pub fn check_targets(
    selection: &Selection,
    paths: &[PathBuf],
    gates: &ops::check::CheckGates,
) -> Result<(Vec<Target>, Vec<String>), Failure> {
    Ok(ops::check::targets(&selection.ops(), paths, gates)?)
}

/// The commands that write refuse a configured root outside the workspace.
pub fn refuse_outside_workspace(targets: &[Target], verb: &str) -> Result<(), Failure> {
    Ok(ops::targets::refuse_outside_workspace(targets, verb)?)
}

/// Every skill folder below each of `paths`, with a warning for a search
/// that stopped at its limits.
pub fn nested_skills(paths: &[PathBuf]) -> Vec<PathBuf> {
    let (expanded, warnings) = ops::targets::nested_skills(paths);
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
    expanded
}

/// The catalogue of the selection, with a note for the skills left out.
pub fn catalogue_of(
    selection: &Selection,
    paths: &[PathBuf],
    recursive: bool,
    host: Option<skills_compiler::ops::budget::Host>,
) -> Result<ops::trigger::Set, Failure> {
    let paths = if recursive {
        nested_skills(paths)
    } else {
        paths.to_vec()
    };
    let targets = targets(selection, &paths, &Overrides::default())?;
    let set = ops::trigger::catalogue(&targets, host);
    if set.invalid > 0 {
        anstream::eprintln!(
            "note: {} skill{} with errors left out of the catalogue (`cargo skills check` says why)",
            set.invalid,
            if set.invalid == 1 { "" } else { "s" }
        );
    }
    Ok(set.routable()?)
}

/// Compiles the selection; all skills, sorted by name, or the diagnostics.
pub fn compiled(
    selection: &Selection,
    paths: &[PathBuf],
) -> Result<skills_compiler::ir::SkillSet, Failure> {
    let mut skills = Vec::new();
    let mut failed = false;
    for target in targets(selection, paths, &Overrides::default())? {
        let compilation = target.compile();
        for diagnostic in selection.shown(&compilation).iter() {
            anstream::eprintln!(
                "{}",
                skills_compiler::diagnostics::render::short(diagnostic)
            );
        }
        match compilation.into_skills() {
            Some(set) => skills.extend(set.skills),
            None => failed = true,
        }
    }
    if failed {
        return Err(Failure::Invalid);
    }
    skills.sort_by(|a, b| a.name().cmp(b.name()));
    Ok(skills_compiler::ir::SkillSet { skills })
}
