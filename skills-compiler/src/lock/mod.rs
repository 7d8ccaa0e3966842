//! The lock: `skills-lock.json`, the project lock of Vercel's `skills` CLI
//! (version 1), read and written byte for byte as that CLI does, with keys
//! of ours it ignores. A wing over the pipeline: what a skill folder holds
//! ([`hash`]), in the order that CLI hashes it ([`collate`]), as JavaScript
//! prints JSON ([`json`]).

pub mod cache;
pub mod collate;
pub mod file;
pub mod hash;
pub mod json;
pub mod offsets;
pub mod verify;

pub use cache::HashCache;
pub use file::{Entry, EntryFields, LOCK_FILE, LockFile, folder_name_problem};
pub use hash::{FileDigest, FolderDigest, HashError, Limits, Mode, file_digests, hash_folder};
pub use verify::{Change, ChangeKind, Status, compare, verify};
pub mod check;
