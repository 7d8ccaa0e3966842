//! `fmt`: each skill file in the one canonical frontmatter style
//! (`write::format`), planned.

use super::plan::{Change, Plan};
use super::targets::Target;
use crate::diagnostics::Diagnostic;
use crate::write::format;
// One skill's frontmatter in the canonical style, and the IR written back
// as text: what `fmt` plans, for a caller that formats text it holds.
pub use crate::write::files;
pub use crate::write::format::{Outcome, same_skill, skill, text_of};

/// What `fmt` will do.
#[derive(Debug, Clone, Default)]
pub struct Formatting {
    /// Each file not yet in the canonical style, with its canonical text.
    pub plan: Plan,
    /// Each file left as it is, in the order the files were read.
    pub left: Vec<Left>,
}

/// A file `fmt` leaves as it is.
#[derive(Debug, Clone)]
pub enum Left {
    /// On purpose (comments it would lose), and why.
    Skipped {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// It could not be checked (not UTF-8), and why: `fmt` fails.
    Unchecked {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// Discovery could not read it: its error. `fmt` fails.
    Unreadable(Box<Diagnostic>),
}

impl Formatting {
    /// The files that could not be checked.
    pub fn unchecked(&self) -> impl Iterator<Item = &str> {
        self.left.iter().filter_map(|left| match left {
            Left::Skipped { .. } => None,
            Left::Unchecked { path, .. } => Some(path.as_str()),
            Left::Unreadable(problem) => Some(problem.file.as_str()),
        })
    }
}

/// Every skill file of the targets, formatted.
pub fn plan(targets: &[Target]) -> Formatting {
    let mut formatting = Formatting::default();
    for target in targets {
        let mut problems = Vec::new();
        for files in target.files(&mut problems) {
            match format::skill(&files, &target.config) {
                Outcome::Unchanged => {}
                Outcome::Skipped(reason) => formatting.left.push(Left::Skipped {
                    path: files.path,
                    reason,
                }),
                Outcome::Unchecked(reason) => formatting.left.push(Left::Unchecked {
                    path: files.path,
                    reason,
                }),
                Outcome::Changed(after) => formatting.plan.changes.push(Change {
                    before: String::from_utf8_lossy(&files.bytes).into_owned(),
                    path: files.path,
                    after,
                }),
            }
        }
        // What discovery could not read is not formatted either.
        let unreadable = problems.into_iter().filter(Diagnostic::is_error);
        formatting
            .left
            .extend(unreadable.map(|d| Left::Unreadable(Box::new(d))));
    }
    formatting
}
