//! A skill as a zip bundle, for hosted APIs that take a skill as an upload
//! (Anthropic's `/v1/skills`, OpenAI's `/v1/skills` and the shell tool's
//! inline zips): one top-level folder named after the skill, `SKILL.md` at
//! its root, every file with its execute bit, entries sorted by path,
//! timestamps fixed. The same skill gives the same bytes, at build time
//! (`cargo skills pack`) and at run time ([`Skill::zip`](crate::Skill::zip)).
//!
//! The writer is this module's own, about a hundred lines of the ZIP
//! format (APPNOTE 6.3): deflate (flate2) where it saves bytes, stored
//! otherwise, UTF-8 names, Unix modes, no ZIP64 (a skill is at most
//! 16 MiB).

mod path;
#[cfg(feature = "zip")]
mod zip;

pub use path::UnsafePath;

#[cfg(feature = "zip")]
pub use zip::ZipLayout;

/// The limits of the hosted APIs a bundle is uploaded to, checked before
/// anything is written (`cargo skills pack`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadLimit {
    /// The API.
    pub host: &'static str,
    /// An upload must be smaller than this many bytes.
    pub max_bytes: u64,
    /// Where the API says so.
    pub source: &'static str,
}

/// The documented upload limits, smallest first.
pub const UPLOAD_LIMITS: &[UploadLimit] = &[UploadLimit {
    host: "Anthropic Skills API",
    max_bytes: 8_000_000,
    source: "https://docs.claude.com/en/api/skills-guide (\"Total upload size must be under 8MB\"; all files under one top-level folder with SKILL.md at its root)",
}];
