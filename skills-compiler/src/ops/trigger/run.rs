//! A whole trigger run (`cargo skills test`): the cases read, routed by
//! the offline router, asked of a model or replayed from a record, judged
//! against the gates, and the descriptions linted. A front end parses its
//! arguments into a [`Request`], asks a model through [`Model`] (the
//! network is the front end's), and prints the [`Ran`].

use std::path::{Path, PathBuf};

use skills_core::printable;

use super::super::error::Error;
use super::cases::{OWN_CASES, cases};
use super::set::{Set, lint_sources};
use crate::diagnostics::source::Sources;
use crate::diagnostics::{Diagnostic, Severity};
use crate::read::discover::display_path;
use crate::routing::cases::Case;
use crate::routing::record::{self, Record, Stale};
use crate::routing::{self, Gates, Report};

/// Who chooses the skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Router {
    /// The offline router.
    Lexical,
    /// A model, named as records name it (`anthropic:MODEL`).
    Model(String),
}

impl Router {
    /// How reports and records name it.
    pub fn name(&self) -> &str {
        match self {
            Router::Lexical => "lexical",
            Router::Model(name) => name,
        }
    }
}

/// What a trigger run is asked to do.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Request {
    /// Case files beside each skill's own (`--cases`).
    pub cases: Vec<String>,
    /// The router asked for; `None` is the offline router, unless the
    /// manifest names a `replay` record.
    pub router: Option<Router>,
    /// Write the model's verdicts to this file.
    pub record: Option<PathBuf>,
    /// Judge from this record (default: the manifest's `test.replay`).
    pub replay: Option<PathBuf>,
    /// Runs per case (default 1 offline, 3 for a model).
    pub runs: Option<usize>,
    /// The offline router's cut (default: the manifest's, else its own).
    pub threshold: Option<f64>,
}

/// A model the front end can ask: the requests, keys and limits are its.
pub trait Model {
    /// Whether `model` (`anthropic:MODEL`) can be asked now (its key is in
    /// the environment); `Err` says why the name is no model.
    fn can_ask(&self, model: &str) -> Result<bool, String>;

    /// Each case's `runs` choices, case by case, run by run.
    fn ask(
        &mut self,
        model: &str,
        set: &Set,
        cases: &[Case],
        runs: usize,
    ) -> Result<Vec<Option<String>>, Error>;
}

/// What a trigger run found.
#[derive(Debug)]
pub struct Ran {
    /// The cases judged, with the figures.
    pub report: Report,
    /// The gates the figures were held to.
    pub gates: Gates,
    /// The router, as the report names it (`lexical`, `MODEL (replayed
    /// from FILE)`).
    pub router: String,
    /// Warnings on the case files, to render with `case_files`.
    pub case_problems: Vec<Diagnostic>,
    /// The case files, to quote a case at its line.
    pub case_files: Sources,
    /// What the run wrote (`recorded 4 verdicts of ... to FILE`).
    pub notes: Vec<String>,
    /// Skills with errors that cases name (S607) first, then what the run
    /// says of descriptions; to render with `lint_sources`.
    pub lints: Vec<Diagnostic>,
    /// The skill files the lints quote.
    pub lint_sources: Sources,
    /// How many skills the cases name were left out for their errors.
    pub left_out: usize,
}

impl Ran {
    /// Each failing case at its line, then the lints: what annotations
    /// (GitHub, SARIF) carry.
    pub fn annotations(&self) -> Vec<Diagnostic> {
        let mut all = routing::failures(&self.report, &self.case_files);
        all.extend(self.lints.iter().cloned());
        all
    }

    /// Every case passed, every gate held, and no case names a skill
    /// with errors.
    pub fn passed(&self) -> bool {
        self.report.summary.failures.is_empty() && self.left_out == 0
    }
}

/// Runs the trigger tests of `set` as `request` asks, a model asked
/// through `model`. Nothing to route (no case), a case file with errors,
/// or a record that is not this run's stops the run before anything is
/// judged.
pub fn run(set: &Set, request: &Request, model: &mut dyn Model) -> Result<Ran, Error> {
    let read = cases(&request.cases, set)?;
    let errors = (read.problems.iter())
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        return Err(Error::Located {
            diagnostics: read.problems,
            sources: read.files,
            outcome: format!(
                "{errors} problem{} in the case files: nothing was routed",
                if errors == 1 { "" } else { "s" }
            ),
        });
    }
    if read.cases.is_empty() {
        return Err(Error::Located {
            diagnostics: read.problems,
            sources: read.files,
            outcome: format!(
                "no trigger cases: none of the {} skills has `{OWN_CASES}`, and no `--cases` file was given",
                set.skills.len()
            ),
        });
    }
    let gates = Gates::of(set.config.test.as_ref());
    let cases = read.cases;
    let mut notes = Vec::new();
    let (report, router) = match (replay_of(set, request), &request.router) {
        (Some(path), _) => replay(set, request, &cases, &path, &gates, model, &mut notes)?,
        (None, None | Some(Router::Lexical)) => {
            if request.record.is_some() {
                return Err(Error::Usage(
                    "`--record` writes a model's verdicts: give `--router anthropic:MODEL` or `--router openai:MODEL`".to_owned(),
                ));
            }
            let router = set.router(request.threshold);
            let routed = |query: &str| Ok::<_, Error>(router.route(query));
            let runs = request.runs.unwrap_or(1);
            let report = routing::evaluate(&cases, routed, runs, &gates)?;
            (report, "lexical".to_owned())
        }
        (None, Some(Router::Model(name))) => {
            let runs = request.runs.unwrap_or(3).max(1);
            let choices = model.ask(name, set, &cases, runs)?;
            if let Some(path) = &request.record {
                let mut record =
                    Record::new(name, set.host.budget().name(), set.catalogue.digests());
                for (case, runs) in cases.iter().zip(choices.chunks(runs)) {
                    record.verdicts.insert(case.query.clone(), runs.to_vec());
                }
                save_record(path, &record)?;
                notes.push(format!(
                    "recorded {} verdicts of {name} to {}",
                    record.verdicts.len(),
                    printable(&path.display().to_string())
                ));
            }
            (judge(&cases, &choices, runs, &gates), name.clone())
        }
    };
    let mut lints = set.left_out_diagnostics(&cases);
    let left_out = lints.len();
    lints.extend(routing::lints(&report, &set.skills));
    let lint_sources = lint_sources(&lints, &set.skills);
    Ok(Ran {
        report,
        gates,
        router,
        case_problems: read.problems,
        case_files: read.files,
        notes,
        lints,
        lint_sources,
        left_out,
    })
}

/// The record to judge from: the one asked for, else the manifest's when
/// neither a router nor a record was asked for.
fn replay_of(set: &Set, request: &Request) -> Option<PathBuf> {
    if let Some(path) = &request.replay {
        return Some(path.clone());
    }
    let manifest = set.config.test.as_ref()?.replay.clone()?;
    (request.router.is_none() && request.record.is_none()).then_some(manifest)
}

/// The report of choices already made: `choices` holds each case's `runs`,
/// case by case.
fn judge(cases: &[Case], choices: &[Option<String>], runs: usize, gates: &Gates) -> Report {
    let mut choices = choices.iter();
    let routed = |_: &str| {
        Ok::<_, std::convert::Infallible>(skills_core::route::Ranked::only(
            choices.next().and_then(|c| c.as_deref()),
        ))
    };
    match routing::evaluate(cases, routed, runs, gates) {
        Ok(report) => report,
        Err(never) => match never {},
    }
}

/// The cases judged from a record: its model's verdicts, each case's runs
/// as recorded. Stale cases stop the run with their names, or are asked
/// anew when the model can be asked (the record is then updated).
fn replay(
    set: &Set,
    request: &Request,
    cases: &[Case],
    path: &Path,
    gates: &Gates,
    model: &mut dyn Model,
    notes: &mut Vec<String>,
) -> Result<(Report, String), Error> {
    let shown_path = shown_path(path);
    let refuse = |diagnostics: Vec<Diagnostic>, sources: Sources| Error::Located {
        diagnostics,
        sources,
        outcome: format!("{shown_path}: the record cannot be replayed: nothing was judged"),
    };
    let (mut record, source) =
        record::load(path, &shown_path).map_err(|d| refuse(d, Sources::default()))?;
    let quoted = || {
        let mut sources = Sources::default();
        sources.insert(source.clone());
        sources
    };
    if let Some(Router::Model(name)) = &request.router
        && let Some(mismatch) = record.check_model(name, &source)
    {
        return Err(refuse(vec![mismatch], quoted()));
    }
    let listing = set.catalogue.digests();
    if let Some(other) = record.check_catalogue(set.host.budget().name(), &listing, &source) {
        return Err(refuse(vec![other], quoted()));
    }
    let stale: Vec<(&Case, Stale)> = (cases.iter())
        .filter_map(|case| record.stale(case, &listing).map(|why| (case, why)))
        .collect();
    if !stale.is_empty() {
        let can_ask = (model.can_ask(&record.model))
            .map_err(|why| Error::Usage(format!("{shown_path}: `model`: {why}")))?;
        if !can_ask {
            return Err(Error::Unmet {
                said: stale
                    .iter()
                    .map(|(case, why)| stale_line(case, why))
                    .collect(),
                outcome: format!(
                    "{} of {} cases cannot be replayed from {shown_path}: record them again with `cargo skills test --router {} --record {shown_path}` (the key in the environment)",
                    stale.len(),
                    cases.len(),
                    record.model
                ),
            });
        }
        let runs = request.runs.unwrap_or(3).max(1);
        let again: Vec<Case> = stale.iter().map(|(case, _)| (*case).clone()).collect();
        let choices = model.ask(&record.model.clone(), set, &again, runs)?;
        for (case, runs) in again.iter().zip(choices.chunks(runs)) {
            record.verdicts.insert(case.query.clone(), runs.to_vec());
        }
        record.listing = listing;
        save_record(path, &record)?;
        notes.push(format!(
            "re-recorded {} stale verdict{} of {} in {shown_path}",
            again.len(),
            if again.len() == 1 { "" } else { "s" },
            record.model
        ));
    }
    let (choices, runs) = recorded_choices(&record, cases);
    let name = format!("{} (replayed from {shown_path})", record.model);
    Ok((judge(cases, &choices, runs, gates), name))
}

/// What `test` says of a stale case.
fn stale_line(case: &Case, why: &Stale) -> String {
    format!(
        "stale: case `{}` (\"{}\"): {}",
        printable(&case.id),
        printable(&case.query),
        why.describe()
    )
}

/// Each case's recorded runs, as many for each as the record's most: a
/// case recorded with fewer runs votes with what it has.
fn recorded_choices(record: &Record, cases: &[Case]) -> (Vec<Option<String>>, usize) {
    let runs = record.verdicts.values().map(Vec::len).max().unwrap_or(1);
    let mut choices = Vec::with_capacity(cases.len() * runs);
    for case in cases {
        let recorded = record
            .verdicts
            .get(&case.query)
            .cloned()
            .unwrap_or_default();
        for run in 0..runs {
            choices.push(
                recorded
                    .get(run)
                    .cloned()
                    .unwrap_or_else(|| recorded.first().cloned().flatten()),
            );
        }
    }
    (choices, runs)
}

/// `path` as messages show it: relative to the current directory when
/// under it (a manifest's paths are read from the package).
pub fn shown_path(path: &Path) -> String {
    display_path(&crate::ops::targets::relative_to_cwd(path))
}

/// Writes `record` as the file `path`, whole (a reader never sees half).
pub fn save_record(path: &Path, record: &Record) -> Result<(), Error> {
    super::super::files::write_whole(path, record.to_json().as_bytes())
        .map_err(|error| Error::Io(format!("cannot write {}: {error}", display_path(path))))
}
