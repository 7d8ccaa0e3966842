//! `cargo skills add`, `update`, `remove`, `lock` and `verify`: skills
//! brought in from git or a folder, recorded in `skills-lock.json`, and
//! checked against it (`skills_compiler::ops::vendor`, `skills_compiler::ops::vendor::lock`).

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::ops::vendor::{self, Outside, Package, Pick, Source};
use skills_compiler::ops::{self, Guards};

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
        let listed = vendor::list(&package, &source, &args.source)?;
        outln!("{}", vendor::OfferSummary::HEADER);
        for skill in vendor::summaries(&package, &listed) {
            outln!("{}", skill.line());
        }
        return Ok(());
    }
    let pick = match (args.all, args.skills.is_empty()) {
        (true, _) => Pick::All,
        (false, false) => Pick::Named(args.skills.clone()),
        (false, true) => Pick::TheOnly,
    };
    let vendored = vendor::add(&package, &source, &args.source, &pick, args.force)?;
    carry_out(vendored, false)
}

pub fn update(args: UpdateArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    let outside = outside(args.allow_outside);
    carry_out(
        vendor::update(&package, &args.names, outside, args.force)?,
        args.dry_run,
    )
}

/// Restores what the lock recorded; the lock is left as it is.
pub fn sync(args: SyncArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    let outside = outside(args.allow_outside);
    carry_out(
        vendor::sync(&package, &args.names, outside, args.dry_run)?,
        args.dry_run,
    )
}

pub fn remove(args: RemoveArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    carry_out(vendor::remove(&package, &args.names)?, false)
}

pub fn lock(args: LockArgs) -> Result<(), Failure> {
    let package = package(&args.place)?;
    let locking = vendor::lock(&package, &args.names)?;
    ops::apply(&locking.plan, Guards::default())?;
    for line in &locking.said {
        anstream::eprintln!("{}", shown(line));
    }
    Ok(())
}

/// Each skill against the lock: matches, modified (which files), missing,
/// unlocked. Exit 1 on anything but matches, and when there is nothing to verify.
pub fn verify(args: VerifyArgs) -> Result<(), Failure> {
    let _ = args.frozen;
    let package = package(&args.place)?;
    let verified = vendor::verify(&package)?;
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

/// Says what the operation found, then applies its plan unless it was
/// refused or this is a dry run, and says what was done.
fn carry_out(vendored: vendor::Vendored, dry_run: bool) -> Result<(), Failure> {
    for line in &vendored.said {
        anstream::eprintln!("{}", shown(line));
    }
    let color = crate::output::stderr_color();
    for (diagnostic, sources) in vendored.problems() {
        anstream::eprintln!("{}\n", render::human(diagnostic, sources, color));
    }
    match (&vendored.refused, dry_run) {
        (Some(_), true) => return Err(Failure::Invalid),
        (Some(why), false) => {
            anstream::eprintln!("error: {}", shown(why));
            return Err(Failure::Invalid);
        }
        (None, false) => {
            ops::apply(&vendored.plan, Guards::default())?;
        }
        (None, true) => {}
    }
    for line in &vendored.done {
        anstream::eprintln!("{}", shown(line));
    }
    Ok(())
}

/// The package `--package` and `--root` name.
fn package(place: &Where) -> Result<Package, Failure> {
    Ok(vendor::package(
        place.package.as_deref(),
        place.root.as_deref(),
    )?)
}

/// `--allow-outside` as the library takes it.
fn outside(allowed: bool) -> Outside {
    if allowed {
        Outside::Allow
    } else {
        Outside::Refuse
    }
}
