//! `cargo skills fix`: applies every machine-applicable fix-it, as `cargo
//! fix` does for rustc's. The rules (which fix-its are safe, how they
//! apply) are `skills_compiler::fix`; this finds the files, guards
//! uncommitted work, writes or prints a diff, and re-checks.

use std::path::{Path, PathBuf};
use std::process::Command;

use skills_compiler::diagnostics::render;
use skills_compiler::write::fix::{self, Change};
use skills_compiler::{Overrides, Severity};

use crate::failure::Failure;
use crate::output::{outln, shown, shown_lines};
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
    let case_renames = file_name_case(&targets);
    if args.dry_run {
        for (from, to) in &case_renames {
            outln!("rename {} -> {}", shown(from), shown(to));
        }
    } else {
        if !args.allow_dirty {
            refuse_dirty(case_renames.iter().map(|(from, _)| from.as_str()))?;
        }
        for (from, to) in &case_renames {
            std::fs::rename(from, to)
                .map_err(|error| Failure::Io(format!("cannot rename {}: {error}", shown(from))))?;
            anstream::eprintln!("Renamed {} -> {} (S502)", shown(from), shown(to));
        }
    }
    let mut changes = Vec::new();
    let mut remaining = Vec::new();
    let mut applied = Vec::new();
    let mut renames = Vec::new();
    for target in &targets {
        for files in target.files(&mut remaining) {
            let Some(profile) = args.to else {
                let fixed = fix::skill(files, &target.config);
                changes.extend(fixed.changes);
                applied.extend(fixed.applied);
                remaining.extend(fixed.remaining);
                continue;
            };
            let config = skills_compiler::Config {
                profile,
                ..target.config.clone()
            };
            match fix::to_profile(files, &config) {
                Ok(migration) => {
                    for note in &migration.notes {
                        anstream::eprintln!("note: {}", shown(note));
                    }
                    changes.extend(migration.changes);
                    renames.extend(migration.rename);
                    remaining.extend(migration.remaining);
                }
                Err(skipped) => {
                    anstream::eprintln!("note: left as it is: {}", shown(&skipped.reason));
                    remaining.extend(skipped.remaining);
                }
            }
        }
    }
    // Every rename is checked, against the disk and against each other,
    // and ordered (a nested skill before the one that holds it) before
    // anything is written: a migration is all or nothing.
    let planned = skills_compiler::write::renames::plan(&renames);
    // A dry run says them after the remaining diagnostics.
    let collisions: Vec<String> = match (&planned, args.dry_run) {
        (Err(collisions), true) => collisions.clone(),
        _ => Vec::new(),
    };
    if args.dry_run {
        for change in &changes {
            outln!("{}", shown_lines(&diff(change)));
        }
        for (from, to) in &renames {
            outln!("rename {} -> {}", shown(from), shown(to));
        }
    } else {
        let plan = match planned {
            Ok(plan) => plan,
            Err(collisions) => {
                for collision in &collisions {
                    anstream::eprintln!("error: {}", shown(collision));
                }
                anstream::eprintln!("error: nothing was written: rename the folders by hand first");
                return Err(Failure::Invalid);
            }
        };
        if !args.allow_dirty {
            refuse_dirty(changes.iter().map(|c| c.path.as_str()))?;
        }
        let from = renames.iter().map(|(from, _)| from.as_str());
        refuse_signed(
            changes.iter().map(|c| c.path.as_str()).chain(from),
            args.allow_unsigned_edit,
        )?;
        let written = write_all(&changes)?;
        if let Err(why) = plan.apply() {
            // The renames were put back; so are the rewritten files.
            let written: Vec<&Change> = changes
                .iter()
                .filter(|c| written.contains(&c.path.as_str()))
                .collect();
            put_back(&written);
            return Err(Failure::Io(format!("{why}; nothing was written")));
        }
        for (from, to) in plan.steps() {
            anstream::eprintln!(
                "Renamed {} -> {}",
                shown(&from.display().to_string()),
                shown(&to.display().to_string())
            );
        }
    }
    let verb = match (args.dry_run, args.to) {
        (true, None) => "Would fix",
        (false, None) => "Fixed",
        (true, Some(_)) => "Would rewrite",
        (false, Some(_)) => "Rewrote",
    };
    for change in changes.iter().filter(|_| args.to.is_some()) {
        anstream::eprintln!(
            "{verb} {} for `{}`",
            shown(&change.path),
            args.to.map_or("", |p| p.as_str())
        );
    }
    for change in changes.iter().filter(|_| args.to.is_none()) {
        let here: Vec<_> = applied.iter().filter(|a| a.file == change.path).collect();
        let plural = if here.len() == 1 { "" } else { "es" };
        anstream::eprintln!(
            "{verb} {} ({} fix{plural})",
            shown(&change.path),
            here.len()
        );
        for fix in here {
            anstream::eprintln!(
                "  {}:{}: {}: {}",
                fix.line,
                fix.column,
                fix.code,
                shown(&fix.message)
            );
        }
    }
    skills_compiler::diagnostics::sort(&mut remaining);
    for diagnostic in &remaining {
        anstream::eprintln!("{}", render::short(diagnostic));
    }
    for collision in &collisions {
        anstream::eprintln!("error: {}", shown(collision));
    }
    let errors = remaining.iter().filter(|d| d.is_error()).count() + collisions.len();
    let warnings = remaining
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    anstream::eprintln!(
        "{} fix{} in {} file{}; {errors} error{} and {warnings} warning{} remain",
        if args.to.is_some() {
            changes.len()
        } else {
            applied.len()
        },
        if applied.len() == 1 || (args.to.is_some() && changes.len() == 1) {
            ""
        } else {
            "es"
        },
        changes.len(),
        if changes.len() == 1 { "" } else { "s" },
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
    );
    if errors == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// `fix --strip-provenance`: each skill file without its provenance keys.
fn strip_provenance(targets: &[crate::select::Target], args: &Args) -> Result<(), Failure> {
    let mut changes = Vec::new();
    let mut problems = Vec::new();
    let mut files_seen = 0usize;
    for target in targets {
        for files in target.files(&mut problems) {
            files_seen += 1;
            let before = String::from_utf8_lossy(&files.bytes).into_owned();
            match skills_compiler::write::provenance::strip(&files.path, &before) {
                Ok(Some(after)) => changes.push(Change {
                    path: files.path,
                    before,
                    after,
                }),
                Ok(None) => {}
                Err(reason) => anstream::eprintln!(
                    "note: {} left as it is: {}",
                    shown(&files.path),
                    shown(&reason.to_string())
                ),
            }
        }
    }
    for problem in problems.iter().filter(|d| d.is_error()) {
        anstream::eprintln!("{}", render::short(problem));
    }
    if files_seen == 0 {
        return Err(Failure::Io("no skill found to strip".to_owned()));
    }
    if args.dry_run {
        for change in &changes {
            outln!("{}", shown_lines(&diff(change)));
        }
    } else {
        if !args.allow_dirty {
            refuse_dirty(changes.iter().map(|c| c.path.as_str()))?;
        }
        refuse_signed(
            changes.iter().map(|c| c.path.as_str()),
            args.allow_unsigned_edit,
        )?;
        write_all(&changes)?;
    }
    let verb = if args.dry_run {
        "Would strip"
    } else {
        "Stripped"
    };
    for change in &changes {
        anstream::eprintln!("{verb} install provenance from {}", shown(&change.path));
    }
    anstream::eprintln!(
        "{} of {files_seen} skill file{} had install provenance",
        changes.len(),
        if files_seen == 1 { "" } else { "s" }
    );
    Ok(())
}

/// The fix-its that are renames (`skill.md` to `SKILL.md`, S502), as
/// discovery wrote them: `(from, to)`.
fn file_name_case(targets: &[crate::select::Target]) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    for target in targets {
        target.files(&mut problems);
    }
    problems
        .iter()
        .filter_map(|d| {
            let fix = d.fix.as_ref()?;
            let to = fix.renamed_to()?;
            (fix.applicability == skills_compiler::diagnostics::Applicability::MachineApplicable)
                .then(|| (d.file.clone(), to.to_owned()))
        })
        .collect()
}

/// A unified diff of one change, with `a/` and `b/` paths as git writes them.
pub(crate) fn diff(change: &Change) -> String {
    similar::TextDiff::from_lines(&change.before, &change.after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{}", change.path), &format!("b/{}", change.path))
        .to_string()
}

/// A signed skill (`skill.oms.sig`) is not edited: the edit would break
/// its signature. `allow` (`--allow-unsigned-edit`) edits it and says so.
pub(crate) fn refuse_signed<'a>(
    paths: impl Iterator<Item = &'a str>,
    allow: bool,
) -> Result<(), Failure> {
    let signed = skills_compiler::write::signed::signed_folders(paths);
    let shown_all = signed
        .iter()
        .map(|f| shown(&f.display().to_string()).into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    if signed.is_empty() {
        return Ok(());
    }
    if allow {
        anstream::eprintln!(
            "warning: editing signed skills ({shown_all}): their signatures no longer verify; sign them again with `cargo skills sign`"
        );
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "{shown_all} {} signed (`skill.oms.sig`), and the edit would break the signature; nothing was written. \
         Edit it upstream and get a new signed release, or pass --allow-unsigned-edit (then sign it again with `cargo skills sign`)",
        if signed.len() == 1 { "is" } else { "are" }
    )))
}

/// As `cargo fix`: files with uncommitted changes, or outside a git work
/// tree, are not touched unless `--allow-dirty` says so.
fn refuse_dirty<'a>(paths: impl Iterator<Item = &'a str>) -> Result<(), Failure> {
    let paths: Vec<&str> = paths.collect();
    if paths.is_empty() {
        return Ok(());
    }
    let output = Command::new("git")
        // Untracked and ignored files hold work git cannot give back.
        .args([
            "status",
            "--porcelain",
            "--untracked-files=all",
            "--ignored",
            "--",
        ])
        .args(&paths)
        .output();
    let output = match output {
        Ok(output) if output.status.success() => output,
        _ => {
            return Err(Failure::Usage(
                "no git work tree here, so `fix` cannot tell your edits from its own; \
                 commit the files first, or pass --allow-dirty"
                    .to_owned(),
            ));
        }
    };
    let dirty: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.get(3..))
        .map(str::to_owned)
        .collect();
    if dirty.is_empty() {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "these files have uncommitted changes, which `fix` would mix with its own: {}; \
         commit or stash them first, or pass --allow-dirty",
        dirty.join(", ")
    )))
}

/// Writes every change, after checking that each file can be written: a
/// read-only file stops the command before anything is written. A write
/// that fails later puts back the ones before it (all or nothing). The
/// paths written.
pub(crate) fn write_all(changes: &[Change]) -> Result<Vec<&str>, Failure> {
    let read_only: Vec<_> = changes
        .iter()
        .filter(|change| {
            std::fs::metadata(&change.path).is_ok_and(|meta| meta.permissions().readonly())
        })
        .map(|change| shown(&change.path))
        .collect();
    if !read_only.is_empty() {
        let verb = if read_only.len() == 1 { "is" } else { "are" };
        anstream::eprintln!(
            "error: {} {verb} read-only: nothing was written",
            read_only.join(", ")
        );
        return Err(Failure::Invalid);
    }
    let mut written = Vec::new();
    for change in changes {
        match write_back(&change.path, &change.before, &change.after) {
            Ok(true) => written.push(change),
            Ok(false) => {}
            Err(failure) => {
                // All or nothing: what was written is put back.
                put_back(&written);
                return Err(match failure {
                    Failure::Io(message) if !written.is_empty() => {
                        Failure::Io(format!("{message}; nothing was written"))
                    }
                    failure => failure,
                });
            }
        }
    }
    Ok(written.into_iter().map(|c| c.path.as_str()).collect())
}

/// Undoes [`write_all`]'s writes: each file holds its text before again
/// (replaced atomically, and only while it still holds what was written),
/// and a file it created (a `tools.yaml` sidecar) is removed.
fn put_back(written: &[&Change]) {
    for change in written {
        if change.before.is_empty() {
            let _ = std::fs::remove_file(&change.path);
        } else {
            let _ = crate::replace::replace(
                Path::new(&change.path),
                change.after.as_bytes(),
                change.before.as_bytes(),
            );
        }
    }
}

/// Writes a new file at `path`, refusing one that exists by now.
fn create(path: &str, text: &str) -> Result<(), Failure> {
    crate::replace::create(Path::new(path), text.as_bytes())
        .map_err(|error| Failure::Io(format!("cannot write {path}: {error}")))
}

/// Writes `after` over `path` atomically, when the file still holds
/// `before`; an edit saved since it was read is kept, with a note.
pub(crate) fn write_back(path: &str, before: &str, after: &str) -> Result<bool, Failure> {
    // A file the change creates (`fix --to portable`'s `tools.yaml`): never
    // over one that appeared since.
    if before.is_empty() && std::fs::symlink_metadata(path).is_err() {
        return create(path, after).map(|()| true);
    }
    match crate::replace::replace(Path::new(path), before.as_bytes(), after.as_bytes()) {
        Ok(crate::replace::Replaced::Written) => Ok(true),
        Ok(crate::replace::Replaced::ChangedSince) => {
            anstream::eprintln!(
                "note: {} changed since it was read; left as it is",
                shown(path)
            );
            Ok(false)
        }
        Err(error) => Err(Failure::Io(format!("cannot write {path}: {error}"))),
    }
}
