//! `cargo skills sign`: writes `skill.oms.sig`, OpenSSF Model Signing's
//! detached signature, over every file of a skill folder
//! ([`skills_compiler::ops::sign`]).

use std::path::PathBuf;

use crate::failure::Failure;
use crate::output::outln;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill folder to sign (its `SKILL.md` and every other file).
    dir: PathBuf,
    /// The signing key: PEM, PKCS#8 or SEC1, ECDSA P-256 or P-384.
    #[arg(long, value_name = "KEY.pem")]
    key: PathBuf,
    /// The key's certificate first, then the certificates that complete
    /// its chain (intermediates, and the root if you like).
    #[arg(long = "cert-chain", value_name = "LEAF.pem", required = true, num_args = 1..)]
    cert_chain: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let path = skills_compiler::ops::sign::sign(&args.dir, &args.key, &args.cert_chain)?;
    outln!("Signed {}: wrote {}", args.dir.display(), path.display());
    Ok(())
}
