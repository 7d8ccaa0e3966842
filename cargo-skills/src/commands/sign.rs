//! `cargo skills sign`: writes `skill.oms.sig`, OpenSSF Model Signing's
//! detached signature, over every file of each skill folder named, or of
//! every skill of the roots with `--all` ([`skills_compiler::ops::sign`]).

use std::path::PathBuf;

use skills_compiler::Overrides;
use skills_compiler::ops::sign::{self, Credentials};

use crate::failure::Failure;
use crate::output::outln;
use crate::select::{Selection, targets};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill folders to sign (each its `SKILL.md` and every other
    /// file); with `--all`, the skills roots (default: the package's).
    dirs: Vec<PathBuf>,
    /// Sign every skill of the roots (skills vendored from a git source
    /// keep their publisher's signature and are left as they are).
    #[arg(long)]
    all: bool,
    /// The signing key: PEM, PKCS#8 or SEC1, ECDSA P-256 or P-384.
    #[arg(long, value_name = "KEY.pem")]
    key: PathBuf,
    /// A certificate of the key's chain, one file per flag: the key's own
    /// first, then those that complete its chain (intermediates, and the
    /// root if you like): `--cert-chain leaf.pem --cert-chain ca.pem`.
    #[arg(
        long = "cert-chain",
        value_name = "CERT.pem",
        required = true,
        num_args = 1
    )]
    cert_chain: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let dirs = if args.all {
        let targets = targets(&args.selection, &args.dirs, &Overrides::default())?;
        let every = sign::every_skill(&targets)?;
        for (path, why) in &every.left {
            anstream::eprintln!("note: {path} left as it is: {why}");
        }
        every.dirs
    } else if args.dirs.is_empty() {
        return Err(Failure::Usage(
            "name the skill folders to sign, or `--all` for every skill of the package".to_owned(),
        ));
    } else {
        args.dirs
    };
    let credentials = Credentials::read(&args.key, &args.cert_chain)?;
    let written = sign::sign_all(&dirs, &credentials)?;
    for (dir, path) in dirs.iter().zip(&written) {
        outln!("Signed {}: wrote {}", dir.display(), path.display());
    }
    if written.len() > 1 {
        outln!("Signed {} skills", written.len());
    }
    Ok(())
}
