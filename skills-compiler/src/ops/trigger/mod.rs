//! `test` and `route`: the catalogue a host lists of the targets' valid
//! skills ([`set`](mod@set)), the trigger cases to route over it
//! ([`cases`](mod@cases)), and a whole trigger run ([`run`](fn@run)):
//! the cases routed by the offline router, asked of a model, or replayed
//! from a record, judged, and the descriptions linted. The routing, the
//! judging and the figures are [`crate::routing`].

pub mod cases;
pub mod run;
pub mod set;

pub use cases::{Cases, OWN_CASES, OWN_EVALS, cases};
pub use run::{Model, Ran, Request, Router, run, save_record, shown_path};
pub use set::{LeftOut, Set, catalogue, lint_sources};
