//! `cargo skills`: the command-line front end of the skills compiler.
//!
//! Thin by design: argument parsing and output live here; every rule lives in
//! `skills-compiler`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::{Code, Compilation, Config, Overrides, Profile, Severity};

/// Exit codes: 0 valid, 1 invalid, 2 usage error (clap's own).
const INVALID: u8 = 1;
const USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "cargo-skills",
    bin_name = "cargo skills",
    version,
    about = "Check, inspect and scaffold agent skills"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate skills: a skills root, a single skill directory, or the current package's root.
    Check(CheckArgs),
    /// Print the long explanation of a diagnostic code (e.g. `S101`).
    Explain {
        /// The code, e.g. S101 or W003.
        code: String,
    },
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Skills roots or single skill directories. Default: the `dir` configured
    /// in the current package's `[package.metadata.skills]` (or `skills`).
    paths: Vec<PathBuf>,
    /// Rule set: portable, extended (default) or lenient.
    #[arg(long)]
    profile: Option<Profile>,
    /// Output format of the diagnostics.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// `-D warnings` turns warnings into errors.
    #[arg(short = 'D', value_name = "LINT")]
    deny: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    Human,
    Short,
    Json,
    Github,
}

/// Runs the CLI on `args` (the process's arguments, `cargo` style or not).
pub fn run(args: impl IntoIterator<Item = String>) -> ExitCode {
    let mut args: Vec<String> = args.into_iter().collect();
    // `cargo skills x` runs `cargo-skills skills x`.
    if args.get(1).is_some_and(|a| a == "skills") {
        args.remove(1);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { USAGE } else { 0 });
        }
    };
    match cli.command {
        Command::Check(args) => check(args),
        Command::Explain { code } => explain(&code),
    }
}

fn explain(code: &str) -> ExitCode {
    match code.parse::<Code>() {
        Ok(code) => {
            print!("{}", skills_compiler::diagnostics::explain(code));
            ExitCode::SUCCESS
        }
        Err(()) => {
            eprintln!("error: `{code}` is not a diagnostic code (they look like S101 or W003)");
            ExitCode::from(USAGE)
        }
    }
}

fn check(args: CheckArgs) -> ExitCode {
    let deny_warnings = match args.deny.iter().find(|lint| *lint != "warnings") {
        Some(lint) => {
            eprintln!("error: unknown lint `{lint}`: only `-D warnings` is supported");
            return ExitCode::from(USAGE);
        }
        None => (!args.deny.is_empty()).then_some(true),
    };
    let base = PathBuf::from(".");
    let overrides = Overrides {
        profile: args.profile,
        deny_warnings,
        ..Overrides::default()
    };
    let config = match Config::load(&base, overrides) {
        Ok(config) => config,
        Err(diagnostic) => {
            eprintln!("{}", render::short(&diagnostic));
            return ExitCode::from(USAGE);
        }
    };
    let compilations: Vec<Compilation> = if args.paths.is_empty() {
        vec![skills_compiler::compile(&base, &config)]
    } else {
        args.paths
            .iter()
            .map(|path| compile_path(&base, path, &config))
            .collect()
    };
    let mut out = anstream::stdout().lock();
    let mut err = anstream::stderr().lock();
    let (mut errors, mut warnings, mut skills) = (0, 0, 0);
    for compilation in &compilations {
        skills += compilation.skills().map_or(0, |set| set.skills.len());
        for diagnostic in &compilation.diagnostics {
            match diagnostic.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let _ = match args.message_format {
                MessageFormat::Human => writeln!(
                    err,
                    "{}\n",
                    render::human(diagnostic, &compilation.sources, Color::Always)
                ),
                MessageFormat::Short => writeln!(err, "{}", render::short(diagnostic)),
                MessageFormat::Json => {
                    writeln!(out, "{}", render::json(diagnostic, &compilation.sources))
                }
                MessageFormat::Github => writeln!(out, "{}", render::github(diagnostic)),
            };
        }
    }
    let _ = match args.message_format {
        MessageFormat::Json => writeln!(
            out,
            "{}",
            serde_json::json!({"type": "summary", "valid": errors == 0, "skills": skills, "errors": errors, "warnings": warnings})
        ),
        _ => writeln!(err, "{}", summary(errors, warnings, skills)),
    };
    if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INVALID)
    }
}

/// A path with a `SKILL.md` (or a `.md` file) is one skill; anything else a skills root.
fn compile_path(base: &Path, path: &Path, config: &Config) -> Compilation {
    let full = base.join(path);
    if full.join("SKILL.md").is_file() || full.extension().is_some_and(|e| e == "md") {
        skills_compiler::compile_skill(base, path, config)
    } else {
        let config = Config {
            dir: path.to_path_buf(),
            ..config.clone()
        };
        skills_compiler::compile(base, &config)
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
