//! A skill as a zip bundle, for hosted APIs that take a skill as an upload
//! (Anthropic's `/v1/skills`, OpenAI's `/v1/skills` and the shell tool's
//! inline zips): one top-level folder named after the skill, `SKILL.md` at
//! its root, every file with its execute bit, entries sorted by path,
//! timestamps fixed. The same skill gives the same bytes, at build time
//! (`cargo skills pack`) and at run time ([`Skill::zip`]).
//!
//! The writer is this module's own, about a hundred lines of the ZIP
//! format (APPNOTE 6.3): deflate (flate2) where it saves bytes, stored
//! otherwise, UTF-8 names, Unix modes, no ZIP64 (a skill is at most
//! 16 MiB).

#[cfg(feature = "zip")]
mod zip;

#[cfg(feature = "zip")]
pub use zip::ZipLayout;

/// A path a bundle cannot hold: not relative, or with a `..`, `.` or empty
/// component, or a backslash, so that unpacking it could write outside the
/// skill's folder. A compiled or loaded skill never has one; a `Skill` put
/// together by hand can.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsafePath {
    /// The skill.
    pub skill: String,
    /// The path, as the skill holds it.
    pub path: String,
}

impl std::fmt::Display for UnsafePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` of skill `{}` cannot go into a bundle: a path must be relative, without `..`, `.` or empty parts and without backslashes, or unpacking it would write outside the skill's folder",
            crate::printable(&self.path),
            crate::printable(&self.skill)
        )
    }
}

impl std::error::Error for UnsafePath {}

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
