//! A schema's `default` is checked at build time by the checker every call
//! goes through, so the build accepts a default exactly when a call that
//! leaves the argument out is accepted at run time.

use std::borrow::Cow::{Borrowed as B, Owned};

use proptest::prelude::*;
use serde_json::{Value, json};
use skills_compiler::SkillFiles;
use skills_compiler::emit::lower;
use skills_compiler::{Code, Compilation, Config, compile_files};
use skills_core::{Checks, Node, Property, Schema};

/// One skill with one tool whose only parameter `p` is `property` (JSON).
fn compile_property(property: &Value) -> Compilation {
    let parameters = json!({"type": "object", "properties": {"p": property}});
    let text = format!(
        "---\nname: a\ndescription: Does a. Use when testing.\ntools:\n  - name: t\n    description: T.\n    parameters: {parameters}\n---\nBody\n"
    );
    let files = SkillFiles {
        dir: None,
        path: "skills/a/SKILL.md".into(),
        directory: "a".into(),
        bytes: text.into_bytes(),
        tools_yaml: None,
    };
    compile_files(vec![files], &Config::default())
}

#[test]
fn unique_items_compares_numbers_by_value_as_the_runtime_does() {
    let compilation = compile_property(&json!({
        "type": "array",
        "items": {"type": "number"},
        "uniqueItems": true,
        "default": [1, 1.0],
    }));
    let errors: Vec<_> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    assert_eq!(errors.len(), 1, "{:?}", compilation.diagnostics);
    assert_eq!(errors[0].code, Code::SchemaInvalid);
    assert_eq!(
        errors[0].message,
        "the default is refused: the items must be unique"
    );
    // Located at the default's value.
    assert_eq!(errors[0].line(), Some(7));

    let accepted = compile_property(&json!({
        "type": "array",
        "items": {"type": "number"},
        "uniqueItems": true,
        "default": [1, 1.5],
    }));
    assert!(!accepted.has_errors(), "{:?}", accepted.diagnostics);
}

#[test]
fn a_refused_item_is_named_by_its_path() {
    let compilation = compile_property(&json!({
        "type": "array",
        "items": {"type": "string", "maxLength": 2},
        "default": ["ab", "abc"],
    }));
    let error = compilation
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .unwrap();
    assert_eq!(
        error.message,
        "the default is refused at `[1]`: has 3 characters, more than the maximum of 2"
    );
}

/// A parameter type the generator draws, spelt both as JSON Schema (for the
/// compiler) and as the runtime's node table (built here, by hand, so that
/// the run-time side owes nothing to the compiler).
#[derive(Debug, Clone)]
enum Ty {
    String {
        min: Option<u64>,
        max: Option<u64>,
    },
    Integer {
        min: Option<i64>,
        multiple_of: Option<i64>,
    },
    Number {
        max: Option<f64>,
    },
    Boolean,
    Enum(Vec<&'static str>),
    Array {
        items: Box<Ty>,
        max: Option<u64>,
        unique: bool,
    },
    Nullable(Box<Ty>),
}

impl Ty {
    fn schema(&self) -> Value {
        let mut schema = match self {
            Ty::String { min, max } => {
                json!({"type": "string", "minLength": min, "maxLength": max})
            }
            Ty::Integer { min, multiple_of } => {
                json!({"type": "integer", "minimum": min, "multipleOf": multiple_of})
            }
            Ty::Number { max } => json!({"type": "number", "maximum": max}),
            Ty::Boolean => json!({"type": "boolean"}),
            Ty::Enum(values) => json!({"type": "string", "enum": values}),
            Ty::Array { items, max, unique } => {
                json!({"type": "array", "items": items.schema(), "maxItems": max, "uniqueItems": unique})
            }
            Ty::Nullable(inner) => {
                let mut inner = inner.schema();
                let ty = inner["type"].clone();
                inner["type"] = json!([ty, "null"]);
                inner
            }
        };
        // Absent keywords, not `null` ones.
        if let Value::Object(map) = &mut schema {
            map.retain(|_, value| !value.is_null());
        }
        schema
    }

    /// Appends this type's nodes; returns the index of its own.
    fn nodes(&self, table: &mut Vec<Node>) -> u32 {
        let index = table.len() as u32;
        table.push(Node::Boolean);
        let node = match self {
            Ty::String { min, max } => Node::String(Owned(Checks {
                min_length: *min,
                max_length: *max,
                ..Checks::NONE
            })),
            Ty::Integer { min, multiple_of } => Node::Integer(Owned(Checks {
                minimum: min.map(|n| n as f64),
                multiple_of: multiple_of.map(|n| n as f64),
                ..Checks::NONE
            })),
            Ty::Number { max } => Node::Number(Owned(Checks {
                maximum: *max,
                ..Checks::NONE
            })),
            Ty::Boolean => Node::Boolean,
            Ty::Enum(values) => Node::Enum(Owned(values.iter().map(|v| B(*v)).collect())),
            Ty::Array { items, max, unique } => Node::Array {
                items: items.nodes(table),
                checks: Owned(Checks {
                    max_items: *max,
                    unique_items: *unique,
                    ..Checks::NONE
                }),
            },
            Ty::Nullable(inner) => Node::Nullable(inner.nodes(table)),
        };
        table[index as usize] = node;
        index
    }

    /// What a call that leaves `p` out gives at run time.
    fn runtime_accepts_absent(&self, default: &Value) -> bool {
        let mut table = vec![Node::Boolean];
        let node = self.nodes(&mut table);
        table[0] = Node::Object {
            properties: Owned(vec![Property {
                name: B("p"),
                node,
                required: false,
                default: Some(Owned(default.to_string())),
            }]),
            additional: false,
            checks: B(&Checks::NONE),
        };
        let schema = Schema {
            nodes: Owned(table),
        };
        schema.check("t", &json!({})).is_ok()
    }
}

fn scalar_ty() -> impl Strategy<Value = Ty> {
    prop_oneof![
        (proptest::option::of(0u64..3), proptest::option::of(0u64..3)).prop_map(|(min, extra)| {
            Ty::String {
                min,
                max: extra.map(|e| min.unwrap_or(0) + e),
            }
        }),
        (
            proptest::option::of(-2i64..3),
            proptest::option::of(1i64..4)
        )
            .prop_map(|(min, multiple_of)| Ty::Integer { min, multiple_of }),
        proptest::option::of(prop_oneof![Just(0.5), Just(1.0), Just(2.0)])
            .prop_map(|max| Ty::Number { max }),
        Just(Ty::Boolean),
        Just(Ty::Enum(vec!["a", "bb"])),
    ]
}

fn ty() -> impl Strategy<Value = Ty> {
    let array = (scalar_ty(), proptest::option::of(0u64..4), any::<bool>()).prop_map(
        |(items, max, unique)| Ty::Array {
            items: Box::new(items),
            max,
            unique,
        },
    );
    let plain = prop_oneof![3 => scalar_ty(), 2 => array];
    prop_oneof![3 => plain.clone(), 1 => plain.prop_map(|ty| Ty::Nullable(Box::new(ty)))]
}

/// Values of every JSON type, near the generated bounds, with the pairs that
/// tell a text comparison from a value comparison (`1` and `1.0`).
fn scalar_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..7).prop_map(Value::from),
        prop_oneof![Just(1.0), Just(1.5), Just(-0.5), Just(2.0), Just(4.0)].prop_map(Value::from),
        prop_oneof![Just(""), Just("a"), Just("bb"), Just("ééé"), Just("abcd")]
            .prop_map(Value::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => scalar_value(),
        1 => proptest::collection::vec(scalar_value(), 0..5).prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_build_accepts_a_default_exactly_when_the_runtime_does(ty in ty(), default in value()) {
        let mut property = ty.schema();
        property["default"] = default.clone();
        let compilation = compile_property(&property);
        let others: Vec<_> = compilation
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && d.code != Code::SchemaInvalid)
            .collect();
        prop_assert!(others.is_empty(), "{property}: {others:?}");
        let built = !compilation.has_errors();
        prop_assert_eq!(
            built,
            ty.runtime_accepts_absent(&default),
            "{} {:?}",
            property,
            compilation.diagnostics
        );
        if built {
            // And the table the build made gives the same call.
            let skills = compilation.skills().unwrap();
            let skill = lower::skill(&skills.skills[0], Default::default());
            let call = skill.tools()[0].parse(&json!({}));
            prop_assert!(call.is_ok(), "{:?}", call);
        }
    }
}
