//! JSON text in the packed tables (a skill's frontmatter, a tool's
//! parameter schema) as a walk of its values, not as its text.
//!
//! These texts are made from the frontmatter, so their strings (keys,
//! descriptions, URLs) are mostly in the skill file already. Walked value
//! by value, each string goes through [`Writer::text`] and becomes an
//! offset into the file where it is there, and the punctuation is not
//! stored at all. An array or object that was packed before, in this text
//! or an earlier one of the same skill, is its number: a tool's parameter
//! schema repeats most of what the frontmatter declares. Together that is
//! a sixth of the text's bytes for the tools of a typical skill
//! (BENCHMARKS.md, issue 62). Unpacking writes the text back exactly, as
//! `serde_json` writes it.
//!
//! A text that `serde_json` would not write back byte for byte (a long
//! fraction its default parser rounds), or one nested deeper than the
//! reader takes, is stored verbatim: the round trip never depends on
//! which of `serde_json`'s features a build turned on.

use std::collections::BTreeMap;

use serde_json::Value;

use super::wire::{Reader, Unpacked, Writer};
use crate::tables::Str;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const NUMBER: u8 = 3;
const STRING: u8 = 4;
const ARRAY: u8 = 5;
const OBJECT: u8 = 6;
/// The whole text as it is, for a text that is not written back exactly.
const VERBATIM: u8 = 7;
/// An array or object packed before: its number follows.
const AGAIN: u8 = 8;

/// As deep as `serde_json` parses: a packed walk deeper than that was not
/// made by [`pack`], and is refused rather than risking the stack.
const MAX_DEPTH: usize = 128;

/// Packs the JSON `text`.
pub(super) fn pack(text: &str, w: &mut Writer<'_>) {
    let parsed = serde_json::from_str::<Value>(text).ok();
    let mut texts = Texts::new();
    match parsed {
        // Not `value == text`, which compares a JSON string with `text`.
        // Deeper than the reader takes (`serde_json` parses deeper when
        // another crate of the build turns on `unbounded_depth`): verbatim.
        Some(value) if depth(&value) <= MAX_DEPTH && texts.of(&value) == text => {
            pack_value(&value, &texts, w)
        }
        _ => {
            w.byte(VERBATIM);
            w.text(text);
        }
    }
}

/// How deeply `value` nests: 0 for a scalar.
fn depth(value: &Value) -> usize {
    let inner = match value {
        Value::Array(items) => items.iter().map(depth).max(),
        Value::Object(members) => members.values().map(depth).max(),
        _ => return 0,
    };
    1 + inner.unwrap_or(0)
}

/// The JSON text of every array and object of a value, by its address,
/// each written once from its parts' (where `Value::to_string` on each
/// would write every value again at every level above it).
struct Texts(BTreeMap<*const Value, String>);

impl Texts {
    fn new() -> Self {
        Texts(BTreeMap::new())
    }

    /// The text of `value` as `serde_json` writes it, its arrays' and
    /// objects' kept.
    fn of(&mut self, value: &Value) -> String {
        let mut text = Vec::new();
        match value {
            Value::Array(items) => {
                text.push(b'[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        text.push(b',');
                    }
                    text.extend_from_slice(self.of(item).as_bytes());
                }
                text.push(b']');
            }
            Value::Object(members) => {
                text.push(b'{');
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 {
                        text.push(b',');
                    }
                    string(key, &mut text);
                    text.push(b':');
                    text.extend_from_slice(self.of(value).as_bytes());
                }
                text.push(b'}');
            }
            scalar => return scalar.to_string(),
        }
        // `serde_json`'s text and ASCII punctuation: UTF-8, so nothing is
        // replaced (and a text that differed would be kept verbatim).
        let text = String::from_utf8_lossy(&text).into_owned();
        self.0.insert(value, text.clone());
        text
    }

    /// The text of an array or object that is not empty (the ones that
    /// are numbered), from [`Texts::of`] of a value that holds it.
    fn numbered(&self, value: &Value) -> Option<&String> {
        match value {
            Value::Array(items) if items.is_empty() => None,
            Value::Object(members) if members.is_empty() => None,
            _ => self.0.get(&(value as *const Value)),
        }
    }
}

fn pack_value(value: &Value, texts: &Texts, w: &mut Writer<'_>) {
    let numbered = texts.numbered(value);
    if let Some(number) = numbered.and_then(|text| w.json_numbers.get(text)) {
        let number = *number;
        w.byte(AGAIN);
        w.count(number);
        return;
    }
    match value {
        Value::Null => w.byte(NULL),
        Value::Bool(false) => w.byte(FALSE),
        Value::Bool(true) => w.byte(TRUE),
        Value::Number(number) => {
            w.byte(NUMBER);
            w.text(&number.to_string());
        }
        Value::String(text) => {
            w.byte(STRING);
            w.text(text);
        }
        Value::Array(items) => {
            w.byte(ARRAY);
            w.count(items.len());
            items.iter().for_each(|item| pack_value(item, texts, w));
        }
        Value::Object(members) => {
            w.byte(OBJECT);
            w.count(members.len());
            for (key, value) in members {
                w.text(key);
                pack_value(value, texts, w);
            }
        }
    }
    if let Some(text) = numbered {
        let number = w.json_numbers.len();
        w.json_numbers.insert(text.clone(), number);
    }
}

/// The JSON text [`pack`] packed.
pub(super) fn unpack(r: &mut Reader) -> Result<Str, Unpacked> {
    if r.peek()? == VERBATIM {
        r.byte()?;
        return r.text().map(Str::Borrowed);
    }
    let start = r.json_text.len();
    unpack_value(r, 0)?;
    let text = r.json_text.get(start..).unwrap_or_default();
    std::str::from_utf8(text)
        .map(|text| Str::Owned(text.to_owned()))
        .map_err(|_| r.error_before(0, "UTF-8 text"))
}

fn unpack_value(r: &mut Reader, depth: usize) -> Result<(), Unpacked> {
    if depth > MAX_DEPTH {
        return Err(r.error_before(0, "JSON nested at most 128 levels deep"));
    }
    let start = r.json_text.len();
    let (open, close) = match r.byte()? {
        ARRAY => (b'[', b']'),
        OBJECT => (b'{', b'}'),
        tag => return unpack_leaf(r, tag),
    };
    let count = r.usize()?;
    r.json_text.push(open);
    for index in 0..count {
        if index > 0 {
            r.json_text.push(b',');
        }
        if open == b'{' {
            let key = r.text()?;
            string(key, &mut r.json_text);
            r.json_text.push(b':');
        }
        unpack_value(r, depth + 1)?;
    }
    r.json_text.push(close);
    if count > 0 {
        let end = r.json_text.len();
        r.json_numbered.push(start..end);
    }
    Ok(())
}

/// A value that is not written out member by member: a scalar, or an
/// array or object packed before.
fn unpack_leaf(r: &mut Reader, tag: u8) -> Result<(), Unpacked> {
    let literal: &[u8] = match tag {
        NULL => b"null",
        FALSE => b"false",
        TRUE => b"true",
        NUMBER => r.text()?.as_bytes(),
        STRING => {
            let text = r.text()?;
            string(text, &mut r.json_text);
            return Ok(());
        }
        AGAIN => {
            let number = r.usize()?;
            let range = (r.json_numbered.get(number).cloned())
                .ok_or_else(|| r.error_before(1, "the number of an array or object before"))?;
            r.json_text.extend_from_within(range);
            return Ok(());
        }
        _ => return Err(r.error_before(1, "a tag of a JSON value")),
    };
    r.json_text.extend_from_slice(literal);
    Ok(())
}

/// `text` as a JSON string, escaped as `serde_json` escapes it.
fn string(text: &str, out: &mut Vec<u8>) {
    // Writing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(out, text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `texts` packed one after the other against the skill file `source`
    /// (all of it the window, like a frontmatter) and unpacked, each with
    /// the bytes it took.
    fn round_trips(texts: &[&str], source: &'static str) -> Vec<(Str, usize)> {
        let mut w = Writer::new(source, source.len(), 0..source.len());
        let mut ends = Vec::new();
        for text in texts {
            pack(text, &mut w);
            ends.push(w.bytes.len());
        }
        let bytes: &'static [u8] = Box::leak(w.bytes.into_boxed_slice());
        let r = &mut Reader::new(bytes, source);
        let mut start = 0;
        ends.into_iter()
            .map(|end| {
                let text = unpack(r).unwrap();
                assert_eq!(r.at(), end, "each text read to its end");
                let taken = end - start;
                start = end;
                (text, taken)
            })
            .collect()
    }

    /// One text's round trip, and its packed bytes.
    fn round_trip(text: &str, source: &'static str) -> (Str, &'static [u8]) {
        let mut w = Writer::new(source, source.len(), 0..source.len());
        pack(text, &mut w);
        let bytes: &'static [u8] = Box::leak(w.bytes.into_boxed_slice());
        let back = round_trips(&[text], source).remove(0).0;
        (back, bytes)
    }

    /// A tool's parameter schema after the frontmatter that declares it:
    /// what they share is a number, a few bytes.
    #[test]
    fn what_an_earlier_text_packed_is_a_number() {
        let frontmatter = r#"{"tools":[{"parameters":{"properties":{"project":{"description":"Project key","type":"string"}},"type":"object"}}]}"#;
        let parameters = r#"{"additionalProperties":false,"properties":{"project":{"description":"Project key","type":"string"}},"type":"object"}"#;
        let back = round_trips(&[frontmatter, parameters], "");
        assert_eq!(back[0].0, frontmatter);
        assert_eq!(back[1].0, parameters);
        // `additionalProperties` is new (22 bytes inline); the shared
        // `properties` is one number (2 bytes) where its walk took 12.
        assert!(back[1].1 <= 30, "{} bytes", back[1].1);
    }

    #[test]
    fn strings_in_the_skill_file_are_offsets() {
        let source = "tools:\n  - name: list_items\n    description: List the items of a project, newest first.\n    parameters: {type: object}\n";
        let text = r#"{"tools":[{"description":"List the items of a project, newest first.","name":"list_items","parameters":{"type":"object"}}]}"#;
        let (back, bytes) = round_trip(text, source);
        assert_eq!(back, text);
        assert!(
            bytes.len() < text.len() / 3,
            "{} bytes for {} of text",
            bytes.len(),
            text.len()
        );
    }

    #[test]
    fn every_kind_of_value_comes_back_exactly() {
        let text = r#"{"":"","n":[1,-2.5,1e+300,null,true,false,[],{}],"q":"\"é\"\n\u0001"}"#;
        let (back, bytes) = round_trip(text, "");
        assert_eq!(back, text);
        assert_eq!(bytes[0], OBJECT, "walked, not verbatim");
    }

    /// Whatever `serde_json`'s features (`preserve_order`,
    /// `float_roundtrip`, which another crate of a build may turn on),
    /// these texts are not written back as they are: kept verbatim.
    #[test]
    fn text_that_would_not_come_back_exactly_is_verbatim() {
        for text in [r#"{ "a": 1 }"#, r#"{"a":1.50}"#, "[1e2]", "not json"] {
            let (back, bytes) = round_trip(text, "");
            assert_eq!(back, text);
            assert_eq!(bytes[0], VERBATIM, "{text}");
        }
    }

    /// A long fraction that `serde_json`'s default float parser reads a
    /// unit in the last place off (walked with `float_roundtrip`, kept
    /// verbatim without): either way it comes back exactly.
    #[test]
    fn a_long_fraction_comes_back_exactly() {
        let text = "[-3.309130138929602e-45]";
        assert_eq!(round_trip(text, "").0, text);
    }

    /// Nested deeper than the reader takes: verbatim, whether or not
    /// `serde_json` parses it (`unbounded_depth`).
    #[test]
    fn text_nested_deeper_than_the_reader_takes_is_verbatim() {
        for levels in [100, MAX_DEPTH + 1, 4 * MAX_DEPTH] {
            let text = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            let (back, bytes) = round_trip(&text, "");
            assert_eq!(back, text);
            let verbatim = bytes[0] == VERBATIM;
            assert_eq!(verbatim, levels > MAX_DEPTH, "{levels} levels");
        }
    }

    #[test]
    fn a_walk_deeper_than_serde_json_parses_is_refused() {
        let mut bytes = [ARRAY, 1].repeat(MAX_DEPTH + 2);
        bytes.push(NULL);
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let r = &mut Reader::new(bytes, "");
        let error = unpack(r).unwrap_err();
        assert!(error.to_string().contains("128 levels"), "{error}");
    }

    /// JSON values whose text `serde_json` parses back to the same value:
    /// its default float parser may be a unit in the last place off for
    /// long fractions, and such a text is kept verbatim (tested above).
    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (any::<i32>(), 0..8).prop_map(|(m, e)| Value::from(f64::from(m) / f64::from(1 << e))),
            "\\PC{0,12}|[\"\\\\\\n\\t\u{0}-\u{1f}]{0,4}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("\\PC{0,8}", inner, 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Two texts packed one after the other, the second made of parts
        /// of the first, come back byte for byte.
        #[test]
        fn texts_that_share_parts_come_back_exactly(first in json(), other in json()) {
            let mut parts = vec![other, first.clone()];
            match &first {
                Value::Array(items) => parts.extend(items.iter().cloned()),
                Value::Object(members) => parts.extend(members.values().cloned()),
                _ => {}
            }
            let second = Value::Array(parts).to_string();
            let first = first.to_string();
            let back = round_trips(&[&first, &second], "");
            prop_assert_eq!(&back[0].0, &first);
            prop_assert_eq!(&back[1].0, &second);
        }

        /// Whatever `serde_json` writes comes back byte for byte, whether
        /// its strings are in the skill file or not.
        #[test]
        fn every_json_text_comes_back_exactly(value in json(), found in any::<bool>()) {
            let text = value.to_string();
            let source: &'static str = if found { Box::leak(text.clone().into_boxed_str()) } else { "" };
            let (back, bytes) = round_trip(&text, source);
            prop_assert_ne!(bytes[0], VERBATIM);
            prop_assert_eq!(back, text);
        }
    }
}
