//! `cargo skills serve`: skills directories as an MCP server over stdio.
//! Stdout is the protocol; every diagnostic goes to stderr, and invalid
//! skills keep the server from starting, unless `--skip-invalid` leaves
//! them out.

use std::path::PathBuf;

use skills::loader::{Loader, Profile};
use skills::{Layers, SkillSet};

use crate::failure::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots, skill directories or flat `.md` skills; the first wins a name.
    #[arg(default_value = "skills")]
    pub paths: Vec<PathBuf>,
    /// The rules the skills are loaded with: portable, extended or lenient.
    #[arg(long, default_value = "extended")]
    pub profile: Profile,
    /// Send every request to this `scheme://host[:port]` instead of each
    /// skill's origin (staging, tests).
    #[arg(long)]
    pub origin: Option<String>,
    /// Do not offer `load_skill` and `read_skill_resource` to clients
    /// without the skills extension (they are offered by default, so that
    /// every client can open the skills and their files).
    #[arg(long)]
    pub no_host_tools: bool,
    /// Serve the valid skills of a root that holds invalid ones: each
    /// invalid skill is left out, and its diagnostics printed on stderr.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Also send a JSON object response as MCP structured content, beside
    /// its text (for a host that reads structured content without an
    /// output schema; the text holds the same JSON).
    #[arg(long)]
    pub structured_content: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = load(&args)?;
    let mut builder = skills_mcp::Builder::new(set)
        .host_tools(!args.no_host_tools)
        .structured_content(args.structured_content);
    if let Some(origin) = &args.origin {
        builder = builder.origin(origin.clone());
    }
    let server = builder.build().map_err(|e| Failure::Usage(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the async runtime: {e}")))?;
    runtime
        .block_on(server.serve_stdio())
        .map_err(|e| Failure::Io(e.to_string()))
}

/// Every path loaded, merged in order; diagnostics to stderr.
fn load(args: &Args) -> Result<SkillSet, Failure> {
    let loader = Loader::new()
        .profile(args.profile)
        .skip_invalid(args.skip_invalid);
    let mut sets = Vec::new();
    let mut failed = false;
    for path in &args.paths {
        match loader.load_path(path) {
            Ok(loaded) => {
                eprint!("{}", loaded.render_warnings());
                eprint!("{}", loaded.render_skipped());
                sets.push((path.display().to_string(), loaded.into_set()));
            }
            Err(error) => {
                eprintln!("{error}");
                failed = true;
            }
        }
    }
    if failed {
        eprintln!("error: not serving: fix the skills above first");
        return Err(Failure::Invalid);
    }
    let mut layers = Layers::new();
    for (label, set) in &sets {
        layers = layers.layer(label.clone(), set);
    }
    let merged = layers.merge();
    for shadowed in &merged.shadowed {
        eprintln!("note: {shadowed}");
    }
    for (tool, skills) in merged.set.ambiguous_tools() {
        eprintln!(
            "warning: tool `{tool}` is declared by {}: calls of it cannot be dispatched",
            skills.join(", ")
        );
    }
    let n = merged.set.len();
    // Zero skills is no server worth starting, with or without
    // --skip-invalid (issue 40, item 6): say so and refuse.
    if n == 0 {
        eprintln!(
            "error: not serving: no valid skill was found in {}",
            paths_shown(&args.paths)
        );
        return Err(Failure::Invalid);
    }
    eprintln!(
        "serving {n} skill{} over stdio (MCP)",
        if n == 1 { "" } else { "s" }
    );
    Ok(merged.set)
}

fn paths_shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| format!("`{}`", p.display()))
        .collect::<Vec<_>>()
        .join(", ")
}
