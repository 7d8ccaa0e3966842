//! `cargo skills test`: trigger tests. Each case's query is routed over the
//! catalogue the host lists, and the choices are judged against what the
//! case expects; the rules and the figures are `skills_compiler::routing`.
//! `cargo skills route`: one query's ranking, to debug it.

use std::path::PathBuf;

use skills_compiler::diagnostics::render;
use skills_compiler::ops::{self, trigger::Set};
use skills_compiler::routing::cases::{Case, Expected};
use skills_compiler::routing::record::Record;
use skills_compiler::routing::{self, Gates, Report};

use crate::failure::Failure;
use crate::output::{outln, shown};
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
    /// A model router's API origin, for a proxy or a test server.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The most seconds one model request may take.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    timeout: u64,
    /// The most seconds the whole run of model requests may take, retry
    /// waits included: past it the run stops (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = 900)]
    deadline: u64,
    /// Model requests in flight at once.
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// The most model requests the run may send, retries included.
    #[arg(long, default_value_t = 1000)]
    max_requests: usize,
    /// The host whose listing the router reads: claude-code, codex, zed,
    /// agent-skills (default: the package's `test.host`, else claude-code).
    #[arg(long)]
    host: Option<skills_compiler::budget::Host>,
    /// The least confidence, 0 to 1, the offline router chooses at
    /// (default: `threshold` in [package.metadata.skills.test], else 0.25).
    #[arg(long, value_name = "CUT", value_parser = parse_threshold)]
    threshold: Option<f64>,
    /// How to report.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    message_format: Format,
}

/// A cut between 0 and 1.
pub fn parse_threshold(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(cut) if (0.0..=1.0).contains(&cut) => Ok(cut),
        Ok(_) => Err(format!("{} is not between 0 and 1", shown(value))),
        Err(_) => Err(format!("{} is not a number between 0 and 1", shown(value))),
    }
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

/// Who chooses the skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Router {
    /// The offline router.
    Lexical,
    /// A model, through its API.
    Model {
        provider: skills::model::Provider,
        model: String,
    },
}

impl Router {
    fn name(&self) -> String {
        match self {
            Router::Lexical => "lexical".to_owned(),
            Router::Model { provider, model } => format!("{}:{model}", provider_name(*provider)),
        }
    }
}

fn provider_name(provider: skills::model::Provider) -> &'static str {
    match provider {
        skills::model::Provider::Anthropic => "anthropic",
        _ => "openai",
    }
}

fn parse_router(value: &str) -> Result<Router, String> {
    use skills::model::Provider;
    let model = |provider, model: &str| {
        if model.trim().is_empty() {
            Err(format!(
                "`{value}` names no model: `anthropic:MODEL` or `openai:MODEL`"
            ))
        } else {
            Ok(Router::Model {
                provider,
                model: model.to_owned(),
            })
        }
    };
    match value.split_once(':') {
        None if value == "lexical" => Ok(Router::Lexical),
        Some(("anthropic", name)) => model(Provider::Anthropic, name),
        Some(("openai", name)) => model(Provider::OpenAiResponses, name),
        _ => Err(format!(
            "unknown router `{}`: `lexical`, `anthropic:MODEL` or `openai:MODEL`",
            shown(value)
        )),
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = catalogue_of(&args.selection, &args.paths, args.recursive, args.host)?;
    let read = ops::trigger::cases(&args.cases, &set)?;
    let color = crate::output::stderr_color();
    for diagnostic in &read.problems {
        anstream::eprintln!("{}\n", render::human(diagnostic, &read.files, color));
    }
    let errors = read
        .problems
        .iter()
        .filter(|d| d.severity == skills_compiler::diagnostics::Severity::Error)
        .count();
    if errors > 0 {
        let n = errors;
        return Err(Failure::Usage(format!(
            "{n} problem{} in the case files: nothing was routed",
            if n == 1 { "" } else { "s" }
        )));
    }
    let (cases, case_files) = (read.cases, read.files);
    if cases.is_empty() {
        return Err(Failure::Usage(format!(
            "no trigger cases: none of the {} skills has `{}`, and no `--cases` file was given",
            set.skills.len(),
            ops::trigger::OWN_CASES
        )));
    }
    let gates = Gates::of(set.config.test.as_ref());
    let replay = args.replay.clone().or_else(|| {
        let manifest = set.config.test.as_ref().and_then(|t| t.replay.clone());
        (args.router.is_none() && args.record.is_none())
            .then_some(manifest)
            .flatten()
    });
    let router = args.router.clone().unwrap_or(Router::Lexical);
    let (report, router_name) = match (&replay, &router) {
        (Some(path), _) => replay_run(&args, &set, &cases, path, &gates)?,
        (None, Router::Lexical) => {
            if args.record.is_some() {
                return Err(Failure::Usage(
                    "`--record` writes a model's verdicts: give `--router anthropic:MODEL` or `--router openai:MODEL`".to_owned(),
                ));
            }
            let router = set.router(args.threshold);
            let routed = |query: &str| Ok::<_, Failure>(router.route(query));
            let runs = args.runs.unwrap_or(1);
            (
                routing::evaluate(&cases, routed, runs, &gates)?,
                "lexical".to_owned(),
            )
        }
        (None, Router::Model { provider, model }) => {
            let runs = args.runs.unwrap_or(3).max(1);
            let choices = ask_model(&args, &set, &cases, *provider, model, runs)?;
            if let Some(path) = &args.record {
                let mut record = Record::new(
                    &router.name(),
                    set.host.budget().name(),
                    set.catalogue.digests(),
                );
                for (case, runs) in cases.iter().zip(choices.chunks(runs)) {
                    record.verdicts.insert(case.query.clone(), runs.to_vec());
                }
                ops::trigger::save_record(path, &record)?;
                anstream::eprintln!(
                    "recorded {} verdicts of {} to {}",
                    record.verdicts.len(),
                    router.name(),
                    shown(&path.display().to_string())
                );
            }
            (judge(&cases, &choices, runs, &gates)?, router.name())
        }
    };
    // Skills with errors first (S607), then what the run says of descriptions.
    let mut lints = set.left_out_diagnostics(&cases);
    let left_out = lints.len();
    lints.extend(routing::lints(&report, &set.skills));
    let sources = ops::trigger::lint_sources(&lints, &set.skills);
    match args.message_format {
        Format::Json => {
            for line in routing::json::lines(&report, &gates, &lints, &sources) {
                outln!("{line}");
            }
        }
        Format::Github => {
            for diagnostic in routing::failures(&report, &case_files).iter().chain(&lints) {
                outln!("{}", render::github(diagnostic));
            }
            for failure in &report.summary.failures {
                outln!("::error title=cargo skills test::{}", failure.describe());
            }
        }
        Format::Sarif => {
            let mut all = routing::failures(&report, &case_files);
            all.extend(lints.iter().cloned());
            outln!(
                "{}",
                skills_compiler::diagnostics::sarif::log(
                    &all,
                    "cargo-skills",
                    env!("CARGO_PKG_VERSION")
                )
            );
        }
        Format::Human => {
            let color = crate::output::stderr_color();
            for lint in &lints {
                anstream::eprintln!("{}\n", render::human(lint, &sources, color));
            }
            print_human(&report, &set, &router_name);
        }
    }
    if report.summary.failures.is_empty() && left_out == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// The report of choices already made: `choices` holds each case's `runs`,
/// case by case.
fn judge(
    cases: &[Case],
    choices: &[Option<String>],
    runs: usize,
    gates: &Gates,
) -> Result<Report, Failure> {
    let mut choices = choices.iter();
    let routed = |_: &str| {
        Ok::<_, Failure>(skills_core::route::Ranked::only(
            choices.next().and_then(|c| c.as_deref()),
        ))
    };
    routing::evaluate(cases, routed, runs, gates)
}

/// The cases judged from a record: its model's verdicts, each case's runs
/// as recorded. Stale cases fail the run with their names, or are asked
/// anew when the model's key is in the environment (the record is then
/// updated).
fn replay_run(
    args: &Args,
    set: &Set,
    cases: &[Case],
    path: &std::path::Path,
    gates: &Gates,
) -> Result<(Report, String), Failure> {
    let shown_path = ops::trigger::shown_path(path);
    let color = crate::output::stderr_color();
    let refuse =
        |diagnostics: Vec<skills_compiler::diagnostics::Diagnostic>,
         source: Option<&skills_compiler::diagnostics::source::SourceFile>| {
            let mut sources = skills_compiler::diagnostics::source::Sources::default();
            if let Some(source) = source {
                sources.insert(source.clone());
            }
            for diagnostic in &diagnostics {
                anstream::eprintln!("{}\n", render::human(diagnostic, &sources, color));
            }
            Failure::Usage(format!(
                "{shown_path}: the record cannot be replayed: nothing was judged"
            ))
        };
    let (mut record, source) =
        routing::record::load(path, &shown_path).map_err(|d| refuse(d, None))?;
    if let Some(Router::Model { .. }) = &args.router {
        let name = args.router.as_ref().map(Router::name).unwrap_or_default();
        if let Some(mismatch) = record.check_model(&name, &source) {
            return Err(refuse(vec![mismatch], Some(&source)));
        }
    }
    let listing = set.catalogue.digests();
    if let Some(other) = record.check_catalogue(set.host.budget().name(), &listing, &source) {
        return Err(refuse(vec![other], Some(&source)));
    }
    let stale: Vec<(&Case, routing::record::Stale)> = cases
        .iter()
        .filter_map(|case| record.stale(case, &listing).map(|why| (case, why)))
        .collect();
    if !stale.is_empty() {
        let router = parse_router(&record.model)
            .map_err(|why| Failure::Usage(format!("{shown_path}: `model`: {why}")))?;
        match (&router, key_present(&router)) {
            (Router::Model { provider, model }, true) => {
                let runs = args.runs.unwrap_or(3).max(1);
                let again: Vec<Case> = stale.iter().map(|(case, _)| (*case).clone()).collect();
                let choices = ask_model(args, set, &again, *provider, model, runs)?;
                for (case, runs) in again.iter().zip(choices.chunks(runs)) {
                    record.verdicts.insert(case.query.clone(), runs.to_vec());
                }
                record.listing = listing;
                ops::trigger::save_record(path, &record)?;
                anstream::eprintln!(
                    "re-recorded {} stale verdict{} of {} in {shown_path}",
                    again.len(),
                    if again.len() == 1 { "" } else { "s" },
                    record.model
                );
            }
            _ => {
                for (case, why) in &stale {
                    anstream::eprintln!(
                        "stale: case `{}` (\"{}\"): {}",
                        shown(&case.id),
                        shown(&case.query),
                        why.describe()
                    );
                }
                anstream::eprintln!(
                    "error: {} of {} cases cannot be replayed from {shown_path}: record them again with `cargo skills test --router {} --record {shown_path}` (the key in the environment)",
                    stale.len(),
                    cases.len(),
                    record.model
                );
                return Err(Failure::Invalid);
            }
        }
    }
    let runs = record.verdicts.values().map(Vec::len).max().unwrap_or(1);
    let mut choices = Vec::with_capacity(cases.len() * runs);
    for case in cases {
        let recorded = record
            .verdicts
            .get(&case.query)
            .cloned()
            .unwrap_or_default();
        // A case recorded with fewer runs votes with what it has.
        for run in 0..runs {
            choices.push(
                recorded
                    .get(run)
                    .cloned()
                    .unwrap_or_else(|| recorded.first().cloned().flatten()),
            );
        }
    }
    let name = format!("{} (replayed from {shown_path})", record.model);
    Ok((judge(cases, &choices, runs, gates)?, name))
}

/// Whether the API key of a model router is in the environment.
fn key_present(router: &Router) -> bool {
    let variable = match router {
        Router::Model {
            provider: skills::model::Provider::Anthropic,
            ..
        } => "ANTHROPIC_API_KEY",
        Router::Model { .. } => "OPENAI_API_KEY",
        Router::Lexical => return false,
    };
    std::env::var(variable).is_ok_and(|key| !key.trim().is_empty())
}

/// Each case's runs, asked of the model in order (case by case, run by run).
#[cfg(feature = "models")]
fn ask_model(
    args: &Args,
    set: &Set,
    cases: &[Case],
    provider: skills::model::Provider,
    model: &str,
    runs: usize,
) -> Result<Vec<Option<String>>, Failure> {
    let variable = match provider {
        skills::model::Provider::Anthropic => "ANTHROPIC_API_KEY",
        _ => "OPENAI_API_KEY",
    };
    let key = std::env::var(variable)
        .ok()
        .filter(|key| !key.trim().is_empty())
        .ok_or_else(|| {
            Failure::Usage(format!(
                "`--router {}` needs an API key in {variable}: nothing was sent",
                Router::Model {
                    provider,
                    model: model.to_owned()
                }
                .name()
            ))
        })?;
    let (listed, listing) = set.listed();
    let runtime_set = skills::SkillSet::owned(listed);
    let toolset = skills::Toolset::new(&runtime_set);
    let mut router = skills::route::ModelRouter::new(provider, model, &toolset, &listing, &key);
    if let Some(url) = &args.base_url {
        router = router
            .base_url(url)
            .map_err(|why| Failure::Usage(format!("--base-url: {why}")))?;
    }
    let queries: Vec<String> = cases
        .iter()
        .flat_map(|case| std::iter::repeat_n(case.query.clone(), runs))
        .collect();
    let limits = crate::models::Limits {
        concurrency: args.concurrency,
        timeout: std::time::Duration::from_secs(args.timeout.max(1)),
        max_requests: args.max_requests,
        retries: 4,
        deadline: std::time::Duration::from_secs(args.deadline.max(1)),
    };
    crate::models::ask_all(&router, &queries, limits).map_err(|error| {
        Failure::Usage(format!(
            "{}: {error}",
            Router::Model {
                provider,
                model: model.to_owned()
            }
            .name()
        ))
    })
}

#[cfg(not(feature = "models"))]
fn ask_model(
    _: &Args,
    _: &Set,
    _: &[Case],
    provider: skills::model::Provider,
    model: &str,
    _: usize,
) -> Result<Vec<Option<String>>, Failure> {
    Err(Failure::Usage(format!(
        "`--router {}` needs the `models` feature, which this cargo-skills was built without: install it with default features",
        Router::Model {
            provider,
            model: model.to_owned()
        }
        .name()
    )))
}

fn print_human(report: &Report, set: &Set, router: &str) {
    let summary = &report.summary;
    anstream::eprintln!(
        "{} cases over {} skills, as {} lists them (router: {router})",
        summary.cases,
        set.catalogue.names().count(),
        set.host.budget().name()
    );
    let failing: Vec<_> = report.outcomes.iter().filter(|o| !o.pass).collect();
    let mut by_skill: std::collections::BTreeMap<String, Vec<_>> = Default::default();
    for outcome in &failing {
        let key = match &outcome.case.expected {
            Expected::Skill { name, .. } | Expected::NotSkill(name) => name.clone(),
            Expected::Nothing { .. } => "(no skill)".to_owned(),
        };
        by_skill.entry(key).or_default().push(outcome);
    }
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
