//! `cargo skills add`, `update`, `remove`, `lock` and `verify`: skills
//! brought in from git or a folder, recorded in `skills-lock.json`, and
//! checked against it (`skills_compiler::vendoring`, `skills_compiler::lock`).

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::display_path;
use skills_compiler::ops;
use skills_compiler::vendoring::install::{Package, SignedBy};
use skills_compiler::vendoring::source::Source;
use skills_compiler::vendoring::{self, Pick, Prepared};

use crate::failure::Failure;
use crate::output::{outln, shown};

/// Which package's skills root and lock.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Where {
    /// The package (default: the one the current directory is in).
    #[arg(short = 'p', long = "package", value_name = "PKG")]
    package: Option<String>,
    /// The skills root, relative to the package (default: the one `check`
    /// and the build use).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// `owner/repo[/path][@ref]`, a GitHub `tree/<ref>/<path>` URL, any git
    /// URL (`#ref` for a branch, tag or commit), or a folder.
    source: String,
    /// A skill to add (repeat for more).
    #[arg(long = "skill", short = 's', value_name = "NAME")]
    skills: Vec<String>,
    /// Add every skill the source offers.
    #[arg(long, conflicts_with = "skills")]
    all: bool,
    /// Print what the source offers; write nothing.
    #[arg(long, short = 'l')]
    list: bool,
    /// The folder inside the source to look in.
    #[arg(long, value_name = "PATH")]
    path: Option<String>,
    /// Add skills that have errors under the rules vendored skills are held to (`vendored_profile`).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    place: Where,
}

#[derive(Debug, clap::Args)]
pub struct UpdateArgs {
    /// The locked skills to fetch again (default: every one).
    names: Vec<String>,
    /// Print what would change, file by file; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Write skills that have errors under the rules vendored skills are held to.
    #[arg(long)]
    force: bool,
    /// Read a `local` source the lock names outside this project.
    #[arg(long)]
    allow_outside: bool,
    #[command(flatten)]
    place: Where,
}

#[derive(Debug, clap::Args)]
pub struct SyncArgs {
    /// The locked skills to restore (default: every one).
    names: Vec<String>,
    /// Print what would be restored; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Read a `local` source the lock names outside this project.
    #[arg(long)]
    allow_outside: bool,
    #[command(flatten)]
    place: Where,
}

#[derive(Debug, clap::Args)]
pub struct RemoveArgs {
    /// The skills to remove from the root and the lock.
    #[arg(required = true)]
    names: Vec<String>,
    #[command(flatten)]
    place: Where,
}

#[derive(Debug, clap::Args)]
pub struct LockArgs {
    /// Skills to record as they are now (default: every skill the lock does not name).
    names: Vec<String>,
    #[command(flatten)]
    place: Where,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Refuse to touch the network (verification never does; said for CI).
    #[arg(long)]
    frozen: bool,
    #[command(flatten)]
    place: Where,
}

pub fn add(args: AddArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    let mut source = Source::parse(&args.source, &package.base).map_err(|e| Failure::Usage(e.0))?;
    if let Some(path) = &args.path {
        source = source
            .with_sub_path(path)
            .map_err(|e| Failure::Usage(e.0))?;
    }
    if args.list {
        let listed = vendoring::list(&package, &source, &args.source)?;
        outln!("{}", vendoring::OfferSummary::HEADER);
        for skill in vendoring::summaries(&package, &listed) {
            outln!("{}", skill.line());
        }
        return Ok(());
    }
    let pick = match (args.all, args.skills.is_empty()) {
        (true, _) => Pick::All,
        (false, false) => Pick::Named(args.skills.clone()),
        (false, true) => Pick::TheOnly,
    };
    let prepared = vendoring::add(&package, &source, &args.source, &pick)?;
    finish(prepared, &package, args.force, "Added", Some(&args.source))
}

pub fn update(args: UpdateArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    ops::vendor::require_lock(&package, ": nothing was added with `cargo skills add`")?;
    let outside = outside(args.allow_outside);
    let prepared = vendoring::update(&package, &args.names, outside)?;
    if prepared.staged.is_empty() {
        return Err(Failure::Io(
            "nothing to update: every locked skill is a local copy without a source to fetch"
                .to_owned(),
        ));
    }
    for line in &prepared.changes {
        anstream::eprintln!("{}", shown(line));
    }
    if args.dry_run {
        return if show_problems(&prepared) && !args.force {
            Err(Failure::Invalid)
        } else {
            Ok(())
        };
    }
    finish(prepared, &package, args.force, "Updated", None)
}

/// Restores what the lock recorded; the lock is left as it is.
pub fn sync(args: SyncArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    ops::vendor::require_lock(
        &package,
        ": nothing to restore (add skills with `cargo skills add`)",
    )?;
    let outside = outside(args.allow_outside);
    let synced = vendoring::sync(&package, &args.names, outside)?;
    if synced.matching.is_empty() && synced.prepared.staged.is_empty() {
        return Err(Failure::Io(format!(
            "`{}` locks no skill: nothing to restore",
            display_path(&package.lock_path)
        )));
    }
    for name in &synced.matching {
        anstream::eprintln!("{}: matches the lock", shown(name));
    }

    let verb = if args.dry_run {
        "Would restore"
    } else {
        "Restored"
    };
    let restored: Vec<String> = synced
        .prepared
        .staged
        .iter()
        .map(|skill| skill.restored(verb))
        .collect();
    let files = synced.prepared.changes.clone();
    if !args.dry_run {
        synced.prepared.commit(&package)?;
    }
    for (line, files) in restored.iter().zip(&files) {
        anstream::eprintln!("{}", shown(line));
        if args.dry_run {
            anstream::eprintln!("  {}", shown(files));
        }
    }
    Ok(())
}

pub fn remove(args: RemoveArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    vendoring::remove(&package, &args.names)?;
    for name in &args.names {
        anstream::eprintln!("Removed {}", shown(name));
    }
    Ok(())
}

pub fn lock(args: LockArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    let present = ops::vendor::present(&package);
    // Named skills may be locked ones an agent's folder holds.
    if present.is_empty() && args.names.is_empty() {
        return Err(Failure::Io(format!(
            "no skill in `{}` to lock",
            display_path(&package.config.dir)
        )));
    }
    let written = vendoring::lock_present(&package, &present, &args.names)?;
    if written.is_empty() {
        anstream::eprintln!(
            "every skill of `{}` is locked already; name one to record it as it is now",
            display_path(&package.config.dir)
        );
    }
    let lock_path = display_path(&package.lock_path);
    let lock = shown(&lock_path);
    for locked in &written {
        let name = shown(&locked.name);
        match &locked.now_local_copy_of {
            None => anstream::eprintln!("Locked {name} in {lock}"),
            Some(from) => {
                anstream::eprintln!(
                    "Locked {name} in {lock} as a local copy: its files are no longer what `{}` holds, so the entry names no commit or signer (`vendoredFrom` keeps where it came from; `cargo skills update` no longer follows it)",
                    shown(from)
                );
                if locked.stale_signature {
                    anstream::eprintln!(
                        "note: {name}/skill.oms.sig is its publisher's and does not verify over the edit: remove it, or sign the copy with `cargo skills sign`"
                    );
                }
            }
        }
    }
    Ok(())
}

/// Each skill against the lock: matches, modified (which files), missing,
/// unlocked. Exit 1 on anything but matches, and when there is nothing to verify.
pub fn verify(args: VerifyArgs) -> Result<(), Failure> {
    let _ = args.frozen;
    let package = package(&args.place)?;
    let verified = ops::vendor::verify(&package)?;
    for line in &verified.lines {
        outln!("{}", shown(line));
    }
    if verified.drifted {
        anstream::eprintln!(
            "restore what was locked with `cargo skills sync`, or move to upstream's newest with `cargo skills update`"
        );
    }
    if verified.all_match {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// Prints each staged skill's diagnostics; whether one has an error.
fn show_problems(prepared: &Prepared) -> bool {
    let color = crate::output::stderr_color();
    for skill in &prepared.staged {
        for diagnostic in &skill.compilation.diagnostics {
            anstream::eprintln!(
                "{}\n",
                render::human(diagnostic, &skill.compilation.sources, color)
            );
        }
    }
    prepared.has_errors()
}

fn finish(
    prepared: Prepared,
    package: &Package,
    force: bool,
    verb: &str,
    from: Option<&str>,
) -> Result<(), Failure> {
    let has_errors = show_problems(&prepared);
    // `--force` overrides rule failures, never trust: a signature that
    // fails under the package's `trust` is refused, and `--force` is not
    // offered.
    let untrusted: Vec<&str> = (prepared.staged.iter())
        .filter(|s| s.refused_by_trust())
        .map(|s| s.name.as_str())
        .collect();
    if !untrusted.is_empty() {
        anstream::eprintln!(
            "error: nothing was written: the signature of {} does not verify under the package's `trust` (the errors above say why); trust is not a rule `--force` overrides",
            shown(&untrusted.join(", "))
        );
        return Err(Failure::Invalid);
    }
    if has_errors && !force {
        let names: Vec<&str> = prepared
            .staged
            .iter()
            .filter(|s| s.compilation.has_errors())
            .map(|s| s.name.as_str())
            .collect();
        anstream::eprintln!(
            "error: nothing was written: {} {} errors under the rules vendored skills are held to (`vendored_profile`, `lenient` by default; `--force` writes {} anyway)",
            shown(&names.join(", ")),
            if names.len() == 1 { "has" } else { "have" },
            if names.len() == 1 { "it" } else { "them" }
        );
        return Err(Failure::Invalid);
    }
    let signers: Vec<(String, Option<SignedBy>)> = (prepared.staged.iter())
        .map(|s| (s.name.clone(), s.signed_by.clone()))
        .collect();
    let names = prepared.commit(package)?;
    let root = display_path(&package.config.dir);
    for name in names {
        let mut line = match from {
            Some(from) => format!("{verb} {name} to {root}/{name} from {from}"),
            None => format!("{verb} {name} in {root}/{name}"),
        };
        if let Some((_, Some(signed))) = signers.iter().find(|(n, _)| *n == name) {
            line.push_str(&format!(
                ": signed by {}, chain to {} ({})",
                signed.subject,
                signed.anchor,
                signed.fingerprint.get(..16).unwrap_or(&signed.fingerprint)
            ));
        }
        anstream::eprintln!("{}", shown(&line));
    }
    anstream::eprintln!("Locked in {}", shown(&display_path(&package.lock_path)));
    Ok(())
}

/// The package `--package` and `--root` name.
fn package(place: &Where) -> Result<Package, Failure> {
    Ok(ops::vendor::package(
        place.package.as_deref(),
        place.root.as_deref(),
    )?)
}

/// `--allow-outside` as the library takes it.
fn outside(allowed: bool) -> vendoring::Outside {
    if allowed {
        vendoring::Outside::Allow
    } else {
        vendoring::Outside::Refuse
    }
}
