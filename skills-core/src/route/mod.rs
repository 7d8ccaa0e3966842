//! Which skill a request is for, from the catalogue alone: what a model
//! reads before it picks a skill (each skill's name and the description the
//! host lists), and at run time, when asked, each skill's body too.
//!
//! The router is deterministic and offline. A request that starts with
//! `/NAME` or `$NAME` (as the host lets a user invoke a skill) invokes it;
//! a skill the request names (its whole name, when it has two words or
//! more) is chosen; otherwise the skills are ranked by BM25F over the
//! name's words, the listed text and, when given, the body.
//!
//! The best-ranked skill is chosen when its *confidence* clears a cut
//! ([`Params::threshold`]); else the router abstains. Confidence reads
//! only the request's words that some skill of the catalogue has: a
//! service name, a version, a ticket id or a time says nothing about which
//! skill fits, and never lowers it. It is the product of two shares, both
//! in [0, 1] and both relative to this catalogue:
//!
//! - *coverage*: the skill's score over the most the request's known words
//!   could score (how much of what the request says the skill is about);
//! - *evidence*: `1 - exp(-e / scale)`, where `e` is the score in units of
//!   what a word only one skill has scores, said once in its text (how
//!   specific the match is: one common word is weak, two rare ones are
//!   strong).
//!
//! Ties are broken by name.
//!
//! ```
//! use skills_core::route::{Doc, Router};
//!
//! let router = Router::new(&[
//!     Doc::new("pdf", "Fill in PDF forms and extract text from PDF files."),
//!     Doc::new("release-notes", "Write release notes from merged pull requests."),
//! ]);
//! assert_eq!(router.route("fill in this PDF form for me").chosen(), Some("pdf"));
//! assert_eq!(router.route("what's the weather in Lisbon?").chosen(), None);
//! ```

mod explain;
mod ranked;
mod router;
mod stem;
mod synonyms;
mod words;

pub use explain::{Explained, Field, MAX_WORDS, Matched, Why};
pub use ranked::{Ranked, Reason, Scored};
pub use router::{Doc, Params, Router};
pub use words::words;
