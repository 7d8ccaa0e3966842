//! A tool's parameter schema as a static table, and the one checker that
//! turns a model's arguments into a normalised, schema-conforming object.
//!
//! The compiler lowers each schema into a flat list of [`Node`]s (node 0 is
//! the root object; `$ref`s become indices, so recursion needs no boxing
//! here). The same checker serves generated `ToolCall::parse`, untyped
//! [`Tool::parse`](crate::Tool::parse) and, later, skills loaded at run time.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::depth::{MAX_DEPTH, too_deep};
use crate::error::ToolCallError;
use crate::tables::{List, Str};

/// A tool's parameters: node 0 is the root object.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    #[doc(hidden)]
    pub nodes: List<Node>,
}

/// One schema node. Indices point into [`Schema::nodes`].
#[derive(Debug, Clone, PartialEq)]
/// Checks are behind a reference: most compiled nodes share `&Checks::NONE`,
/// and the tables stay small in the binary.
pub enum Node {
    /// A string, with its checks.
    String(Cow<'static, Checks>),
    /// An integer (a number without a fraction), with its checks.
    Integer(Cow<'static, Checks>),
    /// Any number, with its checks.
    Number(Cow<'static, Checks>),
    /// `true` or `false`.
    Boolean,
    /// A string restricted to these values.
    Enum(List<Str>),
    /// An array whose items are all of one type.
    Array {
        /// The items' node.
        items: u32,
        /// The array's own checks (`minItems`, `uniqueItems`, ...).
        checks: Cow<'static, Checks>,
    },
    /// An object with no fixed properties whose values have one type.
    Map {
        /// The values' node.
        values: u32,
        /// The map's own checks (`minProperties`, ...).
        checks: Cow<'static, Checks>,
    },
    /// An object with declared properties.
    Object {
        /// Its declared properties, in declared order.
        properties: List<Property>,
        /// `additionalProperties: true`: undeclared members are kept as they are.
        additional: bool,
        /// The object's own checks (`minProperties`, ...).
        checks: Cow<'static, Checks>,
    },
    /// `type: [T, "null"]`.
    Nullable(u32),
}

/// A declared property of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// The member's name in the JSON object.
    pub name: Str,
    /// Its type's node.
    pub node: u32,
    /// Whether the schema's `required` names it.
    pub required: bool,
    /// The schema's `default`, as JSON text; filled in when the member is absent.
    pub default: Option<Str>,
}

/// A string parameter's `pattern`: the ECMA-262 source as written (for
/// messages and exported schemas) and the same pattern in the checker's
/// engine's syntax, which the compiler wrote after proving the two match
/// the same strings. Searched, not anchored, as in JSON Schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    /// The pattern as the schema wrote it (ECMA-262).
    pub source: Str,
    /// The same pattern in the checker's engine's syntax.
    pub regex: Str,
}

impl Pattern {
    /// Whether `text` matches; `Err` when the engine refuses the regex,
    /// which a compiled or loaded table never holds.
    pub fn is_match(&self, text: &str) -> Result<bool, String> {
        // Compiled per call: a check runs once per model call, next to an
        // HTTP request, and a table of `&'static` data cannot hold a cache.
        regex_lite::Regex::new(&self.regex)
            .map(|regex| regex.is_match(text))
            .map_err(|error| error.to_string())
    }
}

/// JSON Schema's validation keywords. Each applies to the instances it is
/// about (lengths to strings, bounds to numbers, ...), as in JSON Schema.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checks {
    /// `minimum`: the least number allowed.
    pub minimum: Option<f64>,
    /// `maximum`: the greatest number allowed.
    pub maximum: Option<f64>,
    /// `exclusiveMinimum`: numbers must be greater.
    pub exclusive_minimum: Option<f64>,
    /// `exclusiveMaximum`: numbers must be less.
    pub exclusive_maximum: Option<f64>,
    /// `multipleOf`: numbers must be a multiple of it.
    pub multiple_of: Option<f64>,
    /// `minLength`, in characters (code points).
    pub min_length: Option<u64>,
    /// `maxLength`, in characters (code points).
    pub max_length: Option<u64>,
    /// `minItems` of an array.
    pub min_items: Option<u64>,
    /// `maxItems` of an array.
    pub max_items: Option<u64>,
    /// `uniqueItems`: no two items of an array equal.
    pub unique_items: bool,
    /// `minProperties` of an object or map.
    pub min_properties: Option<u64>,
    /// `maxProperties` of an object or map.
    pub max_properties: Option<u64>,
    /// `pattern` of a string.
    pub pattern: Option<Pattern>,
}

impl Checks {
    /// No validation keyword.
    pub const NONE: Checks = Checks {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
        unique_items: false,
        min_properties: None,
        max_properties: None,
        pattern: None,
    };

    /// Whether no keyword is set.
    pub fn is_empty(&self) -> bool {
        *self == Checks::NONE
    }
}

/// Where in the arguments a problem is, and what it is.
struct Failure {
    path: Vec<Step>,
    message: String,
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

impl Failure {
    fn into_error(self, tool: &str) -> ToolCallError {
        ToolCallError::InvalidArguments {
            tool: tool.to_owned(),
            path: render_path(&self.path),
            message: self.message,
        }
    }
}

/// `.` for the arguments object, else `title`, `labels[2]`, `filter.owner`.
fn render_path(path: &[Step]) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Step::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// The schema of a tool that takes no arguments: an object with no
/// properties and no others.
impl Default for Schema {
    fn default() -> Self {
        Schema {
            nodes: List::Owned(vec![Node::Object {
                properties: List::Borrowed(&[]),
                additional: false,
                checks: Cow::Borrowed(&Checks::NONE),
            }]),
        }
    }
}

impl Schema {
    /// Checks `value` against the schema and returns it normalised: defaults
    /// filled in, members in declaration order, integers as integers and
    /// integral numbers as integers. Every problem names its JSON path.
    pub fn check(&self, tool: &str, value: &Value) -> Result<Map<String, Value>, ToolCallError> {
        let mut checker = Checker {
            nodes: &self.nodes,
            path: Vec::new(),
        };
        match checker.node(0, value, 0) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(Failure {
                path: Vec::new(),
                message: "the root of the schema is not an object".to_owned(),
            }
            .into_error(tool)),
            Err(failure) => Err(failure.into_error(tool)),
        }
    }
}

impl Schema {
    /// Checks `value` against one node of the table and returns it
    /// normalised. The compiler checks each `default` this way, at its
    /// property's node, so a default the build accepts is one that every
    /// call leaving the argument out passes.
    pub fn check_node(&self, tool: &str, node: u32, value: &Value) -> Result<Value, ToolCallError> {
        let mut checker = Checker {
            nodes: &self.nodes,
            path: Vec::new(),
        };
        checker
            .node(node, value, 0)
            .map_err(|failure| failure.into_error(tool))
    }
}

struct Checker<'s> {
    nodes: &'s [Node],
    path: Vec<Step>,
}

impl<'s> Checker<'s> {
    fn fail(&self, message: String) -> Failure {
        Failure {
            path: self.path.clone(),
            message,
        }
    }

    fn node(&mut self, index: u32, value: &Value, depth: usize) -> Result<Value, Failure> {
        if depth > MAX_DEPTH {
            return Err(self.fail(too_deep()));
        }
        let Some(node) = self.nodes.get(index as usize) else {
            return Err(self.fail("the schema table is inconsistent (a bug in skills)".into()));
        };
        match node {
            Node::String(checks) => {
                let Value::String(text) = value else {
                    return Err(self.mismatch(value, "a string"));
                };
                self.length(text, checks)?;
                self.pattern(text, checks)?;
                Ok(value.clone())
            }
            Node::Integer(checks) => {
                let Some(n) = integer(value) else {
                    return Err(match value {
                        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => self
                            .fail(format!(
                                "integer `{n}` is out of range: the tool takes 64-bit signed integers"
                            )),
                        _ => self.mismatch(value, "an integer"),
                    });
                };
                self.bounds(n as f64, Some(n), checks)?;
                Ok(Value::from(n))
            }
            Node::Number(checks) => {
                let Some(f) = value.as_f64().filter(|_| value.is_number()) else {
                    return Err(self.mismatch(value, "a number"));
                };
                self.bounds(f, value.as_i64(), checks)?;
                Ok(match value.as_i64() {
                    Some(n) => Value::from(n),
                    None => canonical_number(f),
                })
            }
            Node::Boolean => match value {
                Value::Bool(_) => Ok(value.clone()),
                _ => Err(self.mismatch(value, "a boolean")),
            },
            Node::Enum(values) => {
                let values: Vec<&str> = values.iter().map(|v| v.as_ref()).collect();
                match value {
                    Value::String(text) if values.contains(&text.as_str()) => Ok(value.clone()),
                    Value::String(text) => Err(self.fail(format!(
                        "unknown variant `{text}`, expected {}",
                        one_of(&values)
                    ))),
                    _ => Err(self.mismatch(value, &format!("one of {}", one_of(&values)))),
                }
            }
            Node::Nullable(inner) => match value {
                Value::Null => Ok(Value::Null),
                _ => self.node(*inner, value, depth),
            },
            Node::Array { items, checks } => {
                let Value::Array(elements) = value else {
                    return Err(self.mismatch(value, "a sequence"));
                };
                let mut out = Vec::with_capacity(elements.len());
                for (i, element) in elements.iter().enumerate() {
                    self.path.push(Step::Index(i));
                    out.push(self.node(*items, element, depth + 1)?);
                    self.path.pop();
                }
                self.count(out.len(), checks.min_items, checks.max_items, "items")?;
                if checks.unique_items && !all_unique(&out) {
                    return Err(self.fail("the items must be unique".into()));
                }
                Ok(Value::Array(out))
            }
            Node::Map { values, checks } => {
                let Value::Object(members) = value else {
                    return Err(self.mismatch(value, "a map"));
                };
                let mut out = Map::new();
                for (key, member) in members {
                    self.path.push(Step::Key(key.clone()));
                    let member = self.node(*values, member, depth + 1)?;
                    self.path.pop();
                    out.insert(key.clone(), member);
                }
                self.count(
                    out.len(),
                    checks.min_properties,
                    checks.max_properties,
                    "members",
                )?;
                Ok(Value::Object(out))
            }
            Node::Object {
                properties,
                additional,
                checks,
            } => {
                let Value::Object(members) = value else {
                    return Err(self.mismatch(value, "a map"));
                };
                let out = self.object(properties, *additional, members, depth)?;
                self.count(
                    out.len(),
                    checks.min_properties,
                    checks.max_properties,
                    "members",
                )?;
                Ok(Value::Object(out))
            }
        }
    }

    fn object(
        &mut self,
        properties: &'s [Property],
        additional: bool,
        members: &Map<String, Value>,
        depth: usize,
    ) -> Result<Map<String, Value>, Failure> {
        let mut out = Map::new();
        for property in properties {
            self.path.push(Step::Key(property.name.to_string()));
            match members.get(property.name.as_ref()) {
                Some(member) => {
                    let member = self.node(property.node, member, depth + 1)?;
                    out.insert(property.name.to_string(), member);
                }
                None => {
                    if let Some(default) = &property.default {
                        let parsed: Value = serde_json::from_str(default).map_err(|_| {
                            self.fail("the schema's default is not JSON (a bug in skills)".into())
                        })?;
                        let member = self.node(property.node, &parsed, depth + 1)?;
                        out.insert(property.name.to_string(), member);
                    } else if property.required {
                        return Err(self.fail(format!("missing field `{}`", property.name)));
                    }
                }
            }
            self.path.pop();
        }
        for (key, member) in members {
            if properties.iter().any(|p| p.name == key.as_str()) {
                continue;
            }
            if !additional {
                self.path.push(Step::Key(key.clone()));
                let names: Vec<&str> = properties.iter().map(|p| p.name.as_ref()).collect();
                let expected = if names.is_empty() {
                    "there are no fields".to_owned()
                } else {
                    format!("expected {}", one_of(&names))
                };
                return Err(self.fail(format!("unknown field `{key}`, {expected}")));
            }
            // A free member is not checked further, but it is bounded like
            // the rest: nothing deeper than MAX_DEPTH is ever accepted.
            if depth + 1 + nesting(member, MAX_DEPTH) > MAX_DEPTH {
                self.path.push(Step::Key(key.clone()));
                return Err(self.fail(too_deep()));
            }
            out.insert(key.clone(), member.clone());
        }
        Ok(out)
    }

    fn mismatch(&self, value: &Value, expected: &str) -> Failure {
        self.fail(format!(
            "invalid type: {}, expected {expected}",
            describe(value)
        ))
    }

    fn pattern(&self, text: &str, checks: &Checks) -> Result<(), Failure> {
        let Some(pattern) = &checks.pattern else {
            return Ok(());
        };
        match pattern.is_match(text) {
            Ok(true) => Ok(()),
            Ok(false) => Err(self.fail(format!(
                "{} does not match the pattern `{}`",
                Value::String(text.to_owned()),
                pattern.source
            ))),
            Err(error) => Err(self.fail(format!(
                "the schema's pattern does not compile (a bug in skills): {error}"
            ))),
        }
    }

    fn length(&self, text: &str, checks: &Checks) -> Result<(), Failure> {
        if checks.min_length.is_none() && checks.max_length.is_none() {
            return Ok(());
        }
        self.count(
            text.chars().count(),
            checks.min_length,
            checks.max_length,
            "characters",
        )
    }

    fn count(
        &self,
        n: usize,
        min: Option<u64>,
        max: Option<u64>,
        what: &str,
    ) -> Result<(), Failure> {
        let n = n as u64;
        if let Some(min) = min.filter(|min| n < *min) {
            return Err(self.fail(format!("has {n} {what}, fewer than the minimum of {min}")));
        }
        if let Some(max) = max.filter(|max| n > *max) {
            return Err(self.fail(format!("has {n} {what}, more than the maximum of {max}")));
        }
        Ok(())
    }

    /// `exact` is the value as an integer when it is one, for exact `multipleOf`.
    fn bounds(&self, f: f64, exact: Option<i64>, checks: &Checks) -> Result<(), Failure> {
        let shown = || exact.map_or_else(|| f.to_string(), |n| n.to_string());
        if let Some(min) = checks.minimum.filter(|min| f < *min) {
            return Err(self.fail(format!("{} is less than the minimum of {min}", shown())));
        }
        if let Some(max) = checks.maximum.filter(|max| f > *max) {
            return Err(self.fail(format!("{} is greater than the maximum of {max}", shown())));
        }
        if let Some(min) = checks.exclusive_minimum.filter(|min| f <= *min) {
            return Err(self.fail(format!("{} must be greater than {min}", shown())));
        }
        if let Some(max) = checks.exclusive_maximum.filter(|max| f >= *max) {
            return Err(self.fail(format!("{} must be less than {max}", shown())));
        }
        if let Some(m) = checks.multiple_of
            && !is_multiple(f, exact, m)
        {
            return Err(self.fail(format!("{} is not a multiple of {m}", shown())));
        }
        Ok(())
    }
}

/// An integer as JSON Schema counts one (`1` and `1.0` both are), when it fits `i64`.
pub fn integer(value: &Value) -> Option<i64> {
    if let Some(n) = value.as_i64() {
        return Some(n);
    }
    let f = value.as_f64().filter(|_| value.is_number())?;
    // 2^63 is exactly representable; anything at or beyond it does not fit.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (f.fract() == 0.0 && (-LIMIT..LIMIT).contains(&f)).then_some(f as i64)
}

/// The one JSON spelling of a number argument: integral values within
/// ±2^53 as integers (`3`, not `3.0`), others as floats.
pub fn canonical_number(f: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if f.fract() == 0.0 && f.abs() <= EXACT {
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

fn is_multiple(f: f64, exact: Option<i64>, m: f64) -> bool {
    if let Some(n) = exact
        && m.fract() == 0.0
        && m.abs() < 9.2e18
    {
        let m = m as i64;
        return m != 0 && n % m == 0;
    }
    let quotient = f / m;
    quotient.is_finite() && quotient.fract() == 0.0
}

/// Whether no two items are equal, numbers compared by value (`1` equals `1.0`).
fn all_unique(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[i + 1..].iter().all(|b| !json_equal(a, b)))
}

fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_equal(a, b)))
        }
        _ => a == b,
    }
}

/// How many arrays and objects enclose `value`'s deepest member (0 for a
/// scalar), counted up to `limit + 1`: without recursion, so that a value
/// built deep by hand cannot exhaust the stack.
fn nesting(value: &Value, limit: usize) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((value, level)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(members) => Box::new(members.values()),
            _ => continue,
        };
        deepest = deepest.max(level + 1);
        if deepest > limit {
            return deepest;
        }
        stack.extend(children.map(|child| (child, level + 1)));
    }
    deepest
}

/// serde's way of naming an unexpected value: ``integer `1` ``, `string "x"`.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {}", Value::String(s.clone())),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    }
}

fn one_of(values: &[&str]) -> String {
    match values {
        [one] => format!("`{one}`"),
        _ => {
            let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
            format!("one of {}", quoted.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow::Borrowed as B;

    static ZOO: Schema = Schema {
        nodes: B(&[
            Node::Object {
                properties: B(&[
                    Property {
                        name: B("title"),
                        node: 1,
                        required: true,
                        default: None,
                    },
                    Property {
                        name: B("count"),
                        node: 2,
                        required: false,
                        default: Some(B("10")),
                    },
                    Property {
                        name: B("labels"),
                        node: 3,
                        required: false,
                        default: None,
                    },
                    Property {
                        name: B("sort"),
                        node: 5,
                        required: false,
                        default: None,
                    },
                    Property {
                        name: B("tree"),
                        node: 6,
                        required: false,
                        default: None,
                    },
                    Property {
                        name: B("ratio"),
                        node: 9,
                        required: false,
                        default: None,
                    },
                ]),
                additional: false,
                checks: B(&Checks::NONE),
            },
            Node::String(B(&Checks {
                min_length: Some(1),
                max_length: Some(3),
                ..Checks::NONE
            })),
            Node::Integer(B(&Checks {
                minimum: Some(1.0),
                multiple_of: Some(2.0),
                ..Checks::NONE
            })),
            Node::Array {
                items: 4,
                checks: B(&Checks {
                    unique_items: true,
                    max_items: Some(3),
                    ..Checks::NONE
                }),
            },
            Node::String(B(&Checks::NONE)),
            Node::Enum(B(&[B("asc"), B("desc")])),
            // tree: {name: string, children: [tree]?}, through a nullable.
            Node::Nullable(7),
            Node::Object {
                properties: B(&[Property {
                    name: B("children"),
                    node: 8,
                    required: true,
                    default: None,
                }]),
                additional: false,
                checks: B(&Checks::NONE),
            },
            Node::Array {
                items: 7,
                checks: B(&Checks::NONE),
            },
            Node::Number(B(&Checks::NONE)),
        ]),
    };

    fn check(value: Value) -> Result<Value, (String, String)> {
        ZOO.check("t", &value)
            .map(Value::Object)
            .map_err(|error| match error {
                ToolCallError::InvalidArguments { path, message, .. } => (path, message),
                other => panic!("{other}"),
            })
    }

    #[test]
    fn valid_arguments_are_normalised() {
        let checked = check(json!({"ratio": 2.0, "title": "ab", "labels": ["x"]})).unwrap();
        assert_eq!(
            checked,
            json!({"title": "ab", "count": 10, "labels": ["x"], "ratio": 2})
        );
        assert_eq!(checked["ratio"].to_string(), "2");
        assert_eq!(
            check(json!({"title": "a", "count": 4.0})).unwrap()["count"],
            json!(4)
        );
        assert_eq!(
            check(json!({"title": "a", "ratio": 0.5})).unwrap()["ratio"],
            json!(0.5)
        );
    }

    #[test]
    fn every_problem_names_its_path() {
        let cases = [
            (json!({}), "title", "missing field `title`"),
            (json!([]), ".", "invalid type: sequence, expected a map"),
            (
                json!({"title": 1}),
                "title",
                "invalid type: integer `1`, expected a string",
            ),
            (
                json!({"title": ""}),
                "title",
                "has 0 characters, fewer than the minimum of 1",
            ),
            (
                json!({"title": "abcd"}),
                "title",
                "has 4 characters, more than the maximum of 3",
            ),
            (
                json!({"title": "a", "x": 1}),
                "x",
                "unknown field `x`, expected one of `title`, `count`, `labels`, `sort`, `tree`, `ratio`",
            ),
            (
                json!({"title": "a", "count": 3}),
                "count",
                "3 is not a multiple of 2",
            ),
            (
                json!({"title": "a", "count": 0}),
                "count",
                "0 is less than the minimum of 1",
            ),
            (
                json!({"title": "a", "count": 1.5}),
                "count",
                "invalid type: floating point `1.5`, expected an integer",
            ),
            (
                json!({"title": "a", "count": 1e30}),
                "count",
                "integer `1e+30` is out of range: the tool takes 64-bit signed integers",
            ),
            (
                json!({"title": "a", "labels": ["a", "a"]}),
                "labels",
                "the items must be unique",
            ),
            (
                json!({"title": "a", "labels": ["a", 2]}),
                "labels[1]",
                "invalid type: integer `2`, expected a string",
            ),
            (
                json!({"title": "a", "sort": "up"}),
                "sort",
                "unknown variant `up`, expected one of `asc`, `desc`",
            ),
            (
                json!({"title": "a", "tree": {"children": [{"children": [{}]}]}}),
                "tree.children[0].children[0].children",
                "missing field `children`",
            ),
        ];
        for (value, path, message) in cases {
            let error = check(value.clone()).expect_err(&value.to_string());
            assert_eq!(error, (path.to_owned(), message.to_owned()), "{value}");
        }
        // Lengths count characters, not bytes.
        assert!(check(json!({"title": "ééé"})).is_ok());
    }

    #[test]
    fn null_reads_as_null_only_where_the_schema_allows_it() {
        assert_eq!(
            check(json!({"title": "a", "tree": null})).unwrap()["tree"],
            Value::Null
        );
        assert!(check(json!({"title": null})).is_err());
    }

    #[test]
    fn deep_values_are_refused_not_recursed_into() {
        let mut tree = json!({"children": []});
        for _ in 0..500 {
            tree = json!({"children": [tree]});
        }
        let (path, message) = check(json!({"title": "a", "tree": tree})).unwrap_err();
        assert!(message.contains("levels deep"), "{message}");
        assert!(path.starts_with("tree.children[0]"));
    }

    #[test]
    fn free_members_are_bounded_like_the_rest() {
        let free = Schema {
            nodes: B(&[Node::Object {
                properties: B(&[]),
                additional: true,
                checks: B(&Checks::NONE),
            }]),
        };
        let nested = |levels: usize| {
            let mut value = json!(1);
            for _ in 0..levels {
                value = json!([value]);
            }
            json!({ "free": value })
        };
        // The member sits at level 1: MAX_DEPTH - 1 arrays fit, one more does not.
        assert!(free.check("t", &nested(MAX_DEPTH - 1)).is_ok());
        let error = free.check("t", &nested(MAX_DEPTH)).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "invalid arguments for `t` at `free`: nested more than {MAX_DEPTH} levels deep"
            )
        );
        // Deeper: the same answer, found without recursion.
        assert_eq!(
            free.check("t", &nested(1_000)).unwrap_err().to_string(),
            error.to_string()
        );
    }

    /// The rule for numbers that JSON can write but a double cannot hold
    /// (issue 23, item 25): an `integer` parameter takes exactly the
    /// integers of `i64` and refuses the rest, rounded or not; a `number` is
    /// an IEEE-754 double, as in every JSON Schema validator and JavaScript,
    /// so a longer number arrives rounded to the nearest double (and an
    /// underflow as 0), as the JSON parser read it.
    #[test]
    fn numbers_beyond_a_double_follow_one_rule() {
        let parsed: Value =
            serde_json::from_str(r#"{"title": "a", "count": 123456789012345678901234567890}"#)
                .unwrap();
        let (path, message) = check(parsed).unwrap_err();
        assert_eq!(path, "count");
        assert!(message.contains("out of range"), "{message}");
        let parsed: Value =
            serde_json::from_str(r#"{"title": "a", "ratio": 123456789012345678901234567890}"#)
                .unwrap();
        assert_eq!(
            check(parsed).unwrap()["ratio"].to_string(),
            "1.2345678901234568e+29"
        );
        let parsed: Value = serde_json::from_str(r#"{"title": "a", "ratio": 1e-400}"#).unwrap();
        assert_eq!(check(parsed).unwrap()["ratio"].to_string(), "0");
    }

    #[test]
    fn numbers_have_one_spelling() {
        assert_eq!(canonical_number(3.0).to_string(), "3");
        assert_eq!(canonical_number(-0.5).to_string(), "-0.5");
        assert_eq!(canonical_number(1e300).to_string(), "1e+300");
        assert!(json_equal(&json!(1), &json!(1.0)));
        assert!(!json_equal(&json!(1), &json!("1")));
        // Integers are divided exactly (2^53 + 1 is a multiple of 3); the
        // compiler checks defaults with the same arithmetic.
        assert!(is_multiple(
            9_007_199_254_740_993.0,
            Some(9_007_199_254_740_993),
            3.0
        ));
        assert!(!is_multiple(2.5, None, 2.0));
    }
}
