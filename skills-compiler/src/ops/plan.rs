//! What an operation will write, before it writes: each file's text
//! before and after, each file or folder renamed, and each folder moved
//! into its place (vendoring's staged skills). A plan can be printed (a
//! dry run), diffed (`fmt --check`) or handed to
//! [`apply`](fn@super::apply), which checks all of it before the first write.

use crate::diagnostics::Code;
pub use crate::write::fix::Change;

/// Every write and rename an operation decided on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Each file written, once: its text before (empty for a file the plan
    /// creates) and after.
    pub changes: Vec<Change>,
    /// Each file or folder renamed, as the disk names them before the plan
    /// runs. They are done after the writes, the deepest first.
    pub renames: Vec<Rename>,
    /// Each folder moved into its place (a staged skill into the root, a
    /// removed one out of it), after the writes and the renames.
    pub moves: Vec<Move>,
}

/// One folder moved by a plan: a skill staged beside the root put in its
/// place, or a skill taken out of the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The folder to move.
    pub from: std::path::PathBuf,
    /// Where it goes; the folders above it are made when missing.
    pub to: std::path::PathBuf,
    /// Where a folder already at `to` is moved first (it is put back if
    /// the plan fails); `None` when nothing may be there.
    pub aside: Option<std::path::PathBuf>,
}

/// One rename of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    /// The file or folder, as it is named now.
    pub from: String,
    /// Its new name.
    pub to: String,
    /// The diagnostic whose fix-it this is (`S502` for `skill.md`), when
    /// it is one: the rename is reported with it.
    pub code: Option<Code>,
}

impl Plan {
    /// Whether the plan writes and renames nothing.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.renames.is_empty() && self.moves.is_empty()
    }
}

/// A unified diff of one change, with `a/` and `b/` paths as git writes
/// them.
///
/// ```
/// use skills_compiler::ops::{Change, diff};
///
/// let change = Change {
///     path: "skills/a/SKILL.md".into(),
///     before: "one\n".into(),
///     after: "two\n".into(),
/// };
/// assert!(diff(&change).contains("--- a/skills/a/SKILL.md\n+++ b/skills/a/SKILL.md\n"));
/// ```
pub fn diff(change: &Change) -> String {
    similar::TextDiff::from_lines(&change.before, &change.after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{}", change.path), &format!("b/{}", change.path))
        .to_string()
}
