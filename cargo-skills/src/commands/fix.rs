//! `cargo skills fix`: applies every machine-applicable fix-it, as `cargo
//! fix` does for rustc's. [`skills_compiler::ops::fix`] plans the changes
//! and [`ops::apply`] makes them; this prints the plan, a diff or what was
//! done.

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::ops::{self, Guards, Target};
use skills_compiler::{Overrides, Severity};

use crate::failure::Failure;
use crate::output::{applied, outln, shown, shown_lines};
use crate::select::{Selection, refuse_outside_workspace, targets};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Print what would change as a unified diff; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Fix files that have uncommitted changes (or are outside a git work tree).
    #[arg(long)]
    allow_dirty: bool,
    /// Write out what `lenient` assumed, for this profile: a slug for a bad
    /// name (and the folder renamed), `version` quoted, Claude Code's `tools`
    /// as `allowed-tools`, tools in a sidecar for `portable`. Rewrites the
    /// frontmatter in `fmt`'s style; files with comments are left alone.
    #[arg(long, value_name = "PROFILE")]
    to: Option<skills_compiler::Profile>,
    /// Remove install provenance that other tools wrote (`metadata`'s
    /// `github-*` and `local-path` from `gh skill`, skill-embed's
    /// `x-embedded-*` keys), line by line, as `gh skill publish --fix` does.
    #[arg(long, conflicts_with = "to")]
    strip_provenance: bool,
    /// Edit signed skills (`skill.oms.sig`) too: their signatures stop
    /// verifying until they are signed again.
    #[arg(long)]
    allow_unsigned_edit: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let targets = targets(&args.selection, &args.paths, &Overrides::default())?;
    if !args.dry_run {
        refuse_outside_workspace(&targets, "fix")?;
    }
    if args.strip_provenance {
        return strip_provenance(&targets, &args);
    }
    let mode = match args.dry_run {
        true => ops::fix::Mode::DryRun,
        false => ops::fix::Mode::Apply(guards(&args)),
    };
    let run = ops::fix::run(&targets, args.to, mode)?;
    match run.file_names_applied {
        Some(done) => print_renames(&applied(done).renamed),
        None => {
            for rename in &run.file_names.renames {
                outln!("rename {} -> {}", shown(&rename.from), shown(&rename.to));
            }
        }
    }
    let fixes = &run.fixes;
    for note in &fixes.notes {
        anstream::eprintln!("note: {}", shown(note));
    }
    match run.applied {
        Some(done) => print_renames(&applied(done?).renamed),
        None => {
            for change in &fixes.plan.changes {
                outln!("{}", shown_lines(&ops::diff(change)));
            }
            for rename in &fixes.plan.renames {
                outln!("rename {} -> {}", shown(&rename.from), shown(&rename.to));
            }
        }
    }
    let changes = &fixes.plan.changes;
    let verb = match (args.dry_run, args.to) {
        (true, None) => "Would fix",
        (false, None) => "Fixed",
        (true, Some(_)) => "Would rewrite",
        (false, Some(_)) => "Rewrote",
    };
    for change in changes {
        let path = shown(&change.path);
        let Some(profile) = args.to else {
            let here: Vec<_> = fixes.applied_to(&change.path).collect();
            anstream::eprintln!("{verb} {path} ({} fix{})", here.len(), es(here.len()));
            for fix in here {
                let message = shown(&fix.message);
                anstream::eprintln!("  {}:{}: {}: {message}", fix.line, fix.column, fix.code);
            }
            continue;
        };
        anstream::eprintln!("{verb} {path} for `{}`", profile.as_str());
    }
    for diagnostic in &fixes.remaining {
        anstream::eprintln!("{}", render::short(diagnostic));
    }
    for collision in &fixes.collisions {
        anstream::eprintln!("error: {}", shown(collision));
    }
    let errors = fixes.remaining.iter().filter(|d| d.is_error()).count() + fixes.collisions.len();
    let warnings = fixes.remaining.iter();
    let warnings = warnings.filter(|d| d.severity == Severity::Warning).count();
    let fixed = args.to.map_or(fixes.applied.len(), |_| changes.len());
    anstream::eprintln!(
        "{fixed} fix{} in {} file{}; {errors} error{} and {warnings} warning{} remain",
        es(fixed),
        changes.len(),
        s(changes.len()),
        s(errors),
        s(warnings),
    );
    if errors == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn guards(args: &Args) -> Guards {
    Guards {
        clean_tree: !args.allow_dirty,
        allow_unsigned_edit: args.allow_unsigned_edit,
    }
}

fn print_renames(renamed: &[ops::Rename]) {
    for rename in renamed {
        let code = rename
            .code
            .map(|code| format!(" ({code})"))
            .unwrap_or_default();
        anstream::eprintln!(
            "Renamed {} -> {}{code}",
            shown(&rename.from),
            shown(&rename.to)
        );
    }
}

fn s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn es(n: usize) -> &'static str {
    if n == 1 { "" } else { "es" }
}

/// `fix --strip-provenance`: each skill file without its provenance keys.
fn strip_provenance(targets: &[Target], args: &Args) -> Result<(), Failure> {
    let stripped = ops::fix::strip_provenance(targets);
    for note in &stripped.notes {
        anstream::eprintln!("note: {}", shown(note));
    }
    for problem in &stripped.problems {
        anstream::eprintln!("{}", render::short(problem));
    }
    if stripped.files_seen == 0 {
        return Err(Failure::Io("no skill found to strip".to_owned()));
    }
    if args.dry_run {
        for change in &stripped.plan.changes {
            outln!("{}", shown_lines(&ops::diff(change)));
        }
    } else {
        applied(ops::apply(&stripped.plan, guards(args))?);
    }
    let verb = if args.dry_run {
        "Would strip"
    } else {
        "Stripped"
    };
    for change in &stripped.plan.changes {
        anstream::eprintln!("{verb} install provenance from {}", shown(&change.path));
    }
    let seen = stripped.files_seen;
    anstream::eprintln!(
        "{} of {seen} skill file{} had install provenance",
        stripped.plan.changes.len(),
        s(seen)
    );
    Ok(())
}
