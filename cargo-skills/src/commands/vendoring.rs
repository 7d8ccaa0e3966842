//! `cargo skills update`, `sync`, `remove`, `lock` and `verify`: skills
//! brought in (`add`, beside this file), recorded in `skills-lock.json`,
//! and checked against it (`skills_compiler::ops::vendor`); and what
//! every one of them shares: which package, and how a plan is carried out.

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::ops::vendor::{self, Outside, Package};
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

impl Where {
    /// The package `--package` and `--root` name.
    pub(crate) fn package(&self) -> Result<Package, Failure> {
        let (package, root) = (self.package.as_deref(), self.root.as_deref());
        Ok(vendor::package(package, root)?)
    }
}

/// Where locked skills are fetched from again: the package, and whether a
/// `local` source outside it may be read.
#[derive(Debug, clap::Args)]
pub struct Refetch {
    /// Read a `local` source the lock names outside this project.
    #[arg(long)]
    allow_outside: bool,
    #[command(flatten)]
    place: Where,
}

impl Refetch {
    fn outside(&self) -> Outside {
        match self.allow_outside {
            true => Outside::Allow,
            false => Outside::Refuse,
        }
    }
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
    #[command(flatten)]
    from: Refetch,
}

#[derive(Debug, clap::Args)]
pub struct SyncArgs {
    /// The locked skills to restore (default: every one).
    names: Vec<String>,
    /// Print what would be restored; write nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    from: Refetch,
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

pub fn update(args: UpdateArgs) -> Result<(), Failure> {
    let package = args.from.place.package()?;
    let update = vendor::update(&package, &args.names, args.from.outside(), args.force)?;
    carry_out(update, args.dry_run)
}

/// Restores what the lock recorded; the lock is left as it is.
pub fn sync(args: SyncArgs) -> Result<(), Failure> {
    let package = args.from.place.package()?;
    let sync = vendor::sync(&package, &args.names, args.from.outside(), args.dry_run)?;
    carry_out(sync, args.dry_run)
}

pub fn remove(args: RemoveArgs) -> Result<(), Failure> {
    let package = args.place.package()?;
    carry_out(vendor::remove(&package, &args.names)?, false)
}

pub fn lock(args: LockArgs) -> Result<(), Failure> {
    let package = args.place.package()?;
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
    let package = args.place.package()?;
    let verified = vendor::verify(&package)?;
    for line in &verified.lines {
        outln!("{}", shown(line));
    }
    if verified.drifted {
        anstream::eprintln!(
            "restore what was locked with `cargo skills sync`, or move to upstream's newest with `cargo skills update`"
        );
    }
    verified.all_match.then_some(()).ok_or(Failure::Invalid)
}

/// Says what the operation found, then applies its plan unless it was
/// refused or this is a dry run, and says what was done.
pub(crate) fn carry_out(vendored: vendor::Vendored, dry_run: bool) -> Result<(), Failure> {
    for line in &vendored.said {
        anstream::eprintln!("{}", shown(line));
    }
    let color = crate::output::stderr_color();
    for (diagnostic, sources) in vendored.problems() {
        anstream::eprintln!("{}\n", render::human(diagnostic, sources, color));
    }
    // A dry run that would be refused says so by its problems and exit.
    if let Some(why) = &vendored.refused {
        if !dry_run {
            anstream::eprintln!("error: {}", shown(why));
        }
        return Err(Failure::Invalid);
    }
    if !dry_run {
        ops::apply(&vendored.plan, Guards::default())?;
    }
    for line in &vendored.done {
        anstream::eprintln!("{}", shown(line));
    }
    Ok(())
}
