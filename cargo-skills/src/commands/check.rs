//! `cargo skills check`.

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use skills_compiler::diagnostics::render;
use skills_compiler::{Tally, ops};

use crate::failure::Failure;
use crate::output::outln;
use crate::select::Selection;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Output format of the diagnostics.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// Check every skill below each PATH, at any depth (a collection laid
    /// out as `skills/<owner>/<repo>/<skill>/`), each named by its folder.
    #[arg(long, requires = "paths")]
    recursive: bool,
    /// Every skill of each root must be what `skills-lock.json` recorded
    /// (S520): modified, missing and unlocked skills are errors.
    #[arg(long)]
    locked: bool,
    /// `--locked`, and never touch the network (checking never does).
    #[arg(long)]
    frozen: bool,
    /// A PEM file of signing roots to trust (repeatable): each signed
    /// skill (`skill.oms.sig`) must verify up to one of them (S524 to
    /// S526); an unsigned skill is a warning (S527). Adds to the
    /// manifest's `trust`.
    #[arg(long, value_name = "FILE.pem")]
    trust: Vec<PathBuf>,
    /// An unsigned skill is an error (S527), not a warning: every skill,
    /// or with `=vendored` every skill the lock records from a source
    /// (the package's own may be unsigned).
    #[arg(long, value_name = "WHICH", num_args = 0..=1, default_missing_value = "all")]
    require_signatures: Option<RequiredSignatures>,
    /// `-D warnings` turns warnings into errors.
    #[arg(short = 'D', value_name = "LINT")]
    deny: Vec<String>,
    /// For `mcp+stdio:` servers: the most seconds one server may take,
    /// from its start to its last answer (each request also has 30 s).
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    timeout: u64,
}

/// `--require-signatures`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RequiredSignatures {
    /// Every skill (`require_signatures = true`).
    All,
    /// Every skill the lock records from a source (`"vendored"`).
    Vendored,
}

impl RequiredSignatures {
    fn setting(self) -> skills_compiler::RequireSignatures {
        match self {
            RequiredSignatures::All => skills_compiler::RequireSignatures::All,
            RequiredSignatures::Vendored => skills_compiler::RequireSignatures::Vendored,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// rustc-style, with snippets (stderr).
    Human,
    /// `file:line:col: error[S101]: message` (stderr).
    Short,
    /// One JSON object per diagnostic, then a summary object (stdout).
    Json,
    /// GitHub Actions workflow commands (stdout).
    Github,
    /// rustc's JSON diagnostics, one per line, for editors (stdout).
    RustcJson,
    /// One SARIF 2.1.0 log (GitHub code scanning, CI dashboards), with the
    /// code registry as rules and fix-its as fixes (stdout).
    Sarif,
}

pub fn run(args: Args) -> Result<(), Failure> {
    if let Some(lint) = args.deny.iter().find(|lint| *lint != "warnings") {
        return Err(Failure::Usage(format!(
            "unknown lint `{lint}`: only `-D warnings` is supported"
        )));
    }
    if let Some(servers) = ops::check::servers(&args.paths)? {
        return check_servers(&servers, args.selection.profile, args.timeout);
    }
    let paths = if args.recursive {
        crate::select::nested_skills(&args.paths)
    } else {
        args.paths.clone()
    };
    let gates = ops::check::CheckGates {
        deny_warnings: !args.deny.is_empty(),
        locked: args.locked || args.frozen,
        require_signatures: args.require_signatures.map(RequiredSignatures::setting),
        trust: args.trust.clone(),
    };
    let (targets, skipped) = crate::select::check_targets(&args.selection, &paths, &gates)?;
    // A library that takes any set (an MCP server) depends on the runtime
    // and has no root: said only when nothing was found to check at all.
    for note in &skipped {
        eprintln!("{note}");
    }
    // Buffered below anstream's colour stripping: a check of a large
    // collection prints thousands of lines, and the stripping adapter writes
    // each fragment to its stream, one system call each. So the colour choice
    // is made once, and diagnostics are rendered with or without colour.
    let color = crate::output::stderr_color();
    // Targets compile and render on every core (many paths on one command
    // line, as a CI gate over a collection has them); output keeps their order.
    let format = args.message_format.to_ops();
    let checked: Vec<ops::check::Checked> = {
        use rayon::prelude::*;
        targets
            .par_iter()
            .map(|target| {
                ops::check::render(&target.compile(), format, args.selection.verbose, color)
            })
            .collect()
    };
    if args.message_format == MessageFormat::Sarif {
        return sarif(&targets);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut err = std::io::BufWriter::new(std::io::stderr().lock());
    let mut tally = Tally::default();
    let mut codes = std::collections::BTreeSet::new();
    for target in &checked {
        tally += target.tally;
        codes.extend(target.error_codes.iter().copied());
        let _ = match format.is_for_people() {
            true => err.write_all(target.rendered.as_bytes()),
            false => out.write_all(target.rendered.as_bytes()),
        };
    }
    let _ = match args.message_format {
        MessageFormat::Json => writeln!(out, "{}", tally.json()),
        _ => writeln!(err, "{}", tally.summary()),
    };
    if args.message_format == MessageFormat::Human
        && let Some(footer) = render::explain_footer(&codes)
    {
        let _ = writeln!(err, "{footer}");
    }
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = out.flush();
    let _ = err.flush();
    if tally.errors == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

#[cfg(feature = "mcp")]
fn check_servers(
    servers: &[String],
    profile: Option<skills_compiler::Profile>,
    timeout: u64,
) -> Result<(), Failure> {
    super::check_mcp::run(servers, profile, std::time::Duration::from_secs(timeout))
}

#[cfg(not(feature = "mcp"))]
fn check_servers(_: &[String], _: Option<skills_compiler::Profile>, _: u64) -> Result<(), Failure> {
    Err(Failure::Usage(
        "this cargo-skills was built without the `mcp` feature: install it with default features to check a server".into(),
    ))
}

/// Every target's diagnostics in one SARIF log on stdout; exit 1 on errors.
fn sarif(targets: &[crate::select::Target]) -> Result<(), Failure> {
    let (log, failed) = ops::check::sarif(targets, "cargo-skills", env!("CARGO_PKG_VERSION"));
    outln!("{log}");
    if failed {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}

impl MessageFormat {
    fn to_ops(self) -> ops::check::MessageFormat {
        use ops::check::MessageFormat as Ops;
        match self {
            MessageFormat::Human => Ops::Human,
            MessageFormat::Short => Ops::Short,
            MessageFormat::Json => Ops::Json,
            MessageFormat::Github => Ops::Github,
            MessageFormat::RustcJson => Ops::RustcJson,
            MessageFormat::Sarif => Ops::Sarif,
        }
    }
}
