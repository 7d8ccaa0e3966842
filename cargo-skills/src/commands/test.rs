//! `cargo skills test`: trigger tests. Each case's query is routed over the
//! catalogue the host lists, and the choices are judged against what the
//! case expects; the rules and the figures are `skills_compiler::ops::trigger`.
//! `cargo skills route`: one query's ranking, to debug it.

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::diagnostics::sarif;
use skills_compiler::ops;
use skills_compiler::ops::trigger::{self, Expected, Report, Set};

use crate::failure::Failure;
use crate::output::{outln, shown};
use crate::router::{Asker, Asking, Router, parse_router, parse_threshold};
use crate::select::{Selection, catalogue_of};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills roots or single skill directories (default: every workspace package with skills).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Every skill below each PATH, at any depth, as `check --recursive`.
    #[arg(long, requires = "paths")]
    recursive: bool,
    /// A case file: a set's (skill-reach's `{"queries": [...]}`), or one
    /// skill's (in its folder, or `SKILL=FILE`). Repeatable; each skill's
    /// `evals/eval_queries.json` is read as well.
    #[arg(long = "cases", value_name = "FILE")]
    cases: Vec<String>,
    /// The router: `lexical` (offline, deterministic; the default, unless
    /// the manifest names a `replay` record), `anthropic:MODEL` (Messages
    /// API, ANTHROPIC_API_KEY) or `openai:MODEL` (Responses API,
    /// OPENAI_API_KEY).
    #[arg(long, value_parser = parse_router)]
    router: Option<Router>,
    /// Write each case's verdicts from the model router to FILE (keyed by
    /// model, the listed text's digests and the query), to replay in CI.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    record: Option<PathBuf>,
    /// Judge the cases offline from a record `--record` wrote (default: the
    /// manifest's `test.replay`). A case whose skills' listed text changed
    /// since is stale: the run fails and names it, or, with the model's key
    /// in the environment, asks the model again and updates the record.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Runs per case (default 1 for `lexical`, whose choices never vary, 3
    /// for a model); a case passes when at least half its runs choose right.
    #[arg(long)]
    runs: Option<usize>,
    #[command(flatten)]
    asking: Asking,
    /// The host whose listing the router reads: claude-code, codex, zed,
    /// agent-skills (default: the package's `test.host`, else claude-code).
    #[arg(long)]
    host: Option<skills_compiler::ops::budget::Host>,
    /// The least confidence, 0 to 1, the offline router chooses at
    /// (default: `threshold` in [package.metadata.skills.test], else 0.25).
    #[arg(long, value_name = "CUT", value_parser = parse_threshold)]
    threshold: Option<f64>,
    /// How to report.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    message_format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Failing requests under their skill, the pairs to separate, the figures.
    Human,
    /// One JSON object per case, then a summary object (stdout).
    Json,
    /// GitHub Actions annotations: each failing case at its line, each
    /// description warning, each missed gate (stdout).
    Github,
    /// One SARIF 2.1.0 log of the failing cases and the warnings (stdout).
    Sarif,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = catalogue_of(&args.selection, &args.paths, args.recursive, args.host)?;
    let request = ops::trigger::Request {
        cases: args.cases.clone(),
        router: args.router.clone(),
        record: args.record.clone(),
        replay: args.replay.clone(),
        runs: args.runs,
        threshold: args.threshold,
    };
    let ran = ops::trigger::run(&set, &request, &mut Asker(&args.asking))?;
    let color = crate::output::stderr_color();
    for diagnostic in &ran.case_problems {
        anstream::eprintln!("{}\n", render::human(diagnostic, &ran.case_files, color));
    }
    for note in &ran.notes {
        anstream::eprintln!("{note}");
    }
    let (report, lints) = (&ran.report, &ran.lints);
    match args.message_format {
        Format::Json => {
            for line in trigger::json::lines(report, &ran.gates, lints, &ran.lint_sources) {
                outln!("{line}");
            }
        }
        Format::Github => {
            for diagnostic in &ran.annotations() {
                outln!("{}", render::github(diagnostic));
            }
            for failure in &report.summary.failures {
                outln!("::error title=cargo skills test::{}", failure.describe());
            }
        }
        Format::Sarif => {
            let log = sarif::log(
                &ran.annotations(),
                "cargo-skills",
                env!("CARGO_PKG_VERSION"),
            );
            outln!("{log}");
        }
        Format::Human => {
            for lint in lints {
                anstream::eprintln!("{}\n", render::human(lint, &ran.lint_sources, color));
            }
            print_human(report, &set, &ran.router);
        }
    }
    if ran.passed() {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn print_human(report: &Report, set: &Set, router: &str) {
    let summary = &report.summary;
    anstream::eprintln!(
        "{} cases over {} skills, as {} lists them (router: {router})",
        summary.cases,
        set.catalogue.names().count(),
        set.host.budget().name()
    );
    let by_skill = report.failing_by_skill();
    for (skill, outcomes) in &by_skill {
        match summary
            .skills
            .iter()
            .find(|f| &f.skill == skill && f.cases > 0)
        {
            Some(f) => outln!(
                "{}: won {} of {}, ranked first {}, in the top 3 {}",
                shown(skill),
                f.found,
                f.cases,
                f.top1,
                f.top3
            ),
            None => outln!("{}:", shown(skill)),
        }
        for outcome in outcomes {
            let chosen = outcome.chosen.as_deref().unwrap_or("no skill");
            let wanted = match &outcome.case.expected {
                Expected::Skill { .. } => "",
                Expected::Nothing { .. } => " (wanted: no skill)",
                Expected::NotSkill(_) => " (wanted: any other, or none)",
            };
            let why = match outcome.case.expected.skill() {
                Some(skill) if set.is_left_out(skill) => {
                    " (it has errors: left out of the catalogue)"
                }
                _ => "",
            };
            outln!(
                "  FAIL {} \"{}\" -> {}{wanted}{why}",
                shown(&outcome.case.id),
                shown(&outcome.case.query),
                shown(chosen)
            );
        }
    }
    if !summary.attractors.is_empty() {
        outln!("pairs to separate (the second took the first's cases):");
        for pair in summary.attractors.iter().take(10) {
            outln!(
                "  {} -> {} ({} case{})",
                shown(&pair.expected),
                shown(&pair.chosen),
                pair.count,
                if pair.count == 1 { "" } else { "s" }
            );
        }
    }
    outln!(
        "decision accuracy {:.3}, recall {:.3}, misroute {:.3}, abstention {:.3} ({} of {} cases passed)",
        summary.accuracy,
        summary.recall,
        summary.misroute,
        summary.abstention,
        summary.passed,
        summary.cases
    );
    outln!(
        "ranking: top-1 {:.3}, top-3 {:.3}; {} failure{} abstained with the right skill ranked first",
        summary.top1,
        summary.top3,
        summary.abstained_ranked_first,
        if summary.abstained_ranked_first == 1 {
            ""
        } else {
            "s"
        }
    );
    match summary.threshold {
        Some(cut) => outln!(
            "cut: {cut:.3} (`--threshold`, or `threshold` in [package.metadata.skills.test])"
        ),
        None => outln!("cut: none (the model chooses)"),
    }
    for failure in &summary.failures {
        anstream::eprintln!("gate failed: {}", failure.describe());
    }
}
