//! `test` and `route`: the catalogue a host lists of the targets' valid
//! skills ([`set`](mod@set)), the trigger cases to route over it
//! ([`cases`](mod@cases)), and a whole trigger run ([`run`](fn@run)):
//! the cases routed by the offline router, asked of a model, or replayed
//! from a record, judged, and the descriptions linted. The routing, the
//! judging and the figures are the private `routing` module's.

pub mod cases;
pub mod explain;
pub mod run;
pub mod set;

pub use cases::{Case, Cases, Expected, OWN_CASES, OWN_EVALS, cases};
// The routing and the judging a front end names; the rest is the private
// `routing` module's.
pub use crate::routing::{
    Attractor, Catalogue, GateFailure, Gates, Outcome, Report, SkillFigures, Summary, evaluate,
    failures, host, json, lints, record,
};
pub use run::{Model, Ran, Request, Router, run, save_record, shown_path};
pub use set::{LeftOut, Set, catalogue, lint_sources};
