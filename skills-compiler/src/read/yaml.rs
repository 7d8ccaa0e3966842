//! YAML with a byte span on every node, keys included.
//!
//! saphyr's parser produces the events; a filter in front of saphyr's
//! `MarkedYaml` loader refuses, in the same pass, what a skill never needs and
//! an attacker might use: anchors and aliases (billion laughs), tags, and
//! nesting deeper than the limit (saphyr's tree and its `Drop` are recursive,
//! and a stack overflow inside a proc macro kills rustc). The loaded tree is
//! then lowered into [`Node`], whose spans are byte ranges into the skill file
//! (saphyr counts characters).

use std::ops::Range;

use saphyr::{MarkedYaml, Scalar, YamlData, YamlLoader};
use saphyr_parser::{Event, Marker, Parser, ScanError, SpannedEventReceiver};

use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};

/// The deepest nesting any configuration may ask for: lowering is recursive.
pub(crate) const DEPTH_CAP: usize = 1024;

/// A YAML value and where it is in the skill file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub span: Range<usize>,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// A mapping entry; keys are always strings (anything else is S012).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub key: String,
    pub key_span: Range<usize>,
    pub value: Node,
}

impl Node {
    /// An empty mapping at the start of its file: what an empty YAML file
    /// or an absent frontmatter declares.
    pub(crate) fn empty_map() -> Node {
        Node {
            span: 0..0,
            value: Value::Map(Vec::new()),
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub(crate) fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The entry named `key`, if this is a mapping that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|entry| entry.key == key)
            .map(|entry| &entry.value)
    }

    /// What the value is, for messages: "a string", "a list", ...
    pub(crate) fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::String(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    pub(crate) fn is_scalar(&self) -> bool {
        !matches!(self.value, Value::Seq(_) | Value::Map(_))
    }

    /// The value as JSON (for schemas and extras). Floats that JSON cannot hold become null.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as Json;
        match &self.value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
            Value::String(s) => Json::String(s.clone()),
            Value::Seq(items) => Json::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => Json::Object(
                entries
                    .iter()
                    .map(|entry| (entry.key.clone(), entry.value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// Parses the frontmatter at `range` of `source` into a tree of located nodes.
///
/// Returns `Ok(None)` for a frontmatter that holds no YAML document at all
/// (blank or only comments).
pub(crate) fn parse(
    source: &SourceFile,
    range: Range<usize>,
    max_depth: usize,
) -> Result<Option<Node>, Vec<Diagnostic>> {
    let text = &source.text()[range.clone()];
    let offsets = CharOffsets::new(text, range.start);
    let max_depth = max_depth.min(DEPTH_CAP);
    let mut filter = Filter {
        source,
        offsets: &offsets,
        max_depth,
        depth: 0,
        problems: Vec::new(),
        loader: YamlLoader::default(),
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(event) = parser.next_event() {
        match event {
            Ok((event, span)) => {
                if !filter.accept(event, span.start, span.end) {
                    break;
                }
            }
            Err(error) => {
                filter.problems.push(syntax_error(source, &offsets, &error));
                break;
            }
        }
    }
    if !filter.problems.is_empty() {
        return Err(filter.problems);
    }
    if let Some(error) = filter.loader.error() {
        let at = offsets.byte(error.marker());
        let mut token = token_at(source.text(), at);
        if !error.info().contains("duplicated key") {
            let message = format!("invalid YAML: {}", error.info());
            return Err(vec![Diagnostic::at(
                Code::YamlSyntax,
                source,
                token,
                message,
            )]);
        }
        let key = source.text()[token.clone()].trim_end_matches(':');
        token.end = token.start + key.len().max(1);
        let message = format!("duplicate key `{key}`: it already appears earlier in this mapping");
        return Err(vec![
            Diagnostic::at(Code::DuplicateKey, source, token, message).with_help(
                "keep one of the entries (most YAML loaders silently keep the last one)",
            ),
        ]);
    }
    let mut documents = filter.loader.into_documents();
    if documents.len() > 1 {
        let start = offsets.byte(&documents[1].span.start);
        return Err(vec![
            Diagnostic::at(
                Code::YamlSyntax,
                source,
                start..start,
                "the frontmatter holds more than one YAML document",
            )
            .with_help("remove the `---` or `...` separator inside the frontmatter"),
        ]);
    }
    let Some(document) = documents.pop() else {
        return Ok(None);
    };
    if document.data.is_badvalue() {
        return Ok(None);
    }
    let mut problems = Vec::new();
    let node = lower(document, source, &offsets, &mut problems);
    if problems.is_empty() {
        Ok(Some(node))
    } else {
        Err(problems)
    }
}

/// Stands between the parser and the loader and refuses what skills never need.
struct Filter<'a> {
    source: &'a SourceFile,
    offsets: &'a CharOffsets<'a>,
    max_depth: usize,
    depth: usize,
    problems: Vec<Diagnostic>,
    loader: YamlLoader<'a, MarkedYaml<'a>>,
}

impl<'a> Filter<'a> {
    /// Checks one event and hands it on; `false` stops the parse.
    fn accept(&mut self, event: Event<'a>, start: Marker, end: Marker) -> bool {
        let bytes = self.offsets.byte(&start)..self.offsets.byte(&end);
        let (anchor, tag) = match &event {
            Event::MappingStart(anchor, tag) | Event::SequenceStart(anchor, tag) => {
                self.depth += 1;
                if self.depth > self.max_depth {
                    self.problems.push(
                        Diagnostic::at(
                            Code::TooDeep,
                            self.source,
                            token_at(self.source.text(), bytes.start),
                            format!(
                                "the frontmatter nests deeper than {} levels",
                                self.max_depth
                            ),
                        )
                        .with_help("flatten the structure; `max_yaml_depth` sets the limit"),
                    );
                    return false;
                }
                (*anchor, tag.as_ref())
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.depth = self.depth.saturating_sub(1);
                (0, None)
            }
            Event::Scalar(_, _, anchor, tag) => (*anchor, tag.as_ref()),
            Event::Alias(_) => {
                self.problems.push(
                    Diagnostic::at(
                        Code::AnchorOrAlias,
                        self.source,
                        token_at(self.source.text(), bytes.start),
                        "aliases are not allowed",
                    )
                    .with_help("write the value out in full"),
                );
                (0, None)
            }
            _ => (0, None),
        };
        if anchor > 0 {
            let at = find_from(self.source.text(), bytes.start, '&');
            self.problems.push(
                Diagnostic::at(
                    Code::AnchorOrAlias,
                    self.source,
                    token_at(self.source.text(), at),
                    "anchors are not allowed",
                )
                .with_help("remove the anchor and write values out in full"),
            );
        }
        if tag.is_some() {
            let at = find_from(self.source.text(), bytes.start, '!');
            let token = token_at(self.source.text(), at);
            let written = &self.source.text()[token.clone()];
            self.problems.push(
                Diagnostic::at(
                    Code::Tag,
                    self.source,
                    token.clone(),
                    format!("tags are not allowed (found `{written}`)"),
                )
                .with_help("remove the tag; quote the value if you meant a string"),
            );
        }
        if self.problems.is_empty() {
            self.loader
                .on_event(event, saphyr_parser::Span::new(start, end));
        }
        true
    }
}

/// saphyr's spans of anchored or tagged nodes may start at the property or at
/// the node; the property token is found by scanning back a little.
fn find_from(text: &str, at: usize, sigil: char) -> usize {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..]
        .find(sigil)
        .map_or(at, |i| line_start + i)
}

/// The range of the token that starts at `at` (up to whitespace), at least one character.
fn token_at(text: &str, at: usize) -> Range<usize> {
    let rest = &text[at.min(text.len())..];
    let len = rest
        .find(|c: char| c.is_whitespace())
        .unwrap_or(rest.len())
        .max(rest.chars().next().map_or(0, char::len_utf8));
    at..at + len
}

fn syntax_error(source: &SourceFile, offsets: &CharOffsets<'_>, error: &ScanError) -> Diagnostic {
    let at = offsets.byte(error.marker());
    // The scanner has a nesting limit of its own; report it like ours.
    if error.info().contains("recursion limit") {
        return Diagnostic::at(
            Code::TooDeep,
            source,
            token_at(source.text(), at),
            "the frontmatter nests too deeply",
        )
        .with_help("flatten the structure; `max_yaml_depth` sets the limit");
    }
    if let Some(diagnostic) = unquoted_colon(source, at) {
        return diagnostic;
    }
    Diagnostic::at(
        Code::YamlSyntax,
        source,
        token_at(source.text(), at),
        format!("invalid YAML: {}", error.info()),
    )
    .with_help(syntax_help(error.info()))
}

/// What to do about a scanner error: a quoted value that never ends needs
/// its closing quote, not more quoting; the rest is usually a value that
/// should have been quoted.
fn syntax_help(info: &str) -> &'static str {
    if info.contains("quoted scalar") {
        "close the quoted value with the quote it opened with (`\"` or `'`); inside `\"...\"` write a quote as `\\\"`, inside `'...'` as `''`"
    } else {
        "quote values that contain `: `, `#`, or start with a special character"
    }
}

/// The commonest real-world mistake: `description: Use when: ...`. When the
/// line of the error (or the line before it, where YAML notices late) is a
/// `key: value` whose plain value contains `: `, suggest the value quoted:
/// up to a comment, which stays; over its continuation lines, which keep
/// their places (a double-quoted scalar folds its lines as a plain one
/// does). A value over several lines is a suggestion, not applied by `fix`:
/// a person should read what the lines become.
fn unquoted_colon(source: &SourceFile, at: usize) -> Option<Diagnostic> {
    let line = source.line_col(at).line;
    [line, line.saturating_sub(1)]
        .into_iter()
        .filter(|&l| l > 0)
        .find_map(|l| {
            let range = source.line_range(l);
            let text = &source.text()[range.clone()];
            let (indent_key, rest) = split_key_value(text)?;
            let (value, comment) = split_comment(rest);
            let value = value.trim_end();
            if !value.contains(": ") || value.starts_with(['"', '\'', '[', '{', '|', '>']) {
                return None;
            }
            let value_start = range.start + indent_key.len();
            let colon = value_start + value.find(": ").unwrap_or(0);
            let continued = match comment {
                "" => continuation_end(source, l, key_column(text)),
                // A comment ends a plain scalar: no line after it belongs to it.
                _ => None,
            };
            let diagnostic = Diagnostic::at(
                Code::UnquotedColon,
                source,
                colon..colon + 1,
                "unquoted `: ` inside a value: YAML reads it as the start of a nested mapping",
            );
            Some(match continued {
                None => {
                    let kept = &rest[value.len()..];
                    let fixed = format!("{indent_key}{}{kept}", quote(value));
                    diagnostic
                        .with_label(
                            source,
                            value_start..value_start + value.len(),
                            "this value must be quoted",
                        )
                        .with_fix(source, range, fixed, "quote the value")
                }
                Some(end) => {
                    let lines = &source.text()[value_start..end];
                    let fixed = format!("{indent_key}{}", quote_lines(lines));
                    diagnostic
                        .with_label(source, value_start..end, "this value must be quoted")
                        .with_suggestion(
                            source,
                            range.start..end,
                            fixed,
                            "quote the value, over all its lines (YAML joins them with a space)",
                        )
                }
            })
        })
}

/// `value  # comment` -> (`value  `, `# comment`): a `#` starts a comment
/// after a space or a tab, as in YAML, and so at the start of the value,
/// which follows the key's `: `; `C#` stays text.
fn split_comment(rest: &str) -> (&str, &str) {
    let at = rest
        .char_indices()
        .find(|&(i, c)| c == '#' && (i == 0 || rest[..i].ends_with([' ', '\t'])))
        .map_or(rest.len(), |(i, _)| i);
    rest.split_at(at)
}

/// The column of the key (after the indentation and any `- `): a plain
/// value's continuation lines are indented further.
fn key_column(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '-']).len()
}

/// Where the plain value that starts on `line` ends, when it goes on over
/// more lines (indented past `column`, or blank between such lines):
/// the end of its last non-blank line. `None` for a one-line value.
fn continuation_end(source: &SourceFile, line: u32, column: usize) -> Option<usize> {
    let mut end = None;
    let mut next = line + 1;
    while next <= source.line_count() {
        let range = source.line_range(next);
        let text = &source.text()[range.clone()];
        let content = text.trim_end_matches(['\r', '\n']);
        if content.trim().is_empty() {
            next += 1;
            continue;
        }
        let indent = content.len() - content.trim_start_matches([' ', '\t']).len();
        if indent <= column {
            break;
        }
        end = Some(range.start + content.trim_end().len());
        next += 1;
    }
    end
}

/// A double-quoted scalar over the same lines as the plain one: `"` and `\`
/// escaped, line breaks and indentation kept, so lines keep their numbers.
fn quote_lines(lines: &str) -> String {
    let mut out = String::with_capacity(lines.len() + 2);
    out.push('"');
    for c in lines.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `  key: value` -> (`  key: `, `value`), for simple block keys only.
fn split_key_value(line: &str) -> Option<(&str, &str)> {
    let body = line.trim_start_matches([' ', '-']);
    let key_len = body.find(": ")?;
    let key = &body[..key_len];
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let mut split = line.len() - body.len() + key_len + 2;
    while line[split..].starts_with(' ') {
        split += 1;
    }
    Some((&line[..split], &line[split..]))
}

/// A YAML double-quoted scalar holding `value` exactly: escapes for `"`,
/// `\\` and every control character (a raw line break inside double quotes
/// would be folded to a space).
pub(crate) fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || c == '\u{feff}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn lower(
    node: MarkedYaml<'_>,
    source: &SourceFile,
    offsets: &CharOffsets<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Node {
    let start = offsets.byte(&node.span.start);
    let end = offsets.byte(&node.span.end).max(start);
    let value = match node.data {
        YamlData::Value(Scalar::Null) => Value::Null,
        YamlData::Value(Scalar::Boolean(b)) => Value::Bool(b),
        YamlData::Value(Scalar::Integer(i)) => Value::Int(i),
        YamlData::Value(Scalar::FloatingPoint(f)) => Value::Float(f.into_inner()),
        YamlData::Value(Scalar::String(s)) => Value::String(s.into_owned()),
        YamlData::Sequence(items) => Value::Seq(
            items
                .into_iter()
                .map(|item| lower(item, source, offsets, problems))
                .collect(),
        ),
        YamlData::Mapping(entries) => {
            let mut lowered = Vec::with_capacity(entries.len());
            for (key, value) in entries {
                let key_start = offsets.byte(&key.span.start);
                let key_span = key_start..offsets.byte(&key.span.end).max(key_start);
                let value = lower(value, source, offsets, problems);
                match key.data {
                    YamlData::Value(Scalar::String(name)) => lowered.push(Entry {
                        key: name.into_owned(),
                        key_span,
                        value,
                    }),
                    _ => problems.push(
                        Diagnostic::at(
                            Code::NonStringKey,
                            source,
                            token_at(source.text(), key_span.start),
                            "mapping keys must be strings",
                        )
                        .with_help("quote the key"),
                    ),
                }
            }
            Value::Map(lowered)
        }
        // Tags and aliases were refused by the filter; a bad value is a
        // scalar that failed to resolve, which the core schema never yields.
        YamlData::Representation(..)
        | YamlData::Tagged(..)
        | YamlData::Alias(_)
        | YamlData::BadValue => {
            problems.push(Diagnostic::at(
                Code::YamlSyntax,
                source,
                token_at(source.text(), start),
                "unsupported YAML value",
            ));
            Value::Null
        }
    };
    let span = match value {
        // A collection's end marker can sit at the next key.
        Value::Seq(_) | Value::Map(_) => start..collection_end(source.text(), start, end),
        // A scalar's span is its text. A block scalar's (`|`, `>`) ends
        // where the next key starts: without the line break and indent
        // before it, a highlight would run onto that key's line.
        _ => start..start + source.text()[start..end].trim_end().len(),
    };
    Node { span, value }
}

/// A block collection's end marker can sit at the next key (trim the
/// whitespace before it); a flow collection's sits on its closing bracket
/// (include it).
fn collection_end(text: &str, start: usize, end: usize) -> usize {
    if text[start..].starts_with(['[', '{']) && text[end..].starts_with([']', '}']) {
        return end + 1;
    }
    start + text[start..end].trim_end().len()
}

/// Converts saphyr's character indices into byte offsets in the skill file.
struct CharOffsets<'a> {
    text: &'a str,
    base: usize,
    /// Byte offset of each character; empty when the text is ASCII.
    table: Vec<usize>,
}

impl<'a> CharOffsets<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        let table = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices().map(|(i, _)| i).collect()
        };
        CharOffsets { text, base, table }
    }

    fn byte(&self, marker: &Marker) -> usize {
        let index = marker.index();
        let local = if self.table.is_empty() {
            index.min(self.text.len())
        } else {
            self.table.get(index).copied().unwrap_or(self.text.len())
        };
        self.base + local
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(yaml: &str) -> Result<Option<Node>, Vec<Diagnostic>> {
        let text = format!("---\n{yaml}---\n");
        let source = SourceFile::new("f.md", text.clone());
        parse(&source, 4..text.len() - 4, 64)
    }

    fn first_error(yaml: &str) -> (Code, Option<u32>, Option<u32>) {
        let errors = parse_str(yaml).unwrap_err();
        (errors[0].code, errors[0].line(), errors[0].column())
    }

    #[test]
    fn spans_are_bytes_into_the_file() {
        let node = parse_str("name: héllo\nx: 1\n").unwrap().unwrap();
        let entries = node.as_map().unwrap();
        assert_eq!(entries[0].key_span, 4..8);
        assert_eq!(entries[0].value.span, 10..16);
        assert_eq!(entries[1].key_span, 17..18);
        assert_eq!(entries[1].value.value, Value::Int(1));
    }

    #[test]
    fn yaml_1_2_semantics() {
        let node = parse_str("a: yes\nb: on\nc: 1.0\nd: ~\n").unwrap().unwrap();
        assert_eq!(node.get("a").unwrap().as_str(), Some("yes"));
        assert_eq!(node.get("b").unwrap().as_str(), Some("on"));
        assert_eq!(node.get("c").unwrap().value, Value::Float(1.0));
        assert_eq!(node.get("d").unwrap().value, Value::Null);
    }

    #[test]
    fn refusals_are_located() {
        assert_eq!(
            first_error("a: &x 1\nb: *x\n"),
            (Code::AnchorOrAlias, Some(2), Some(4))
        );
        assert_eq!(first_error("a: !!str 1\n"), (Code::Tag, Some(2), Some(4)));
        assert_eq!(
            first_error("a: 1\na: 2\n"),
            (Code::DuplicateKey, Some(3), Some(1))
        );
        assert_eq!(
            first_error("1: one\n"),
            (Code::NonStringKey, Some(2), Some(1))
        );
        assert_eq!(first_error("a: [b\n"), (Code::YamlSyntax, Some(3), Some(1)));
    }

    #[test]
    fn unquoted_colon_offers_the_quoted_line() {
        let errors = parse_str("name: x\ndescription: Use when: the user asks\n").unwrap_err();
        let error = &errors[0];
        assert_eq!(error.code, Code::UnquotedColon);
        assert_eq!((error.line(), error.column()), (Some(3), Some(22)));
        assert_eq!(
            error.fix.as_ref().unwrap().replacement(),
            Some("description: \"Use when: the user asks\"")
        );
    }

    #[test]
    fn deep_nesting_stops_at_the_limit_without_recursion() {
        for yaml in [
            format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
            format!("a: {}\n", "[".repeat(100_000)),
            format!("a:\n  {}x\n", "- ".repeat(100_000)),
            format!("a: {}\n", "{a: ".repeat(100_000)),
        ] {
            let errors = parse_str(&yaml).unwrap_err();
            assert_eq!(errors[0].code, Code::TooDeep, "{}", errors[0].message);
        }
    }

    #[test]
    fn empty_and_comment_only_documents_are_none() {
        assert_eq!(parse_str(""), Ok(None));
        assert_eq!(parse_str("# just a comment\n"), Ok(None));
    }
}
