//! W012: text that reaches a model holds characters that do not show. A
//! model reads every character, a reviewer sees none of these: Unicode tag
//! characters spell hidden ASCII ("ASCII smuggling"), zero-width characters
//! hide text between visible letters, text-direction controls reorder what
//! a reviewer reads, and an ESC sequence can hide the rest of a line from a
//! terminal. Every place a model reads is looked at: the description and
//! the body, each tool's and parameter's description, the names of the
//! skill's files and the text of those files.

use crate::config::Profile;
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::{ObjectType, Skill, Tool, Type};

/// W012 on the description and on the body, each at its first hidden
/// character: a warning in `extended` and `lenient`, an error in `portable`.
/// A description whose hidden character is a YAML escape (`"\e"`) is found
/// in its value and reported at the value.
pub(super) fn text(
    skill: &Skill,
    source: &SourceFile,
    profile: Profile,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let text = source.text();
    let body_start = text.len().saturating_sub(skill.body().len());
    let mut places = Vec::new();
    if let Some(span) = &skill.description_span
        && let Some(value) = text.get(span.clone())
    {
        if skills_core::hidden_chars(value).next().is_some() {
            places.push(("the description".to_owned(), span.start, value));
        } else if let Some(found) = Found::in_text(skill.description()) {
            let at = span.start..span.start;
            diagnostics.push(found.diagnostic(Place::At(source, at), "the description", profile));
        }
    }
    places.push(("the body".to_owned(), body_start, &text[body_start..]));
    for (what, start, value) in places {
        if let Some(found) = Found::in_text(value) {
            let at = start + found.first_at;
            let span = at..at + found.first.len_utf8();
            diagnostics.push(found.diagnostic(Place::At(source, span), &what, profile));
        }
    }
}

/// W012 on each tool's description and on every parameter description of
/// its schema, in the file that declares the tool (SKILL.md or tools.yaml),
/// at the value when it stands there as written.
pub(super) fn tools(
    skill: &Skill,
    sources: &Sources,
    profile: Profile,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if skill.tools.is_empty() {
        return;
    }
    let file = skill.tools_path.as_deref().unwrap_or(skill.path());
    let source = sources.get(file);
    for tool in &skill.tools {
        for (what, value) in descriptions(tool) {
            if let Some(found) = Found::in_text(value) {
                let place = match source.and_then(|s| Some((s, s.text().find(value)?))) {
                    Some((source, start)) => {
                        let at = start + found.first_at;
                        Place::At(source, at..at + found.first.len_utf8())
                    }
                    None => Place::File(file),
                };
                diagnostics.push(found.diagnostic(place, &what, profile));
            }
        }
    }
}

/// W012 on each file of the skill directory: its name (a model lists and
/// opens files by name) and, when it is text, what it says. A file's text
/// is read only when there is something to say; it is then kept in
/// `sources` so that the diagnostic quotes it.
pub(super) fn files(
    skill: &Skill,
    sources: &mut Sources,
    profile: Profile,
    max_text_bytes: u64,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let (Some(dir), Some(shown)) = (&skill.dir_on_disk, &skill.dir) else {
        return;
    };
    for listed in &skill.files {
        let path = format!("{shown}/{}", listed.path);
        let name = listed.path.rsplit('/').next().unwrap_or(&listed.path);
        if let Some(found) = Found::in_text(name) {
            diagnostics.push(found.diagnostic(Place::File(&path), "the file's name", profile));
        }
        // A file that cannot be read, or is not UTF-8 text, is not text a
        // model reads; reading it is the build's business (S508). Nor is one
        // larger than a skill file may be: a model does not read it whole,
        // and a set of them would cost the check its time.
        if listed.len > max_text_bytes {
            continue;
        }
        let Some(text) = listed.text(dir) else {
            continue;
        };
        // A byte order mark that opens a file marks its encoding: it hides
        // nothing (editors on Windows write one).
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        if let Some(found) = Found::in_text(&text[bom..]) {
            let at = bom + found.first_at;
            let span = at..at + found.first.len_utf8();
            let source = SourceFile::new(path, text.to_owned());
            diagnostics.push(found.diagnostic(Place::At(&source, span), "the file", profile));
            sources.insert(source);
        }
    }
}

/// Where a W012 points: at a character of a file, or at a whole file.
enum Place<'a> {
    At(&'a SourceFile, std::ops::Range<usize>),
    File(&'a str),
}

/// The hidden characters of one text: how many, the first and where it is.
struct Found {
    count: usize,
    first: char,
    first_at: usize,
    /// What its tag characters spell, if any.
    smuggled: String,
}

impl Found {
    fn in_text(text: &str) -> Option<Found> {
        let found: Vec<(usize, char)> = skills_core::hidden_chars(text).collect();
        let &(first_at, first) = found.first()?;
        let smuggled = found
            .iter()
            .filter_map(|&(_, c)| match u32::from(c) {
                code @ 0xE0020..=0xE007E => char::from_u32(code - 0xE0000),
                _ => None,
            })
            .collect();
        Some(Found {
            count: found.len(),
            first,
            first_at,
            smuggled,
        })
    }

    fn diagnostic(&self, place: Place<'_>, what: &str, profile: Profile) -> Diagnostic {
        let spelled = if self.smuggled.is_empty() {
            String::new()
        } else {
            format!(
                "; its tag characters spell `{}`",
                self.smuggled.escape_debug()
            )
        };
        let message = format!(
            "{what} holds {} that {} not show, the first U+{:04X}{spelled}: a model reads them, a reviewer does not",
            if self.count == 1 {
                "1 character".to_owned()
            } else {
                format!("{} characters", self.count)
            },
            if self.count == 1 { "does" } else { "do" },
            u32::from(self.first)
        );
        let diagnostic = match place {
            Place::At(source, span) => Diagnostic::at(Code::HiddenText, source, span, message),
            Place::File(path) => Diagnostic::error(Code::HiddenText, path, message),
        };
        let severity = if profile == Profile::Portable {
            Severity::Error
        } else {
            Severity::Warning
        };
        diagnostic
            .with_severity(severity)
            .with_help("remove them; if a character is meant (a right-to-left word), write the text without the control characters")
    }
}

/// Every description of `tool` a model reads, each with what it belongs
/// to: the tool's own, then its parameters' (`url`, `filter.since`) and
/// those of its `$defs`, in declared order.
fn descriptions<'a>(tool: &'a Tool) -> Vec<(String, &'a str)> {
    let name = tool.name();
    let mut found = vec![(
        format!("the description of tool `{name}`"),
        tool.description(),
    )];
    let mut walk = |path: &str, text: &'a str| {
        let what = if path.is_empty() {
            format!("the description of the parameters of tool `{name}`")
        } else {
            format!("the description of parameter `{path}` of tool `{name}`")
        };
        found.push((what, text));
    };
    object(&tool.parameters.root, "", &mut walk);
    for (def, ty) in &tool.parameters.defs {
        of_type(ty, &format!("$defs.{def}"), &mut walk);
    }
    found
}

fn object<'a>(object: &'a ObjectType, path: &str, walk: &mut impl FnMut(&str, &'a str)) {
    if let Some(description) = &object.description {
        walk(path, description);
    }
    for property in &object.properties {
        let path = if path.is_empty() {
            property.name.clone()
        } else {
            format!("{path}.{}", property.name)
        };
        if let Some(description) = &property.description {
            walk(&path, description);
        }
        of_type(&property.ty, &path, walk);
    }
}

fn of_type<'a>(ty: &'a Type, path: &str, walk: &mut impl FnMut(&str, &'a str)) {
    match ty {
        Type::Object(inner) => object(inner, path, walk),
        Type::Array(inner, _) | Type::Map(inner, _) | Type::Nullable(inner) => {
            of_type(inner, path, walk)
        }
        _ => {}
    }
}
