//! How generated argument types are filled from, and turned back into,
//! checked JSON. The checker has already enforced the schema, so conversion
//! only reads; `None` means the generated type and its schema table disagree,
//! which is a bug in the code generator, reported as an error, never a panic.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use skills_core::{canonical_number, integer};

/// A generated type read from checked JSON.
pub trait FromJson: Sized {
    /// The value, or `None` when the JSON does not fit the type.
    fn from_json(value: &Value) -> Option<Self>;
}

/// A generated type written as the JSON its schema describes.
pub trait ToJson {
    /// The value as JSON.
    fn to_json(&self) -> Value;
}

impl FromJson for String {
    fn from_json(value: &Value) -> Option<Self> {
        value.as_str().map(str::to_owned)
    }
}

impl ToJson for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl FromJson for i64 {
    fn from_json(value: &Value) -> Option<Self> {
        integer(value)
    }
}

impl ToJson for i64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for f64 {
    fn from_json(value: &Value) -> Option<Self> {
        value.as_f64()
    }
}

impl ToJson for f64 {
    fn to_json(&self) -> Value {
        canonical_number(*self)
    }
}

impl FromJson for bool {
    fn from_json(value: &Value) -> Option<Self> {
        value.as_bool()
    }
}

impl ToJson for bool {
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

/// Undeclared members of an object with `additionalProperties: true`.
impl FromJson for Value {
    fn from_json(value: &Value) -> Option<Self> {
        Some(value.clone())
    }
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Value) -> Option<Self> {
        value.as_array()?.iter().map(T::from_json).collect()
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: &Value) -> Option<Self> {
        value
            .as_object()?
            .iter()
            .map(|(key, value)| Some((key.clone(), T::from_json(value)?)))
            .collect()
    }
}

impl<T: ToJson> ToJson for BTreeMap<String, T> {
    fn to_json(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(key, value)| (key.clone(), value.to_json()))
                .collect(),
        )
    }
}

/// A nullable value: `null` is `None`.
impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: &Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(value: &Value) -> Option<Self> {
        T::from_json(value).map(Box::new)
    }
}

impl<T: ToJson> ToJson for Box<T> {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

// The readers and writers of members below are generic, so compiled for
// every type of every field; each calls one function that is not for the
// map's search and insertion, which would otherwise be inlined into every
// copy (BENCHMARKS.md, issue 62).

/// A member of an object.
#[inline(never)]
fn member<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    object.get(name)
}

/// Sets a member of an object.
#[inline(never)]
fn insert(object: &mut Map<String, Value>, name: &str, value: Value) {
    object.insert(name.to_owned(), value);
}

/// A member that the checked object always has (required, or defaulted).
pub fn field<T: FromJson>(object: &Map<String, Value>, name: &str) -> Option<T> {
    T::from_json(member(object, name)?)
}

/// A member that may be absent: absent is `None`.
pub fn optional<T: FromJson>(object: &Map<String, Value>, name: &str) -> Option<Option<T>> {
    match member(object, name) {
        None => Some(None),
        Some(value) => T::from_json(value).map(Some),
    }
}

/// The members not in `declared`.
pub fn rest(object: &Map<String, Value>, declared: &[&str]) -> BTreeMap<String, Value> {
    object
        .iter()
        .filter(|(key, _)| !declared.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// Writes a member that is always present.
pub fn put<T: ToJson>(object: &mut Map<String, Value>, name: &str, value: &T) {
    insert(object, name, value.to_json());
}

/// Leaves the member out when it is `None`: absent stays absent.
pub fn put_optional<T: ToJson>(object: &mut Map<String, Value>, name: &str, value: &Option<T>) {
    if let Some(value) = value {
        put(object, name, value);
    }
}

/// Undeclared members, after the declared ones.
pub fn put_rest(object: &mut Map<String, Value>, rest: &BTreeMap<String, Value>) {
    for (key, value) in rest {
        object.entry(key.clone()).or_insert_with(|| value.clone());
    }
}

/// An object, or `None`.
pub fn object(value: &Value) -> Option<&Map<String, Value>> {
    value.as_object()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_null_and_present_stay_apart() {
        let object = json!({"a": null, "b": 1});
        let object = object.as_object().unwrap();
        assert_eq!(optional::<Option<i64>>(object, "a"), Some(Some(None)));
        assert_eq!(optional::<Option<i64>>(object, "b"), Some(Some(Some(1))));
        assert_eq!(optional::<Option<i64>>(object, "c"), Some(None));
        let mut out = Map::new();
        put_optional(&mut out, "a", &Some(None::<i64>));
        put_optional(&mut out, "c", &None::<Option<i64>>);
        assert_eq!(Value::Object(out), json!({"a": null}));
    }

    #[test]
    fn mismatches_are_none_not_panics() {
        assert_eq!(String::from_json(&json!(1)), None);
        assert_eq!(Vec::<i64>::from_json(&json!([1, "x"])), None);
        assert_eq!(i64::from_json(&json!(2.0)), Some(2));
        assert_eq!(f64::to_json(&2.0).to_string(), "2");
    }
}
