//! Accepted means it compiles and means what it says (DESIGN 4.1), proven on
//! generated skill sets rather than on hand-picked ones.
//!
//! Each run draws skill sets over the whole supported schema subset (every
//! type, validation keywords, `$defs` recursion directly and through arrays,
//! maps and options, nullable types, defaults, endpoints) with the nastiest
//! names we know: keywords of every edition, names that collide after case
//! conversion, leading digits, non-ASCII, empty enum values. Every set must be
//! accepted by the compiler; its expansion is compiled by a real rustc under
//! `deny(warnings)` in editions 2021 and 2024; and for every tool, generated
//! JSON documents go through the typed `ToolCall::parse` of the compiled
//! binary and through the `jsonschema` validator on the schema sent to
//! models: both must accept exactly the same documents. The binary also checks
//! that the untyped `Tool::parse` agrees, that a typed call survives
//! `arguments()` and a second parse unchanged, and that typed and untyped
//! calls build byte-identical requests.
//!
//! Size: `SKILLS_GENERATED_SETS` (default 12) sets per batch,
//! `SKILLS_GENERATED_BATCHES` (default 1) batches, `SKILLS_GENERATED_SEED`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value, json};
use skills_tests::TempCrate;

const SKILL_NAMES: &[&str] = &[
    "self",
    "crate",
    "super",
    "type",
    "gen",
    "3d",
    "навык",
    "a",
    "a-b",
    "tool-call",
    "skills",
    "std",
    "core",
    "async",
    "r",
];
const TOOL_NAMES: &[&str] = &[
    "self", "Self", "type", "Type", "gen", "a-b", "a_b", "ToolCall", "SKILL", "crate", "super",
    "x1", "try", "match",
];
const PROPERTY_NAMES: &[&str] = &[
    "self",
    "Self",
    "self_",
    "type",
    "Type",
    "match",
    "gen",
    "crate",
    "super",
    "async",
    "a-b",
    "a_b",
    "1st",
    "имя",
    "_",
    "field",
    "value",
    "object",
    "additional_properties",
    "ToolCall",
    "Ω",
    "x",
];
const ENUM_VALUES: &[&str] = &[
    "self", "Self", "A B", "a-b", "", "1", "é", "None", "Some", "value", "ALL", "a_b",
];

/// A schema of the supported subset.
#[derive(Debug, Clone)]
enum S {
    String {
        min: Option<u8>,
        max: Option<u8>,
    },
    Integer {
        min: Option<i32>,
        max: Option<i32>,
        multiple: Option<u8>,
    },
    Number {
        min: Option<i32>,
        exclusive_max: Option<i32>,
    },
    Boolean,
    Enum(Vec<String>),
    Array {
        items: Box<S>,
        min: Option<u8>,
        max: Option<u8>,
        unique: bool,
    },
    Object {
        properties: Vec<(String, S, bool)>,
        additional: bool,
        min_properties: Option<u8>,
    },
    Map(Box<S>),
    Nullable(Box<S>),
    Ref(&'static str),
}

fn optional<T: std::fmt::Debug + Clone + 'static>(
    strategy: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    prop_oneof![3 => Just(None), 1 => strategy.prop_map(Some)].boxed()
}

fn schema() -> BoxedStrategy<S> {
    let leaf = prop_oneof![
        (optional(0u8..3), optional(0u8..6)).prop_map(|(min, max)| S::String { min, max }),
        (optional(-5i32..5), optional(-5i32..50), optional(1u8..4))
            .prop_map(|(min, max, multiple)| S::Integer { min, max, multiple }),
        (optional(-5i32..5), optional(-5i32..50))
            .prop_map(|(min, exclusive_max)| S::Number { min, exclusive_max }),
        Just(S::Boolean),
        prop::sample::subsequence(ENUM_VALUES, 1..4)
            .prop_map(|values| S::Enum(values.into_iter().map(str::to_owned).collect())),
        prop::sample::select(vec!["Node", "List", "Pair", "Alias", "Tree"]).prop_map(S::Ref),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                optional(0u8..2),
                optional(0u8..4),
                any::<bool>()
            )
                .prop_map(|(items, min, max, unique)| S::Array {
                    items: Box::new(items),
                    min,
                    max,
                    unique,
                }),
            object(inner.clone()),
            inner.clone().prop_map(|s| S::Map(Box::new(s))),
            inner.prop_filter_map("nullable over a type", |s| match s {
                S::Ref(_) | S::Nullable(_) => None,
                other => Some(S::Nullable(Box::new(other))),
            }),
        ]
    })
    .boxed()
}

fn object(inner: impl Strategy<Value = S> + Clone + 'static) -> BoxedStrategy<S> {
    (
        prop::collection::vec(
            (prop::sample::select(PROPERTY_NAMES), inner, any::<bool>()),
            0..5,
        ),
        any::<bool>(),
        optional(0u8..2),
    )
        .prop_map(|(properties, additional, min_properties)| {
            let mut seen = BTreeSet::new();
            let properties = properties
                .into_iter()
                .filter(|(name, _, _)| seen.insert(*name))
                .map(|(name, s, required)| (name.to_owned(), s, required))
                .collect();
            S::Object {
                properties,
                additional,
                min_properties,
            }
        })
        .boxed()
}

/// The `$defs` every tool carries: recursion directly, through arrays and
/// maps, through an option, and an alias.
fn defs() -> Vec<(&'static str, S)> {
    let integer = S::Integer {
        min: None,
        max: None,
        multiple: None,
    };
    vec![
        (
            "Node",
            S::Object {
                properties: vec![
                    ("value".into(), integer.clone(), false),
                    ("next".into(), S::Ref("Node"), false),
                    (
                        "children".into(),
                        S::Array {
                            items: Box::new(S::Ref("Node")),
                            min: None,
                            max: None,
                            unique: false,
                        },
                        false,
                    ),
                ],
                additional: false,
                min_properties: None,
            },
        ),
        (
            "List",
            S::Array {
                items: Box::new(S::Ref("List")),
                min: None,
                max: Some(3),
                unique: false,
            },
        ),
        (
            "Pair",
            S::Object {
                properties: vec![
                    (
                        "a".into(),
                        S::String {
                            min: None,
                            max: None,
                        },
                        true,
                    ),
                    ("b".into(), S::Nullable(Box::new(integer)), false),
                ],
                additional: false,
                min_properties: None,
            },
        ),
        ("Alias", S::Ref("Pair")),
        ("Tree", S::Map(Box::new(S::Ref("Tree")))),
    ]
}

fn def(name: &str) -> S {
    defs()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| s)
        .expect("a known def")
}

/// The JSON Schema text of `s`, as a skill author writes it.
fn render(s: &S) -> Value {
    match s {
        S::String { min, max } => {
            let mut schema = json!({"type": "string"});
            put(&mut schema, "minLength", min.map(Value::from));
            put(&mut schema, "maxLength", max.map(Value::from));
            schema
        }
        S::Integer { min, max, multiple } => {
            let mut schema = json!({"type": "integer"});
            put(&mut schema, "minimum", min.map(Value::from));
            put(&mut schema, "maximum", max.map(Value::from));
            put(&mut schema, "multipleOf", multiple.map(Value::from));
            schema
        }
        S::Number { min, exclusive_max } => {
            let mut schema = json!({"type": "number"});
            put(
                &mut schema,
                "minimum",
                min.map(|m| Value::from(f64::from(m) + 0.5)),
            );
            put(
                &mut schema,
                "exclusiveMaximum",
                exclusive_max.map(Value::from),
            );
            schema
        }
        S::Boolean => json!({"type": "boolean"}),
        S::Enum(values) => json!({"type": "string", "enum": values}),
        S::Array {
            items,
            min,
            max,
            unique,
        } => {
            let mut schema = json!({"type": "array", "items": render(items)});
            put(&mut schema, "minItems", min.map(Value::from));
            put(&mut schema, "maxItems", max.map(Value::from));
            put(
                &mut schema,
                "uniqueItems",
                unique.then_some(Value::Bool(true)),
            );
            schema
        }
        S::Object {
            properties,
            additional,
            min_properties,
        } => {
            let mut props = Map::new();
            for (name, s, _) in properties {
                props.insert(name.clone(), render(s));
            }
            let required: Vec<&str> = properties
                .iter()
                .filter(|(_, _, r)| *r)
                .map(|(n, _, _)| n.as_str())
                .collect();
            let mut schema = json!({"type": "object", "properties": props});
            put(
                &mut schema,
                "required",
                (!required.is_empty()).then(|| json!(required)),
            );
            put(
                &mut schema,
                "additionalProperties",
                additional.then_some(Value::Bool(true)),
            );
            put(
                &mut schema,
                "minProperties",
                min_properties.map(Value::from),
            );
            schema
        }
        S::Map(values) => json!({"type": "object", "additionalProperties": render(values)}),
        S::Nullable(inner) => {
            let mut schema = render(inner);
            let ty = schema["type"].clone();
            schema["type"] = json!([ty, "null"]);
            schema
        }
        S::Ref(name) => json!({"$ref": format!("#/$defs/{name}")}),
    }
}

fn put(schema: &mut Value, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        schema[key] = value;
    }
}

/// A JSON document for `s`: mostly valid, sometimes broken somewhere.
fn instance(s: &S, rng: &mut TestRng, depth: usize) -> Value {
    if rng.random_bool(0.04) {
        let wrong = [
            Value::Null,
            json!(true),
            json!(1),
            json!(2.5),
            json!(4.0),
            json!("s"),
            json!([]),
            json!({}),
        ];
        return wrong[rng.random_range(0..wrong.len())].clone();
    }
    match s {
        S::String { min, max } => {
            const PIECES: &[&str] = &["a", "é", "/", "..", " ", "\"", "x", "%2e", "\u{0}"];
            let low = min.unwrap_or(0) as usize;
            let high = max.map_or(low + 4, |m| m as usize).max(low);
            let longer = usize::from(rng.random_bool(0.1));
            let length = rng.random_range(low..=high + longer);
            let text: String = (0..length)
                .map(|_| {
                    PIECES[rng.random_range(0..PIECES.len())]
                        .chars()
                        .next()
                        .unwrap_or('a')
                })
                .collect();
            Value::String(text)
        }
        S::Integer { min, max, multiple } => {
            let low = min.unwrap_or(-10);
            let high = max.unwrap_or(60).max(low);
            let mut n = rng.random_range(low - 1..=high + 1);
            if let Some(m) = multiple
                && rng.random_bool(0.8)
            {
                n -= n.rem_euclid(i32::from(*m));
            }
            if rng.random_bool(0.1) {
                json!(f64::from(n))
            } else {
                json!(n)
            }
        }
        S::Number { min, exclusive_max } => {
            let low = f64::from(min.unwrap_or(-10));
            let high = f64::from(exclusive_max.unwrap_or(60)).max(low);
            let f = low + (high - low) * rng.random::<f64>();
            if rng.random_bool(0.2) {
                json!(f.round() as i64)
            } else {
                json!(f)
            }
        }
        S::Boolean => json!(rng.random_bool(0.5)),
        S::Enum(values) => {
            if rng.random_bool(0.05) {
                json!("not-a-value")
            } else {
                json!(values[rng.random_range(0..values.len())])
            }
        }
        S::Array {
            items,
            min,
            max,
            unique,
        } => {
            let low = min.unwrap_or(0) as usize;
            let high = max.map_or(low + 3, |m| m as usize).max(low);
            let length = if depth > 3 {
                low
            } else {
                rng.random_range(low..=high)
            };
            let mut out: Vec<Value> = Vec::new();
            for _ in 0..length {
                let item = instance(items, rng, depth + 1);
                if !*unique || !out.contains(&item) || rng.random_bool(0.1) {
                    out.push(item);
                }
            }
            Value::Array(out)
        }
        S::Object {
            properties,
            additional,
            ..
        } => {
            let mut out = Map::new();
            for (name, s, required) in properties {
                let include = if *required {
                    !rng.random_bool(0.03)
                } else {
                    depth <= 3 && rng.random_bool(0.5)
                };
                if include {
                    out.insert(name.clone(), instance(s, rng, depth + 1));
                }
            }
            if rng.random_bool(if *additional { 0.3 } else { 0.03 }) {
                out.insert("extra".to_owned(), json!([1, "x"]));
            }
            Value::Object(out)
        }
        S::Map(values) => {
            let mut out = Map::new();
            if depth <= 3 {
                for key in ["k", "self", "é"].iter().take(rng.random_range(0..3)) {
                    out.insert((*key).to_owned(), instance(values, rng, depth + 1));
                }
            }
            Value::Object(out)
        }
        S::Nullable(inner) => {
            if rng.random_bool(0.3) {
                Value::Null
            } else {
                instance(inner, rng, depth)
            }
        }
        S::Ref(name) => instance(&def(name), rng, depth + 1),
    }
}

/// A tool: its name, its root object and its endpoint (or none).
#[derive(Debug, Clone)]
struct ToolSpec {
    name: String,
    root: Vec<(String, S, bool)>,
    additional: bool,
    endpoint: bool,
}

fn tool() -> impl Strategy<Value = (Vec<(String, S, bool)>, bool, bool)> {
    (object(schema()), any::<bool>()).prop_map(|(root, endpoint)| match root {
        S::Object {
            properties,
            additional,
            ..
        } => (properties, additional, endpoint),
        _ => (Vec::new(), false, endpoint),
    })
}

type SkillSpec = (String, Vec<ToolSpec>);

fn skill_set() -> impl Strategy<Value = Vec<SkillSpec>> {
    let tools = prop::collection::vec((prop::sample::select(TOOL_NAMES), tool()), 0..4);
    prop::collection::vec((prop::sample::select(SKILL_NAMES), tools), 1..4).prop_map(|skills| {
        let mut names = BTreeSet::new();
        skills
            .into_iter()
            .filter(|(name, _)| names.insert(*name))
            .map(|(name, tools)| {
                let mut seen = BTreeSet::new();
                let tools = tools
                    .into_iter()
                    .filter(|(name, _)| seen.insert(*name))
                    .map(|(name, (root, additional, endpoint))| ToolSpec {
                        name: name.to_owned(),
                        root,
                        additional,
                        endpoint,
                    })
                    .collect();
                (name.to_owned(), tools)
            })
            .collect()
    })
}

fn is_scalar(s: &S) -> bool {
    matches!(
        s,
        S::String { .. } | S::Integer { .. } | S::Number { .. } | S::Boolean | S::Enum(_)
    )
}

/// The skill file, tools and endpoints in YAML flow style (JSON is YAML).
fn skill_file(name: &str, tools: &[ToolSpec]) -> String {
    let mut text = format!("---\nname: {name}\ndescription: A generated skill.\ntools:\n");
    if tools.is_empty() {
        text = format!("---\nname: {name}\ndescription: A generated skill.\n");
    }
    for tool in tools {
        let mut parameters = render(&S::Object {
            properties: tool.root.clone(),
            additional: tool.additional,
            min_properties: None,
        });
        let defs: Map<String, Value> = defs()
            .iter()
            .map(|(name, s)| ((*name).to_owned(), render(s)))
            .collect();
        parameters["$defs"] = Value::Object(defs);
        let _ = writeln!(text, "  - name: {}", json!(tool.name));
        let _ = writeln!(text, "    description: Generated.");
        let _ = writeln!(text, "    parameters: {parameters}");
        if tool.endpoint {
            let _ = write!(text, "{}", endpoint(tool));
        }
    }
    text.push_str("permissions:\n  default_mode: confirm\n---\nBody.\n");
    text
}

/// A path placeholder for a required scalar, query values and a header for
/// optional scalars, and a JSON body with every property as a whole value.
fn endpoint(tool: &ToolSpec) -> String {
    let path = tool
        .root
        .iter()
        .find(|(_, s, required)| *required && is_scalar(s))
        .map_or(String::new(), |(name, _, _)| format!("/{{{{{name}}}}}"));
    let optional: Vec<&String> = tool
        .root
        .iter()
        .filter(|(_, s, required)| {
            !*required && (is_scalar(s) || matches!(s, S::Nullable(inner) if is_scalar(inner)))
        })
        .map(|(name, _, _)| name)
        .collect();
    let query: Map<String, Value> = optional
        .iter()
        .enumerate()
        .map(|(i, name)| (format!("q{i}"), json!(format!("{{{{{name}}}}}"))))
        .collect();
    let body: Vec<String> = tool
        .root
        .iter()
        .enumerate()
        .map(|(i, (name, _, _))| format!("\"k{i}\": {{{{{name}}}}}"))
        .collect();
    let mut text = format!(
        "    endpoint:\n      method: POST\n      url: https://api.example.com/v1{path}\n      query: {}\n",
        Value::Object(query)
    );
    if let Some(name) = optional.first() {
        let _ = writeln!(text, "      header: {{X-Value: \"{{{{{name}}}}}\"}}");
    }
    let _ = writeln!(
        text,
        "      body: {}",
        json!(format!("{{{}}}", body.join(", ")))
    );
    text
}

/// What the binary does with each case line: typed and untyped parse,
/// round trip, request parity.
const MAIN: &str = r#"
use skills::TypedCall;

macro_rules! check {
    ($skill:expr, $module:path, $tool:expr, $json:expr) => {{
        use $module as m;
        let untyped = $skill.parse_call($tool, $json);
        match m::ToolCall::parse($tool, $json) {
            Ok(call) => {
                let arguments = call.arguments();
                let again = m::ToolCall::parse($tool, &arguments).expect("a typed call parses again");
                assert!(again == call, "the round trip changed the call");
                let untyped = untyped.expect("untyped accepts what typed accepts");
                assert!(skills::serde_json::Value::Object(untyped.arguments().clone()) == arguments, "typed and untyped arguments differ");
                assert!(describe(call.request()) == describe(untyped.request()), "typed and untyped requests differ");
                "ok".to_owned()
            }
            Err(error) => {
                let untyped = untyped.expect_err("untyped refuses what typed refuses");
                assert!(untyped == error, "different errors: {untyped} / {error}");
                format!("err {}", error.path().unwrap_or("-"))
            }
        }
    }};
}

fn describe(request: Result<skills::http::Request<Vec<u8>>, skills::RequestError>) -> String {
    match request {
        Ok(request) => format!("{} {} {:?} {}", request.method(), request.uri(), request.headers(), String::from_utf8_lossy(request.body())),
        Err(error) => error.to_string(),
    }
}

fn main() {
    let cases = std::fs::read_to_string(std::env::args().nth(1).expect("a cases file")).expect("read the cases");
    for line in cases.lines() {
        let mut fields = line.splitn(4, '\t');
        let (set, skill, tool, json) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
        println!("{}", dispatch(set, skill, tool, json));
    }
}
"#;

/// Rust for a module path segment: raw when the name is a keyword of any edition.
fn segment(name: &str) -> String {
    const LATER_KEYWORDS: &[&str] = &["async", "await", "dyn", "try", "gen"];
    if syn::parse_str::<syn::Ident>(name).is_ok() && !LATER_KEYWORDS.contains(&name) {
        name.to_owned()
    } else {
        format!("r#{name}")
    }
}

struct Batch {
    krate: TempCrate,
    /// Per case: the line for the binary and what `jsonschema` says.
    cases: Vec<(String, bool)>,
    sets: Vec<Vec<SkillSpec>>,
}

fn batch(runner: &mut TestRunner, sets: usize) -> Batch {
    let krate = TempCrate::new("generated", &[("Cargo.toml", "[workspace]\n")]);
    let mut cases = Vec::new();
    let mut drawn = Vec::new();
    let mut modules = String::new();
    let mut arms = String::new();
    for index in 0..sets {
        let set = skill_set().new_tree(runner).expect("a skill set").current();
        let dir = format!("sets/set_{index}");
        for edition in ["e2021", "e2024"] {
            for (name, tools) in &set {
                krate.write(
                    &format!("{edition}/{dir}/{name}/SKILL.md"),
                    &skill_file(name, tools),
                );
            }
        }
        let base = krate.dir.join("e2024");
        let config = skills_compiler::Config {
            dir: dir.clone().into(),
            ..skills_compiler::Config::default()
        };
        let compilation = skills_compiler::compile(&base, &config);
        let rendered: Vec<String> = compilation
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(skills_compiler::diagnostics::render::short)
            .collect();
        assert!(
            rendered.is_empty(),
            "a generated set was refused:\n{}\n{set:#?}",
            rendered.join("\n")
        );
        let tokens =
            skills_compiler::emit::codegen::expand(&compilation.valid, &quote::quote!(::skills));
        let file = syn::parse2::<syn::File>(tokens).expect("the expansion parses");
        for edition in ["e2021", "e2024"] {
            krate.write(
                &format!("{edition}/src/set_{index}.rs"),
                &prettyplease::unparse(&file),
            );
        }
        let _ = writeln!(modules, "mod set_{index};");
        let names = skills_compiler::emit::codegen::module_names(&compilation.valid);
        for (skill, module) in compilation.valid.skills.iter().zip(&names) {
            if skill.tools.is_empty() {
                // Its `ToolCall` is uninhabited: nothing to call.
                continue;
            }
            let _ = writeln!(
                arms,
                "        (\"{index}\", {name:?}) => check!(set_{index}::SKILLS.get({name:?}).unwrap(), set_{index}::{module}, tool, json),",
                name = skill.name(),
                module = segment(module),
            );
            for tool in &skill.tools {
                let validator = jsonschema::validator_for(&tool.parameters_json())
                    .unwrap_or_else(|e| panic!("{}: {e}", tool.parameters_json()));
                let spec = set
                    .iter()
                    .find(|(name, _)| name == skill.name())
                    .and_then(|(_, tools)| tools.iter().find(|t| t.name == tool.name()))
                    .expect("the tool's spec");
                let root = S::Object {
                    properties: spec.root.clone(),
                    additional: spec.additional,
                    min_properties: None,
                };
                for _ in 0..24 {
                    let document = instance(&root, runner.rng(), 0);
                    let valid = validator.is_valid(&document);
                    cases.push((
                        format!("{index}\t{}\t{}\t{document}", skill.name(), tool.name()),
                        valid,
                    ));
                }
            }
        }
        drawn.push(set);
    }
    let main = format!(
        "#![deny(warnings)]\n{modules}{MAIN}\nfn dispatch(set: &str, skill: &str, tool: &str, json: &str) -> String {{\n    match (set, skill) {{\n{arms}        _ => unreachable!(),\n    }}\n}}\n"
    );
    let dependency = format!(
        "skills = {{ package = \"skills-runtime\", path = {:?}, default-features = false }}",
        skills_tests::workspace()
            .join("skills")
            .display()
            .to_string()
    );
    for (edition, year) in [("e2021", "2021"), ("e2024", "2024")] {
        krate.write(&format!("{edition}/src/main.rs"), &main);
        krate.write(
            &format!("{edition}/Cargo.toml"),
            &format!(
                "[package]\nname = \"generated-{year}\"\nversion = \"0.1.0\"\nedition = \"{year}\"\npublish = false\n\n[dependencies]\n{dependency}\n"
            ),
        );
    }
    krate.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"e2021\", \"e2024\"]\nresolver = \"2\"\n",
    );
    let lines: String = cases.iter().map(|(line, _)| format!("{line}\n")).collect();
    krate.write("cases.txt", &lines);
    Batch {
        krate,
        cases,
        sets: drawn,
    }
}

fn run(batch: &Batch, binary: &str) -> Vec<String> {
    let target = skills_tests::workspace().join("target/temp-crates/target/debug");
    let output = std::process::Command::new(target.join(binary))
        .arg(batch.krate.dir.join("cases.txt"))
        .output()
        .expect("run the generated binary");
    assert!(
        output.status.success(),
        "{binary} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn generated_skill_sets_compile_in_both_editions_and_parse_like_a_json_schema_validator() {
    let sets = env_number("SKILLS_GENERATED_SETS", 12);
    let batches = env_number("SKILLS_GENERATED_BATCHES", 1);
    let seed = env_number("SKILLS_GENERATED_SEED", 0) as u64;
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let (mut documents, mut accepted, mut tools) = (0, 0, 0);
    for _ in 0..batches {
        let batch = batch(&mut runner, sets);
        let output = batch.krate.cargo(&["build", "--quiet"]);
        assert!(
            output.status.success(),
            "the expansion does not compile:\n{}\nsets: {:#?}",
            String::from_utf8_lossy(&output.stderr),
            batch.sets
        );
        let e2021 = run(&batch, "generated-2021");
        let e2024 = run(&batch, "generated-2024");
        assert_eq!(e2021, e2024, "the editions disagree");
        assert_eq!(e2024.len(), batch.cases.len());
        for ((line, valid), verdict) in batch.cases.iter().zip(&e2024) {
            let typed = verdict == "ok";
            assert_eq!(
                typed, *valid,
                "typed parse says {verdict}, jsonschema says {valid}, for {line}"
            );
            documents += 1;
            accepted += usize::from(typed);
        }
        tools += batch.cases.len() / 24;
    }
    eprintln!(
        "generated: {batches} batch(es) of {sets} sets, {tools} tools, {documents} documents, {accepted} accepted by both"
    );
    // A generator that only made invalid (or only valid) documents would prove little.
    assert!(
        accepted > documents / 5 && accepted < documents * 19 / 20,
        "{accepted} of {documents}"
    );
}
