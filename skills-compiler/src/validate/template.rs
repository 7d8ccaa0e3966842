//! `{{param}}` templates: URL paths, query values, headers and JSON bodies.

use std::ops::Range;

use crate::ir::{Json, List, Part, Str};

/// A placeholder found in a template, with its byte range in the template text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Placeholder {
    pub name: String,
    pub range: Range<usize>,
}

/// What is wrong with a template, and where in its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TemplateError {
    pub message: String,
    pub range: Range<usize>,
}

/// Splits `text` into literals and placeholders. `{{ name }}` may pad the name
/// with spaces; the name itself is letters, digits, `_` and `-`.
pub(super) fn parse(text: &str) -> Result<(Vec<Part>, Vec<Placeholder>), TemplateError> {
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
            parts.push(Part::Text(text[rest..open].to_owned().into()));
        }
        parts.push(Part::Param(name.to_owned().into()));
        placeholders.push(Placeholder {
            name: name.to_owned(),
            range,
        });
        rest = close + 2;
    }
    if rest < text.len() {
        parts.push(Part::Text(text[rest..].to_owned().into()));
    }
    Ok((parts, placeholders))
}

/// Each `{name}` with single braces in `text` (not part of a `{{...}}`),
/// with its byte range: a placeholder written with one brace too few.
pub(super) fn single_braces(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(open) = text[at..].find('{').map(|i| at + i) {
        if bytes.get(open + 1) == Some(&b'{') {
            // A `{{`: skip past its `}}` (or the rest, when unclosed).
            at = text[open..].find("}}").map_or(text.len(), |i| open + i + 2);
            continue;
        }
        let name_end = text[open + 1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(text.len(), |i| open + 1 + i);
        if name_end > open + 1
            && bytes.get(name_end) == Some(&b'}')
            && bytes.get(name_end + 1) != Some(&b'}')
        {
            found.push((open..name_end + 1, &text[open + 1..name_end]));
        }
        at = open + 1;
    }
    found
}

/// Where a body placeholder stands, which decides what it may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BodySlot {
    /// A whole JSON value: left out of its object or array when absent.
    Value,
    /// Inside a JSON string: there must always be text to put there.
    InString,
    /// Inside an object key: never allowed (a model must not choose keys).
    Key,
}

/// Parses a JSON body template into a tree. Each placeholder stands either as
/// a whole JSON value or inside a JSON string; the text with every
/// placeholder replaced by a neutral stand-in must be valid JSON.
pub(super) fn parse_body(
    text: &str,
) -> Result<(Json, Vec<(Placeholder, BodySlot)>), TemplateError> {
    let (template, placeholders) = parse(text)?;
    let mut probe = String::with_capacity(text.len());
    // Segments of `probe` and the text they stand for, to map error offsets back.
    let mut segments: Vec<Segment> = Vec::new();
    // Probe offset of each placeholder's stand-in, in order.
    let mut stand_ins: Vec<(usize, String)> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut placeholder = placeholders.iter();
    let mut cursor = 0;
    for part in template {
        match part {
            Part::Text(literal) => {
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
            }
            Part::Param(name) => {
                let range = placeholder
                    .next()
                    .map_or(cursor..cursor, |p| p.range.clone());
                segments.push(Segment {
                    probe: probe.len()..probe.len() + 1,
                    text: range.clone(),
                });
                stand_ins.push((probe.len(), name.into_owned()));
                probe.push(if in_string { 'x' } else { '0' });
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
    let mut tree = Tree {
        probe: probe.as_bytes(),
        at: 0,
        stand_ins: &stand_ins,
        slots: Vec::new(),
    };
    let root = tree.value(false);
    let slots = placeholders.into_iter().zip(tree.slots).collect::<Vec<_>>();
    Ok((root, slots))
}

/// Builds the tree from the probe, which is valid JSON by now.
struct Tree<'a> {
    probe: &'a [u8],
    at: usize,
    stand_ins: &'a [(usize, String)],
    /// The slot of each placeholder, in text order.
    slots: Vec<BodySlot>,
}

impl Tree<'_> {
    fn skip_space(&mut self) {
        while self.probe.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn stand_in(&self, at: usize) -> Option<String> {
        self.stand_ins
            .iter()
            .find(|(offset, _)| *offset == at)
            .map(|(_, name)| name.clone())
    }

    fn value(&mut self, key: bool) -> Json {
        self.skip_space();
        let node = match self.probe.get(self.at) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string(key),
            _ => {
                if let Some(name) = self.stand_in(self.at) {
                    self.at += 1;
                    self.slots.push(BodySlot::Value);
                    Json::Param(name.into())
                } else {
                    let start = self.at;
                    while self
                        .probe
                        .get(self.at)
                        .is_some_and(|b| !b",]} \t\r\n".contains(b))
                    {
                        self.at += 1;
                    }
                    Json::Text(
                        String::from_utf8_lossy(&self.probe[start..self.at])
                            .into_owned()
                            .into(),
                    )
                }
            }
        };
        self.skip_space();
        node
    }

    fn object(&mut self) -> Json {
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        while self.probe.get(self.at).is_some_and(|b| *b != b'}') {
            let key: Str = match self.value(true) {
                Json::Text(key) => key,
                other => other.text(false).into(),
            };
            self.at += 1; // `:`
            let value = self.value(false);
            members.push((key, value));
            if self.probe.get(self.at) == Some(&b',') {
                self.at += 1;
                self.skip_space();
            }
        }
        self.at += 1;
        let object = Json::Object(List::Owned(members));
        if let Json::Object(members) = &object
            && members.iter().all(|(_, v)| matches!(v, Json::Text(_)))
        {
            return Json::Text(object.text(false).into());
        }
        object
    }

    fn array(&mut self) -> Json {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        while self.probe.get(self.at).is_some_and(|b| *b != b']') {
            items.push(self.value(false));
            if self.probe.get(self.at) == Some(&b',') {
                self.at += 1;
            }
        }
        self.at += 1;
        let all_text = items.iter().all(|v| matches!(v, Json::Text(_)));
        let array = Json::Array(List::Owned(items));
        if all_text {
            return Json::Text(array.text(false).into());
        }
        array
    }

    /// A string's content as parts: escaped text as written, and placeholders.
    fn string(&mut self, key: bool) -> Json {
        self.at += 1;
        let mut parts = Vec::new();
        let mut literal = Vec::new();
        while let Some(&byte) = self.probe.get(self.at) {
            if byte == b'"' {
                break;
            }
            if let Some(name) = self.stand_in(self.at) {
                if !literal.is_empty() {
                    parts.push(Part::Text(
                        String::from_utf8_lossy(&std::mem::take(&mut literal))
                            .into_owned()
                            .into(),
                    ));
                }
                parts.push(Part::Param(name.into()));
                self.slots.push(if key {
                    BodySlot::Key
                } else {
                    BodySlot::InString
                });
                self.at += 1;
                continue;
            }
            literal.push(byte);
            if byte == b'\\' {
                literal.extend(self.probe.get(self.at + 1));
                self.at += 1;
            }
            self.at += 1;
        }
        self.at += 1;
        if !literal.is_empty() {
            parts.push(Part::Text(
                String::from_utf8_lossy(&literal).into_owned().into(),
            ));
        }
        let all_text = parts.iter().all(|p| matches!(p, Part::Text(_)));
        let string = Json::String(List::Owned(parts));
        if all_text {
            return Json::Text(string.text(false).into());
        }
        string
    }
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
            template,
            vec![
                Part::Text("/repos/".into()),
                Part::Param("repo".into()),
                Part::Text("/issues/".into()),
                Part::Param("id".into()),
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
        let (body, slots) = parse_body(
            r#"{"title": {{title}}, "note": "by {{user}} \"q\" {{x}}", "fixed": {"a": [1, 2]}, "l": [{{a}}, 3]}"#,
        )
        .unwrap();
        assert_eq!(
            body,
            Json::Object(List::Owned(vec![
                ("\"title\"".into(), Json::Param("title".into())),
                (
                    "\"note\"".into(),
                    Json::String(List::Owned(vec![
                        Part::Text("by ".into()),
                        Part::Param("user".into()),
                        Part::Text(r#" \"q\" "#.into()),
                        Part::Param("x".into()),
                    ]))
                ),
                ("\"fixed\"".into(), Json::Text(r#"{"a":[1,2]}"#.into())),
                (
                    "\"l\"".into(),
                    Json::Array(List::Owned(vec![
                        Json::Param("a".into()),
                        Json::Text("3".into())
                    ]))
                ),
            ]))
        );
        let slots: Vec<BodySlot> = slots.into_iter().map(|(_, slot)| slot).collect();
        assert_eq!(
            slots,
            [
                BodySlot::Value,
                BodySlot::InString,
                BodySlot::InString,
                BodySlot::Value
            ]
        );
        assert_eq!(
            parse_body(r#" "x{{a}}" "#).unwrap().1[0].1,
            BodySlot::InString
        );
        assert_eq!(parse_body("{{a}}").unwrap().0, Json::Param("a".into()));
    }

    #[test]
    fn a_placeholder_in_a_key_is_found() {
        let (_, slots) = parse_body(r#"{"k{{a}}": {{b}}}"#).unwrap();
        assert_eq!(slots[0].0.range, 3..8);
        assert_eq!(slots[0].1, BodySlot::Key);
        assert_eq!(slots[1].1, BodySlot::Value);
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
