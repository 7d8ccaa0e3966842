//! `{{param}}` templates: URL paths, query values, headers and JSON bodies.

use std::ops::Range;

use crate::ir::{BodyPart, BodyTemplate, Template, TemplatePart};

/// A placeholder found in a template, with its byte range in the template text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    pub name: String,
    pub range: Range<usize>,
}

/// What is wrong with a template, and where in its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    pub message: String,
    pub range: Range<usize>,
}

/// Splits `text` into literals and placeholders. `{{ name }}` may pad the name
/// with spaces; the name itself is letters, digits, `_` and `-`.
pub fn parse(text: &str) -> Result<(Template, Vec<Placeholder>), TemplateError> {
    let mut parts = Vec::new();
    let mut placeholders = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find("{{").map(|i| rest + i) {
        let Some(close) = text[open + 2..].find("}}").map(|i| open + 2 + i) else {
            return Err(TemplateError {
                message: "`{{` is never closed by `}}`".to_owned(),
                range: open..text.len(),
            });
        };
        let name = text[open + 2..close].trim();
        let range = open..close + 2;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return Err(TemplateError {
                message: format!(
                    "`{}` is not a placeholder: write `{{{{name}}}}` with a parameter name",
                    &text[range.clone()]
                ),
                range,
            });
        }
        if open > rest {
            parts.push(TemplatePart::Literal(text[rest..open].to_owned()));
        }
        parts.push(TemplatePart::Param(name.to_owned()));
        placeholders.push(Placeholder {
            name: name.to_owned(),
            range,
        });
        rest = close + 2;
    }
    if rest < text.len() {
        parts.push(TemplatePart::Literal(text[rest..].to_owned()));
    }
    Ok((Template { parts }, placeholders))
}

/// Parses a JSON body template. Each placeholder stands either as a whole JSON
/// value or inside a JSON string; the text with every placeholder replaced by
/// a neutral stand-in must be valid JSON.
pub fn parse_body(text: &str) -> Result<(BodyTemplate, Vec<Placeholder>), TemplateError> {
    let (template, placeholders) = parse(text)?;
    let mut parts = Vec::new();
    let mut probe = String::with_capacity(text.len());
    // Segments of `probe` and the text they stand for, to map error offsets back.
    let mut segments: Vec<Segment> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut placeholder = placeholders.iter();
    let mut cursor = 0;
    for part in template.parts {
        match part {
            TemplatePart::Literal(literal) => {
                for c in literal.chars() {
                    if in_string {
                        if escaped {
                            escaped = false;
                        } else if c == '\\' {
                            escaped = true;
                        } else if c == '"' {
                            in_string = false;
                        }
                    } else if c == '"' {
                        in_string = true;
                    }
                }
                segments.push(Segment {
                    probe: probe.len()..probe.len() + literal.len(),
                    text: cursor..cursor + literal.len(),
                });
                probe.push_str(&literal);
                cursor += literal.len();
                parts.push(BodyPart::Literal(literal));
            }
            TemplatePart::Param(name) => {
                let range = placeholder
                    .next()
                    .map_or(cursor..cursor, |p| p.range.clone());
                segments.push(Segment {
                    probe: probe.len()..probe.len() + 1,
                    text: range.clone(),
                });
                if in_string {
                    probe.push('x');
                    parts.push(BodyPart::InString(name));
                } else {
                    probe.push('0');
                    parts.push(BodyPart::Value(name));
                }
                cursor = range.end;
            }
        }
    }
    if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(&probe) {
        let at = byte_of(&probe, error.line(), error.column());
        let original = segments
            .iter()
            .filter(|_| !error.is_eof())
            .find(|segment| segment.probe.contains(&at))
            .map_or(text.len(), |segment| {
                (segment.text.start + (at - segment.probe.start)).min(segment.text.end - 1)
            });
        return Err(TemplateError {
            message: format!("the body is not valid JSON: {error}"),
            range: original..(original + 1).min(text.len()),
        });
    }
    Ok((BodyTemplate { parts }, placeholders))
}

/// A stretch of the JSON probe and the stretch of template text it stands for.
struct Segment {
    probe: Range<usize>,
    text: Range<usize>,
}

/// serde_json reports 1-based line and column (in bytes); turn them into an offset.
fn byte_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_literals() {
        let (template, placeholders) = parse("/repos/{{ repo }}/issues/{{id}}").unwrap();
        assert_eq!(
            template.parts,
            vec![
                TemplatePart::Literal("/repos/".into()),
                TemplatePart::Param("repo".into()),
                TemplatePart::Literal("/issues/".into()),
                TemplatePart::Param("id".into()),
            ]
        );
        assert_eq!(placeholders[1].range, 25..31);
    }

    #[test]
    fn malformed_placeholders() {
        assert_eq!(parse("/a/{{id").unwrap_err().range, 3..7);
        assert_eq!(parse("/a/{{}}").unwrap_err().range, 3..7);
        assert_eq!(parse("/a/{{a b}}").unwrap_err().range, 3..10);
    }

    #[test]
    fn body_placeholders_know_their_context() {
        let (body, _) =
            parse_body(r#"{"title": {{title}}, "note": "by {{user}} \"q\" {{x}}"}"#).unwrap();
        assert_eq!(
            body.parts,
            vec![
                BodyPart::Literal(r#"{"title": "#.into()),
                BodyPart::Value("title".into()),
                BodyPart::Literal(r#", "note": "by "#.into()),
                BodyPart::InString("user".into()),
                BodyPart::Literal(r#" \"q\" "#.into()),
                BodyPart::InString("x".into()),
                BodyPart::Literal(r#""}"#.into()),
            ]
        );
    }

    #[test]
    fn invalid_json_points_into_the_template() {
        let error = parse_body(r#"{"title": {{title}} "x": 1}"#).unwrap_err();
        assert!(
            error.message.contains("not valid JSON"),
            "{}",
            error.message
        );
        assert_eq!(error.range.start, 20);
    }
}
