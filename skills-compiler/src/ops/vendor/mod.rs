//! Vendoring's operations: `add`, `update`, `sync`, `remove`, `lock` and
//! `verify`, each deciding what to do and returning a plan that
//! [`apply`](fn@crate::ops::apply) carries out, the one writer into a
//! package's tree. The mechanisms (fetching, what a source offers,
//! staging and checking a copy) are `vendoring`'s; the lock's format and
//! checks are `lock`'s.

pub mod add;
pub mod lock;
pub mod package;
pub mod remove;
pub mod sync;
pub mod update;
pub mod vendored;
pub mod verify;

// The mechanisms' types an operation's caller names.
pub use crate::vendoring::install::{Package, VendorError};
pub use crate::vendoring::source::Source;
pub use crate::vendoring::{Listed, OfferSummary, Outside, Pick, Signature, list, summaries};
pub use add::add;
pub use lock::{Locked, Locking, lock};
pub use package::{package, present, require_lock};
pub use remove::remove;
pub use sync::sync;
pub use update::update;
pub use vendored::Vendored;
pub use verify::{Verified, verify};
