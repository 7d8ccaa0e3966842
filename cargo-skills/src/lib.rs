//! `cargo skills`: the command-line front end of the skills compiler.
//!
//! Thin by design: argument parsing and output live here; every rule and
//! every write lives in `skills-compiler` (its `ops`). Works as `cargo skills <command>` and
//! as `cargo-skills <command>`. Exit codes: 0 valid, 1 invalid, 2 usage error.

#![deny(missing_docs)]

#[doc(hidden)]
pub mod commands;
mod failure;
#[cfg(feature = "lsp")]
mod lsp;
mod output;
mod router;
mod select;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use failure::Failure;
pub use select::Selection;

#[derive(Debug, Parser)]
#[command(
    name = "cargo-skills",
    bin_name = "cargo skills",
    version,
    about = "Check, inspect, scaffold and export agent skills"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The arguments of a command this build leaves out: taken whatever they
/// are, so that the command says which feature it needs instead of clap's
/// "unrecognized subcommand".
#[cfg(not(all(feature = "mcp", feature = "lsp")))]
#[derive(Debug, clap::Args)]
struct LeanOnly {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Scaffold a new skill that passes `check` in the package's profile.
    New(commands::new::Args),
    /// Validate skills: roots, single skill directories, or the workspace's packages.
    Check(commands::check::Args),
    /// Apply every machine-applicable fix-it (files with uncommitted changes need --allow-dirty).
    Fix(commands::fix::Args),
    /// Write every frontmatter in one canonical style (`--check` for CI).
    Fmt(commands::fmt::Args),
    /// List the skills.
    List(commands::inspect::ListArgs),
    /// Show one skill.
    Show(commands::inspect::ShowArgs),
    /// Print the catalog a model sees on every turn. In the text form each
    /// description is cut at `catalog_chars` characters (240 by default) and
    /// ends with `…` (W019 warns when the cut falls before the when-to-use
    /// clause); the XML `<location>` is `catalog_location`: the skill's
    /// `skill://<name>/SKILL.md` URI (default), or `path`.
    Catalog(commands::inspect::CatalogArgs),
    /// Measure the catalog against each host's context budget: what each host cuts.
    Budget(commands::budget::Args),
    /// Print a skill's tool definitions for a model API.
    Tools(commands::inspect::ToolsArgs),
    /// Print the Rust that `include_skills!` and `skills-build` generate.
    Expand(commands::inspect::ExpandArgs),
    /// Print a JSON Schema of the frontmatter (or of tools.yaml) for editors.
    Schema(commands::inspect::SchemaArgs),
    /// Print the long explanation of a diagnostic code (e.g. `S101`) or a key.
    Explain {
        /// The code, e.g. S101 or W003; a key (`description`, `tool.endpoint`,
        /// `permissions.allow_write`); or `keys`, for every frontmatter key and
        /// manifest option.
        code: String,
    },
    /// Trigger tests: route each case's query over the catalogue and judge the choices.
    Test(commands::test::Args),
    /// How the router ranks the catalogue for one query, and what it chooses.
    Route(commands::route::Args),
    /// Sign a skill folder: writes `skill.oms.sig` (OpenSSF Model Signing), which `check --trust` and `model_signing verify` verify.
    #[cfg(feature = "signing")]
    Sign(commands::sign::Args),
    /// Sign a skill folder (needs the `signing` feature).
    #[cfg(not(feature = "signing"))]
    Sign(LeanOnly),
    /// Install skills into an agent's folder (`--to claude|codex|agents|DIR`), as compiled.
    Install(commands::install::InstallArgs),
    /// Write each skill as `NAME.zip` for hosted APIs (deterministic; upload limits checked first).
    Pack(commands::pack::PackArgs),
    /// Copy skills from a git repository or a folder into the skills root, and lock them.
    Add(commands::add::AddArgs),
    /// Fetch locked skills again from their sources (`--dry-run`: what would change).
    Update(commands::vendoring::UpdateArgs),
    /// Restore skills exactly as `skills-lock.json` recorded them (the recorded commit, verified; the lock untouched).
    Sync(commands::vendoring::SyncArgs),
    /// Remove skills from the skills root and the lock.
    Remove(commands::vendoring::RemoveArgs),
    /// Record skills as they are now in `skills-lock.json` (those it does not name, by default).
    Lock(commands::vendoring::LockArgs),
    /// Each skill against `skills-lock.json`: matches, modified, missing or unlocked.
    Verify(commands::vendoring::VerifyArgs),
    /// Serve skills directories to MCP hosts over stdio (tools, prompts, resources, skills).
    #[cfg(feature = "mcp")]
    Serve(commands::serve::Args),
    /// Serve skills directories to MCP hosts over stdio (needs the `mcp` feature).
    #[cfg(not(feature = "mcp"))]
    Serve(LeanOnly),
    /// The language server (LSP over stdio): `check`'s diagnostics and fix-its as you type.
    #[cfg(feature = "lsp")]
    Lsp,
    /// The language server (needs the `lsp` feature).
    #[cfg(not(feature = "lsp"))]
    Lsp(LeanOnly),
    /// Agent Skills reference CLI: validate one skill directory (portable profile).
    Validate(commands::compat::ValidateArgs),
    /// Agent Skills reference CLI: print the specification fields as JSON.
    ReadProperties(commands::compat::ReadPropertiesArgs),
    /// Agent Skills reference CLI: print the <available_skills> block.
    ToPrompt(commands::compat::ToPromptArgs),
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
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::New(args) => commands::new::run(args),
        Command::Check(args) => commands::check::run(args),
        Command::Fix(args) => commands::fix::run(args),
        Command::Fmt(args) => commands::fmt::run(args),
        Command::List(args) => commands::inspect::list(args),
        Command::Show(args) => commands::inspect::show(args),
        Command::Catalog(args) => commands::inspect::catalog(args),
        Command::Budget(args) => commands::budget::run(args),
        Command::Tools(args) => commands::inspect::tools(args),
        Command::Expand(args) => commands::inspect::expand(args),
        Command::Schema(args) => commands::inspect::schema(args),
        Command::Explain { code } => explain(&code),
        Command::Test(args) => commands::test::run(args),
        Command::Route(args) => commands::route::run(args),
        #[cfg(feature = "signing")]
        Command::Sign(args) => commands::sign::run(args),
        #[cfg(not(feature = "signing"))]
        Command::Sign(_) => Err(Failure::Usage(
            "`sign` needs the `signing` feature, which this cargo-skills was built without: install it with `--features signing` (or default features)".to_owned(),
        )),
        Command::Install(args) => commands::install::run(args),
        Command::Pack(args) => commands::pack::run(args),
        Command::Add(args) => commands::add::run(args),
        Command::Update(args) => commands::vendoring::update(args),
        Command::Sync(args) => commands::vendoring::sync(args),
        Command::Remove(args) => commands::vendoring::remove(args),
        Command::Lock(args) => commands::vendoring::lock(args),
        Command::Verify(args) => commands::vendoring::verify(args),
        #[cfg(feature = "mcp")]
        Command::Serve(args) => commands::serve::run(args),
        #[cfg(not(feature = "mcp"))]
        Command::Serve(_) => Err(Failure::Usage(
            "`serve` needs the `mcp` feature, which this cargo-skills was built without: install it with default features (`cargo install --locked --path cargo-skills`)".to_owned(),
        )),
        #[cfg(feature = "lsp")]
        Command::Lsp => lsp::serve(),
        #[cfg(not(feature = "lsp"))]
        Command::Lsp(_) => Err(Failure::Usage(
            "`lsp` needs the `lsp` feature, which this cargo-skills was built without: install it with default features".to_owned(),
        )),
        Command::Validate(args) => commands::compat::validate(args),
        Command::ReadProperties(args) => commands::compat::read_properties(args),
        Command::ToPrompt(args) => commands::compat::to_prompt(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid) => ExitCode::from(1),
        // A message may quote a name from a file or a lock: printed by the
        // one rule, so that it cannot start a line of its own.
        Err(Failure::Usage(message)) => {
            anstream::eprintln!("error: {}", output::shown(&message));
            ExitCode::from(2)
        }
        Err(Failure::Io(message)) => {
            anstream::eprintln!("error: {}", output::shown(&message));
            ExitCode::from(1)
        }
    }
}

fn explain(code: &str) -> Result<(), Failure> {
    if code.eq_ignore_ascii_case("keys") {
        output::out!("{}", skills_compiler::keys::explain());
        return Ok(());
    }
    if let Some(text) = skills_compiler::keys::explain_key(code) {
        output::out!("{text}");
        return Ok(());
    }
    let code = code.parse::<skills_compiler::Code>().map_err(|()| {
        Failure::Usage(format!(
            "`{code}` is not a diagnostic code (they look like S101 or W003), a key \
             (`description`, `tool.endpoint`), nor `keys`"
        ))
    })?;
    output::out!("{}", skills_compiler::diagnostics::explain(code));
    Ok(())
}
