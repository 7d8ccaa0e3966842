//! The lock: `skills-lock.json`, the project lock of Vercel's `skills` CLI
//! (version 1), read and written byte for byte as that CLI does, with keys
//! of ours it ignores. A wing over the pipeline: what a skill folder holds
//! ([`hash`]), in the order that CLI hashes it ([`collate`]), as JavaScript
//! prints JSON ([`json`]).
//!
//! The macro's build reads and verifies locks; writing them, and the
//! re-exports `ops::vendor` names, are only `ops`'s. Those items are dead
//! in the macro's build and stay here, beside the format they write,
//! rather than split file by file behind `cfg`.
#![cfg_attr(
    not(feature = "ops"),
    allow(dead_code, unused_imports, unreachable_pub)
)]

pub(crate) mod cache;
pub(crate) mod collate;
pub(crate) mod file;
pub(crate) mod hash;
pub(crate) mod json;
pub(crate) mod offsets;
pub mod verify;

pub use cache::HashCache;
pub(crate) use file::folder_name_problem;
pub use file::{Entry, EntryFields, LOCK_FILE, LockFile};
pub use hash::{FileDigest, FolderDigest, HashError, Limits, Mode, file_digests, hash_folder};
pub use verify::{Change, ChangeKind, Status, compare, verify};
pub(crate) mod check;
