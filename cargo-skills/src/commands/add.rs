//! `cargo skills add`: skills copied from a git repository or a folder into
//! the skills root, checked, and locked (`skills_compiler::ops::vendor::add`).

use skills_compiler::ops::vendor::{self, Pick, Source};

use super::vendoring::{Where, carry_out};
use crate::failure::Failure;
use crate::output::outln;

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

pub fn run(args: AddArgs) -> Result<(), Failure> {
    let package = args.place.package()?;
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
