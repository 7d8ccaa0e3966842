//! JSON as JavaScript reads and writes it: objects keep their members in
//! the order the file has them, and the text is what
//! `JSON.stringify(value, null, 2) + "\n"` prints. The lock is shared with
//! tools written in JavaScript (Vercel's `skills` CLI), so an entry we do
//! not own must come back byte for byte, keys in its order.

use std::collections::HashMap;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value whose objects are ordered lists of members.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its members in order.
    Object(Object),
}

/// An object's members, in their order; a key given twice keeps its last
/// value at its first place, as `JSON.parse` does. An index beside the
/// members finds a key in constant time: a lock of 10,000 entries is read
/// and checked in one pass, not one scan of the members per key.
#[derive(Debug, Clone, Default)]
pub(crate) struct Object {
    members: Vec<(String, Json)>,
    index: HashMap<String, usize>,
}

impl PartialEq for Object {
    // The index follows from the members.
    fn eq(&self, other: &Object) -> bool {
        self.members == other.members
    }
}

impl Object {
    /// An object without members.
    pub(crate) fn new() -> Object {
        Object::default()
    }

    /// How many members it has.
    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        self.index.get(key).map(|&at| &self.members[at].1)
    }

    /// The text of a member that is a string.
    pub(crate) fn str(&self, key: &str) -> Option<&str> {
        match self.get(key)? {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// Sets `key`, keeping its place when it is there, else appending it.
    pub(crate) fn insert(&mut self, key: &str, value: Json) {
        match self.index.get(key) {
            Some(&at) => self.members[at].1 = value,
            None => {
                self.index.insert(key.to_owned(), self.members.len());
                self.members.push((key.to_owned(), value));
            }
        }
    }

    /// Removes `key`, giving its value.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Json> {
        let at = self.index.remove(key)?;
        let (_, value) = self.members.remove(at);
        for slot in self.index.values_mut() {
            if *slot > at {
                *slot -= 1;
            }
        }
        Some(value)
    }

    /// The members, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.members.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The members in the order a JavaScript object enumerates them once
    /// they were inserted in `order`: keys that are array indices first, in
    /// numeric order, then the others as inserted. (`skills` keyed `"42"`
    /// prints first whatever the sort said.)
    pub(crate) fn in_javascript_order(self) -> Object {
        let (mut indices, others): (Vec<_>, Vec<_>) = self
            .members
            .into_iter()
            .partition(|(k, _)| array_index(k).is_some());
        indices.sort_by_key(|(k, _)| array_index(k));
        indices.extend(others);
        Object::from_unique(indices)
    }

    /// Sorts the members by key as `Array.prototype.sort` does on strings
    /// (UTF-16 code units), then in JavaScript's enumeration order.
    pub(crate) fn sorted_as_javascript(mut self) -> Object {
        self.members
            .sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
        self.in_javascript_order()
    }

    /// An object of members whose keys are already distinct.
    fn from_unique(members: Vec<(String, Json)>) -> Object {
        let index = members
            .iter()
            .enumerate()
            .map(|(at, (key, _))| (key.clone(), at))
            .collect();
        Object { members, index }
    }
}

/// `Some(n)` when `key` is a canonical array index: digits without a
/// leading zero, below 2^32 - 1.
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|&n| n != u32::MAX)
}

/// The text `JSON.stringify(value, null, 2)` gives, plus a final newline.
pub(crate) fn to_text(value: &Json) -> String {
    // serde_json's pretty printer indents by two spaces, writes `": "`,
    // `[]` and `{}` for empty containers, and escapes exactly what
    // JSON.stringify escapes in strings (`"`, `\`, control characters).
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// Parses JSON text; `Err` carries serde_json's message with line and column.
pub(crate) fn parse(text: &str) -> Result<Json, serde_json::Error> {
    serde_json::from_str(text)
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(object) => {
                let mut map = serializer.serialize_map(Some(object.len()))?;
                for (key, value) in &object.members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(n)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = Object::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            object.insert(&key, value);
        }
        Ok(Json::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_keep_their_order_and_print_as_javascript_does() {
        let text = "{\n  \"z\": 1,\n  \"a\": [],\n  \"m\": {},\n  \"s\": \"é\\n\\u0001\\\"\"\n}\n";
        let value = parse(text).unwrap();
        assert_eq!(to_text(&value), text);
    }

    #[test]
    fn array_indices_enumerate_first_as_in_javascript() {
        let mut object = Object::new();
        for key in ["b", "10", "a", "2", "01"] {
            object.insert(key, Json::Null);
        }
        let sorted = object.sorted_as_javascript();
        let keys: Vec<&str> = sorted.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["2", "10", "01", "a", "b"]);
    }
}
