//! W012: a description or body holds characters that do not show. Both are
//! prompt text: a model reads every character, a reviewer sees none of
//! these. Unicode tag characters spell hidden ASCII ("ASCII smuggling"),
//! zero-width characters hide text between visible letters, and
//! text-direction controls reorder what a reviewer reads.

use crate::config::Profile;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;

/// W012 on the description and on the body, each at its first hidden
/// character: a warning in `extended` and `lenient`, an error in `portable`.
pub(super) fn text(
    skill: &Skill,
    source: &SourceFile,
    profile: Profile,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let text = source.text();
    let body_start = text.len().saturating_sub(skill.body.len());
    let mut places = Vec::new();
    if let Some(span) = &skill.description_span
        && let Some(value) = text.get(span.clone())
    {
        places.push(("description", span.start, value));
    }
    places.push(("body", body_start, &text[body_start..]));
    for (what, start, value) in places {
        if let Some(diagnostic) = hidden_in(what, start, value, source, profile) {
            diagnostics.push(diagnostic);
        }
    }
}

fn hidden_in(
    what: &str,
    start: usize,
    value: &str,
    source: &SourceFile,
    profile: Profile,
) -> Option<Diagnostic> {
    // Only the characters that may be invisible are decoded: a body of
    // prose is a few vectorised passes.
    let found: Vec<(usize, char)> = skills_core::invisible_chars(value).collect();
    let &(first, c) = found.first()?;
    let count = found.len();
    let at = start + first;
    let severity = if profile == Profile::Portable {
        Severity::Error
    } else {
        Severity::Warning
    };
    let smuggled: String = found
        .iter()
        .filter_map(|&(_, c)| match u32::from(c) {
            code @ 0xE0020..=0xE007E => char::from_u32(code - 0xE0000),
            _ => None,
        })
        .collect();
    let shown = if smuggled.is_empty() {
        String::new()
    } else {
        format!("; its tag characters spell `{}`", smuggled.escape_debug())
    };
    Some(
        Diagnostic::at(
            Code::HiddenText,
            source,
            at..at + c.len_utf8(),
            format!(
                "the {what} holds {count} character{} that do not show, the first U+{:04X}{shown}: a model reads them, a reviewer does not",
                if count == 1 { "" } else { "s" },
                u32::from(c)
            ),
        )
        .with_severity(severity)
        .with_help("remove them; if a character is meant (a right-to-left word), write the text without the control characters"),
    )
}
