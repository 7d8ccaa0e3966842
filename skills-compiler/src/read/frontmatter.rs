//! Framing: UTF-8 decoding and the `---` fences that separate the YAML
//! frontmatter from the markdown body.

use std::ops::Range;

use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};

const BOM: &str = "\u{feff}";

/// Decodes a skill file. Invalid UTF-8 becomes S001 pointing at the first bad
/// sequence, with a lossy copy of the file for the snippet (everything before
/// the bad sequence is quoted faithfully).
pub(crate) fn decode(path: &str, bytes: Vec<u8>) -> Result<SourceFile, (Diagnostic, SourceFile)> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(path, text)),
        Err(error) => {
            let offset = error.utf8_error().valid_up_to();
            let lossy =
                SourceFile::new(path, String::from_utf8_lossy(error.as_bytes()).into_owned());
            let diagnostic = Diagnostic::at(
                Code::NotUtf8,
                &lossy,
                offset..offset + '\u{fffd}'.len_utf8(),
                format!(
                    "the file is not valid UTF-8: invalid byte sequence at byte offset {offset}"
                ),
            )
            .with_help("save the file as UTF-8");
            Err((diagnostic, lossy))
        }
    }
}

/// Where the parts of a skill file are, as byte ranges into its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Framing {
    /// The YAML between the fences; `None` when the file has no frontmatter
    /// (accepted only by the lenient profile).
    pub yaml: Option<Range<usize>>,
    /// The markdown after the closing fence, leading blank lines removed.
    pub body: Range<usize>,
    /// The closing fence's line break (empty at the end of the file; where
    /// the file starts without frontmatter). Every byte from its end on is
    /// the body as written, which `fmt` keeps as it is.
    pub after_fence: Range<usize>,
}

/// One line of the text: its range with and without the line break.
struct Line {
    content: Range<usize>,
    full: Range<usize>,
}

fn lines(text: &str, from: usize) -> impl Iterator<Item = Line> + '_ {
    let mut offset = from;
    text[from..].split_inclusive('\n').map(move |raw| {
        let start = offset;
        offset += raw.len();
        let content = raw.strip_suffix('\n').unwrap_or(raw);
        let content = content.strip_suffix('\r').unwrap_or(content);
        Line {
            content: start..start + content.len(),
            full: start..offset,
        }
    })
}

fn is_fence(text: &str, line: &Line) -> bool {
    text[line.content.clone()].trim_end_matches([' ', '\t']) == "---"
}

/// Splits a skill file into frontmatter and body.
///
/// Line 1 (after an optional BOM) must be `---`; the frontmatter ends at the
/// next line that is `---` (trailing spaces or tabs allowed on both fences).
/// `---` anywhere else, inside a value or in the body, is content.
pub(crate) fn split(source: &SourceFile, allow_missing: bool) -> Result<Framing, Diagnostic> {
    let text = source.text();
    let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let mut all = lines(text, start);
    let opening = all.next().filter(|line| is_fence(text, line));
    let Some(opening) = opening else {
        if allow_missing {
            return Ok(Framing {
                yaml: None,
                body: skip_blank_lines(text, start),
                after_fence: start..start,
            });
        }
        let first = lines(text, start)
            .next()
            .map_or(start..start, |line| line.content);
        return Err(Diagnostic::at(
            Code::MissingFrontmatter,
            source,
            first,
            "missing frontmatter: the file must start with a `---` line",
        )
        .with_help(
            "start the file with `---`, then `name:` and `description:`, then a closing `---`",
        ));
    };
    let Some(closing) = all.find(|line| is_fence(text, line)) else {
        return Err(Diagnostic::at(
            Code::UnclosedFrontmatter,
            source,
            opening.content.clone(),
            "the frontmatter is never closed",
        )
        .with_help("add a line that is exactly `---` after the last frontmatter field"));
    };
    Ok(Framing {
        yaml: Some(opening.full.end..closing.full.start),
        body: skip_blank_lines(text, closing.full.end),
        after_fence: closing.content.end..closing.full.end,
    })
}

fn skip_blank_lines(text: &str, from: usize) -> Range<usize> {
    let start = lines(text, from)
        .find(|line| !text[line.content.clone()].trim().is_empty())
        .map_or(text.len(), |line| line.full.start);
    start..text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> (Option<String>, String) {
        let source = SourceFile::new("f", text);
        let framing = split(&source, false).unwrap();
        (
            framing.yaml.map(|r| text[r].to_owned()),
            text[framing.body].to_owned(),
        )
    }

    #[test]
    fn lf_crlf_bom_and_trailing_spaces_on_fences() {
        assert_eq!(
            parts("---\na: 1\n---\n\nbody\n"),
            (Some("a: 1\n".into()), "body\n".into())
        );
        assert_eq!(
            parts("\u{feff}--- \r\na: 1\r\n---\t\r\n\r\nbody\r\n"),
            (Some("a: 1\r\n".into()), "body\r\n".into())
        );
    }

    #[test]
    fn dashes_inside_values_or_the_body_are_content() {
        assert_eq!(
            parts("---\na: '---'\nb: ----\n---\nx\n---\ny"),
            (Some("a: '---'\nb: ----\n".into()), "x\n---\ny".into())
        );
    }

    #[test]
    fn missing_and_unclosed_fences_are_located() {
        let source = SourceFile::new("f", "# Title\n");
        let error = split(&source, false).unwrap_err();
        assert_eq!(
            (error.code, error.line(), error.column()),
            (Code::MissingFrontmatter, Some(1), Some(1))
        );
        assert_eq!(split(&source, true).unwrap().yaml, None);

        let source = SourceFile::new("f", "\n---\na: 1\n");
        let error = split(&source, false).unwrap_err();
        assert_eq!(error.code, Code::MissingFrontmatter);

        let source = SourceFile::new("f", "---\na: 1\n");
        let error = split(&source, false).unwrap_err();
        assert_eq!(
            (error.code, error.line(), error.column()),
            (Code::UnclosedFrontmatter, Some(1), Some(1))
        );
    }

    #[test]
    fn invalid_utf8_names_the_byte_offset() {
        let (error, _) = decode("f", b"---\nname: caf\xe9\n".to_vec()).unwrap_err();
        assert_eq!(error.code, Code::NotUtf8);
        assert_eq!((error.line(), error.column()), (Some(2), Some(10)));
        assert!(
            error.message.contains("byte offset 13"),
            "{}",
            error.message
        );
    }
}
