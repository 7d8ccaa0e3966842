//! `cargo skills check`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::{Compilation, Overrides, Severity};

use crate::Failure;
use crate::output::outln;
use crate::select::{Selection, targets_and_skipped};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Output format of the diagnostics.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// `-D warnings` turns warnings into errors.
    #[arg(short = 'D', value_name = "LINT")]
    deny: Vec<String>,
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
    let overrides = Overrides {
        deny_warnings: (!args.deny.is_empty()).then_some(true),
        ..Overrides::default()
    };
    let (targets, skipped) = targets_and_skipped(&args.selection, &args.paths, &overrides)?;
    // A library that takes any set (an MCP server) depends on the runtime
    // and has no root: said only when nothing was found to check at all.
    if targets.is_empty() {
        for note in &skipped {
            eprintln!("{note}");
        }
    }
    // Buffered below anstream's colour stripping: a check of a large
    // collection prints thousands of lines, and the stripping adapter writes
    // each fragment to its stream, one system call each. So the colour choice
    // is made once, and diagnostics are rendered with or without colour.
    let color = match anstream::stderr().current_choice() {
        anstream::ColorChoice::Never => Color::Never,
        _ => Color::Always,
    };
    // Targets compile and render on every core (many paths on one command
    // line, as a CI gate over a collection has them); output keeps their order.
    let checked: Vec<Checked> = {
        use rayon::prelude::*;
        targets
            .par_iter()
            .map(|target| Checked::of(&target.compile(), args.message_format, color))
            .collect()
    };
    if args.message_format == MessageFormat::Sarif {
        return sarif(&targets);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut err = std::io::BufWriter::new(std::io::stderr().lock());
    let (mut errors, mut warnings, mut skills) = (0usize, 0usize, 0usize);
    let mut codes = std::collections::BTreeSet::new();
    for target in &checked {
        errors += target.errors;
        warnings += target.warnings;
        skills += target.skills;
        codes.extend(target.error_codes.iter().copied());
        let _ = match args.message_format {
            MessageFormat::Human | MessageFormat::Short => {
                err.write_all(target.rendered.as_bytes())
            }
            _ => out.write_all(target.rendered.as_bytes()),
        };
    }
    let _ = match args.message_format {
        MessageFormat::Json => writeln!(
            out,
            "{}",
            serde_json::json!({"type": "summary", "valid": errors == 0, "skills": skills, "errors": errors, "warnings": warnings})
        ),
        _ => writeln!(err, "{}", summary(errors, warnings, skills)),
    };
    if args.message_format == MessageFormat::Human
        && let Some(footer) = render::explain_footer(&codes)
    {
        let _ = writeln!(err, "{footer}");
    }
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = out.flush();
    let _ = err.flush();
    if errors == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// Every target's diagnostics in one SARIF log on stdout; exit 1 on errors.
fn sarif(targets: &[crate::select::Target]) -> Result<(), Failure> {
    let diagnostics: Vec<skills_compiler::Diagnostic> = {
        use rayon::prelude::*;
        targets
            .par_iter()
            .flat_map_iter(|target| target.compile().diagnostics)
            .collect()
    };
    outln!(
        "{}",
        skills_compiler::diagnostics::sarif::log(
            &diagnostics,
            "cargo-skills",
            env!("CARGO_PKG_VERSION")
        )
    );
    if diagnostics.iter().any(|d| d.is_error()) {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}

/// One target's counts and its diagnostics, rendered in the chosen format.
struct Checked {
    skills: usize,
    errors: usize,
    warnings: usize,
    /// The codes of the errors, for the closing `cargo skills explain` line.
    error_codes: std::collections::BTreeSet<skills_compiler::Code>,
    rendered: String,
}

impl Checked {
    fn of(compilation: &Compilation, format: MessageFormat, color: Color) -> Self {
        let mut checked = Checked {
            skills: compilation.skills().map_or(0, |set| set.skills.len()),
            errors: 0,
            warnings: 0,
            error_codes: Default::default(),
            rendered: String::new(),
        };
        let sources = &compilation.sources;
        for diagnostic in &compilation.diagnostics {
            match diagnostic.severity {
                Severity::Error => {
                    checked.errors += 1;
                    checked.error_codes.insert(diagnostic.code);
                }
                Severity::Warning => checked.warnings += 1,
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
                // One log for the whole check, written by `sarif`.
                MessageFormat::Sarif => Ok(()),
            };
        }
        checked
    }
}

fn summary(errors: usize, warnings: usize, skills: usize) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if errors == 0 {
        format!(
            "ok: {} valid, {}",
            plural(skills, "skill"),
            plural(warnings, "warning")
        )
    } else {
        format!(
            "failed: {}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        )
    }
}
