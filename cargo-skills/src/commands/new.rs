//! `cargo skills new`: scaffold a skill that passes `check` in the package's
//! profile, and set up rebuild tracking for crates that use the macro
//! ([`skills_compiler::ops::new`] plans it).

use std::path::{Path, PathBuf};

use skills_compiler::ops::new::{Request, Setup};
use skills_compiler::ops::{self, Guards};

use crate::failure::Failure;
use crate::output::outln;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill's name: lowercase letters, digits and single hyphens.
    name: String,
    /// A protocol: steps, post-checks and the three escape hatches.
    #[arg(long)]
    protocol: bool,
    /// Declare a tool (repeatable).
    #[arg(long = "tool", value_name = "NAME")]
    tools: Vec<String>,
    /// Write `<root>/<name>.md` instead of `<root>/<name>/SKILL.md`.
    #[arg(long)]
    flat: bool,
    /// The package to add the skill to (default: the one in the current directory).
    #[arg(short = 'p', long = "package", value_name = "PKG")]
    package: Option<String>,
    /// The skills root (default: the package's configured `dir`).
    #[arg(long)]
    dir: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let request = Request {
        // A crate without the runtime gets it from where this was built.
        runtime: ops::new::Source::of(
            "skills-runtime",
            Path::new(env!("CARGO_MANIFEST_DIR")),
            env!("CARGO_PKG_VERSION"),
        ),
        name: args.name,
        protocol: args.protocol,
        tools: args.tools,
        flat: args.flat,
        package: args.package,
        dir: args.dir,
    };
    let scaffold = ops::new::plan(&request)?;
    ops::apply(&scaffold.plan, Guards::default())?;
    outln!(
        "Created {} ({} profile)",
        scaffold.skill_file,
        scaffold.profile.as_str()
    );
    for step in &scaffold.setup {
        print_setup(step);
    }
    outln!("\nNext:");
    outln!(
        "  - write the description: it decides when a model uses the skill, and is sent on every turn"
    );
    if !request.tools.is_empty() {
        outln!("  - declare each tool's parameters, and an endpoint if the tool is an HTTP call");
    }
    outln!("  - cargo skills check");
    Ok(())
}

fn print_setup(step: &Setup) {
    match step {
        Setup::NotAPackage => outln!(
            "\nNot in a cargo package: only the skill was written. To embed it, run this in a crate (`cargo new`), or see the README's quick start."
        ),
        Setup::RuntimeAdded(entry) => outln!("Added to Cargo.toml: [dependencies] {entry}"),
        Setup::RuntimeByHand { reason, entry } => {
            outln!("\nAdd the runtime as a dependency ({reason}):");
            outln!("    skills-runtime = {entry}");
        }
        Setup::BuildScriptByHand(call) => {
            outln!(
                "\nbuild.rs exists without rebuild tracking: add this line to its `main`, so new skills are seen:"
            );
            outln!("    {call}");
        }
        Setup::BuildScriptCreated(path) => {
            outln!("Created {path} (rebuild tracking for include_skills!)");
        }
        Setup::BuildDependencyAdded(entry) => {
            outln!("Added to Cargo.toml: [build-dependencies] {entry}");
        }
        Setup::BuildDependencyByHand(reason) => {
            outln!("\nAdd `skills-build` as a build-dependency ({reason}):");
            outln!("    cargo add --build skills-build");
        }
        Setup::MacroNotUsed(root) => {
            outln!("\nNo source file uses the skills yet; add to src/main.rs or src/lib.rs:");
            outln!("    mod agent {{");
            outln!("        skills::include_skills!(\"{root}\");");
            outln!("    }}");
        }
    }
}
