//! Where a lint over the whole set points: at a skill's description.

use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;

/// A diagnostic at `skill`'s description, for lints over a whole set (whose
/// files were let go after validation: the text is rebuilt from the skill),
/// or at the file when `lenient` derived the description.
pub(crate) fn at_description(skill: &Skill, code: Code, message: String) -> Diagnostic {
    match &skill.description_span {
        Some(span) => {
            let file = SourceFile::new(skill.path(), skill.source_text());
            Diagnostic::at(code, &file, span.clone(), message).with_severity(Severity::Warning)
        }
        None => Diagnostic::warning(code, skill.path(), message),
    }
}
