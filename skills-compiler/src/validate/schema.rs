//! Tool parameter schemas: the JSON Schema subset that maps onto Rust types.
//!
//! Anything outside the subset is an error that names the construct and its
//! line; nothing silently becomes `serde_json::Value`. Validation keywords
//! (`minimum`, `maxLength`, `uniqueItems`, ...) are lowered into [`Checks`],
//! which the run-time checker enforces; `format` and `pattern` are sent to the
//! model as hints and not enforced (docs/decisions.md).

use super::ctx::Ctx;
use crate::diagnostics::{Code, closest};
use skills_core::ToolCallError;

use crate::ir::table;
use crate::ir::{Checks, DefId, ObjectType, Parameters, Property, Type};
use crate::read::yaml::{Entry, Node, Value};

/// Keywords that shape the Rust type.
const STRUCTURAL: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "additionalProperties",
    "$ref",
    "$defs",
];

/// Keywords passed to the model unchanged.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
];

/// JSON Schema keywords with no Rust mapping here.
const UNSUPPORTED: &[&str] = &[
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "const",
    "patternProperties",
    "propertyNames",
    "dependentSchemas",
    "dependentRequired",
    "dependencies",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "definitions",
    "contentEncoding",
    "contentMediaType",
    "nullable",
    "discriminator",
];

/// What may stand beside `$ref`: annotations, nothing that constrains.
const REF_SIBLINGS: &[&str] = &[
    "$ref",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

/// A lowered schema: the parameters that lowered cleanly, and whether that is all of them.
pub(super) struct Lowered {
    pub parameters: Parameters,
    /// `false` when a problem was reported; `parameters` then holds the valid part,
    /// so that endpoints can still be checked against it.
    pub complete: bool,
}

/// Lowers `node` (a tool's `parameters`) into a type tree.
pub(super) fn lower(ctx: &mut Ctx<'_>, node: &Node) -> Lowered {
    let errors_before = ctx.diagnostics.iter().filter(|d| d.is_error()).count();
    let parameters = lower_root(ctx, node);
    let errors_after = ctx.diagnostics.iter().filter(|d| d.is_error()).count();
    Lowered {
        complete: parameters.is_some() && errors_after == errors_before,
        parameters: parameters.unwrap_or_else(Parameters::empty),
    }
}

fn lower_root(ctx: &mut Ctx<'_>, node: &Node) -> Option<Parameters> {
    let Some(entries) = node.as_map() else {
        ctx.push(
            ctx.error(
                Code::SchemaRoot,
                node.span.clone(),
                format!(
                    "`parameters` must be a JSON Schema object, found {}",
                    node.type_name()
                ),
            )
            .with_help("use `type: object` with `properties`"),
        );
        return None;
    };
    if node.get("type").and_then(Node::as_str) != Some("object") {
        let at = node
            .get("type")
            .map_or(node.span.clone(), |t| t.span.clone());
        ctx.push(ctx
            .error(Code::SchemaRoot, at, "the root of `parameters` must be `type: object`")
            .with_help("model APIs take tool arguments as a JSON object: wrap the parameters in `type: object` with `properties`"));
        return None;
    }
    let def_names: Vec<String> = node
        .get("$defs")
        .and_then(Node::as_map)
        .map(|defs| defs.iter().map(|e| e.key.clone()).collect())
        .unwrap_or_default();
    let mut lowerer = Lowerer {
        ctx,
        def_names: &def_names,
    };
    let mut defs = Vec::new();
    if let Some(defs_node) = node.get("$defs") {
        for entry in lowerer.ctx.map(defs_node, "$defs", Code::SchemaInvalid) {
            // Every entry keeps its place, which its `DefId` names: one that
            // did not lower (reported) stands as an empty object, in
            // parameters that are then incomplete and never emitted.
            let ty = lowerer
                .schema(&entry.value, false)
                .unwrap_or_else(|| Type::Object(Parameters::empty().root));
            defs.push((entry.key.clone(), ty));
        }
        reference_cycles(lowerer.ctx, defs_node, &defs);
    }
    let root = lowerer.object(node, entries, true)?;
    Some(Parameters { root, defs })
}

/// `A: {$ref: B}` and `B: {$ref: A}` describe no value at all: an error at
/// each `$ref` of such a cycle.
fn reference_cycles(ctx: &mut Ctx<'_>, defs_node: &Node, defs: &[(String, Type)]) {
    let target = |at: usize| match defs.get(at) {
        Some((_, Type::Ref(target))) => Some(target.index()),
        _ => None,
    };
    for (index, (name, _)) in defs.iter().enumerate() {
        let mut at = index;
        let mut steps = 0;
        let cycles = loop {
            match target(at) {
                Some(next) if next == index => break true,
                Some(next) if steps <= defs.len() => {
                    at = next;
                    steps += 1;
                }
                _ => break false,
            }
        };
        let reference = defs_node.get(name).and_then(|def| def.get("$ref"));
        if let (true, Some(reference)) = (cycles, reference) {
            ctx.push(ctx
                .error(
                    Code::SchemaRef,
                    reference.span.clone(),
                    format!("`$defs/{name}` refers to itself through references alone, so it describes no value"),
                )
                .with_help("give one of the entries in the cycle a type (`type: object`, ...)"));
        }
    }
}

struct Lowerer<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    def_names: &'c [String],
}

impl Lowerer<'_, '_> {
    fn schema(&mut self, node: &Node, is_root: bool) -> Option<Type> {
        let Some(entries) = node.as_map() else {
            self.ctx.push(self.ctx.error(
                Code::SchemaInvalid,
                node.span.clone(),
                format!("a schema must be a mapping, found {}", node.type_name()),
            ));
            return None;
        };
        if !self.check_keywords(entries, is_root) {
            // The construct is reported; guessing a type from the rest would only add noise.
            return None;
        }
        if let Some(reference) = node.get("$ref") {
            let mut alone = true;
            for entry in entries
                .iter()
                .filter(|e| !REF_SIBLINGS.contains(&e.key.as_str()) && !e.key.starts_with("x-"))
            {
                self.ctx.push(self
                    .ctx
                    .error(
                        Code::SchemaUnsupported,
                        entry.key_span.clone(),
                        format!("`{}` beside `$ref` is not supported", entry.key),
                    )
                    .with_help("put it in the `$defs` entry the reference names, or declare the schema here instead of referring to it"));
                alone = false;
            }
            return self.reference(reference).filter(|_| alone);
        }
        let (type_name, nullable) = match node.get("type") {
            Some(ty) => self.type_keyword(ty)?,
            None if node.get("enum").is_some() => ("string".to_owned(), false),
            None if node.get("properties").is_some() => ("object".to_owned(), false),
            None => {
                self.ctx.push(
                    self.ctx
                        .error(
                            Code::SchemaInvalid,
                            node.span.clone(),
                            "this schema has no `type`",
                        )
                        .with_help(
                            "add `type: string` (or integer, number, boolean, array, object)",
                        ),
                );
                return None;
            }
        };
        // Objects and maps read their own checks.
        let checks = if type_name == "object" {
            Checks::default()
        } else {
            self.checks(node)?
        };
        let ty = match type_name.as_str() {
            "string" => match node.get("enum") {
                Some(values) => self.enumeration(values, &checks)?,
                None => Type::String(checks),
            },
            "integer" => Type::Integer(checks),
            "number" => Type::Number(checks),
            "boolean" => Type::Boolean,
            "array" => match node.get("items") {
                Some(items) => Type::Array(Box::new(self.schema(items, false)?), checks),
                None => {
                    self.ctx.push(
                        self.ctx
                            .error(
                                Code::SchemaInvalid,
                                node.span.clone(),
                                "an array schema needs `items`",
                            )
                            .with_help("add `items: {type: string}` (or the element type)"),
                    );
                    return None;
                }
            },
            "object" => self.object_or_map(node, entries)?,
            // `type_keyword` lets only the names above through.
            _ => return None,
        };
        if type_name != "string"
            && let Some(values) = node.get("enum")
        {
            self.ctx.push(self.ctx.error(
                Code::SchemaUnsupported,
                values.span.clone(),
                format!("`enum` is supported on strings only, not on `{type_name}`"),
            ));
            return None;
        }
        Some(if nullable {
            Type::Nullable(Box::new(ty))
        } else {
            ty
        })
    }

    /// Reports keywords outside the subset; `false` when there was one.
    fn check_keywords(&mut self, entries: &[Entry], is_root: bool) -> bool {
        let errors_before = self.ctx.diagnostics.len();
        for entry in entries {
            let key = entry.key.as_str();
            if key == "$defs" && !is_root {
                self.ctx.push(self.ctx.error(
                    Code::SchemaUnsupported,
                    entry.key_span.clone(),
                    "`$defs` is supported at the root of `parameters` only",
                ));
            } else if UNSUPPORTED.contains(&key) {
                let help = match key {
                    "definitions" => "use `$defs` (JSON Schema 2020-12)".to_owned(),
                    "nullable" => "write `type: [string, \"null\"]`".to_owned(),
                    "const" => "use `enum` with one value".to_owned(),
                    _ => "supported: type, properties, required, items, string enum, nullable via `type: [T, \"null\"]`, additionalProperties, local $ref".to_owned(),
                };
                self.ctx.push(
                    self.ctx
                        .error(
                            Code::SchemaUnsupported,
                            entry.key_span.clone(),
                            format!("`{key}` is not supported in tool parameter schemas"),
                        )
                        .with_help(help),
                );
            } else if !STRUCTURAL.contains(&key)
                && !ANNOTATIONS.contains(&key)
                && !key.starts_with("x-")
            {
                let known = STRUCTURAL.iter().chain(ANNOTATIONS).copied();
                self.ctx.push(match closest(key, known) {
                    Some(suggestion) => self
                        .ctx
                        .error(
                            Code::SchemaInvalid,
                            entry.key_span.clone(),
                            format!("unknown schema keyword `{key}`"),
                        )
                        .with_help(format!("did you mean `{suggestion}`?")),
                    None => self.ctx.error(
                        Code::SchemaUnsupported,
                        entry.key_span.clone(),
                        format!("`{key}` is not a supported schema keyword"),
                    ),
                });
            }
        }
        self.ctx.diagnostics.len() == errors_before
    }

    /// `type: T` or `type: [T, "null"]` -> (T, nullable).
    fn type_keyword(&mut self, node: &Node) -> Option<(String, bool)> {
        const TYPES: &[&str] = &["string", "integer", "number", "boolean", "array", "object"];
        let (name, nullable, at) = match &node.value {
            Value::String(name) => (name.clone(), false, node.span.clone()),
            Value::Seq(items) => {
                let names: Vec<&str> = items.iter().filter_map(Node::as_str).collect();
                let non_null: Vec<&str> = names.iter().copied().filter(|n| *n != "null").collect();
                if names.len() != items.len() || non_null.len() != 1 || names.len() != 2 {
                    self.ctx.push(
                        self.ctx
                            .error(
                                Code::SchemaUnsupported,
                                node.span.clone(),
                                "a type list must be `[T, \"null\"]`",
                            )
                            .with_help("unions of several types are not supported"),
                    );
                    return None;
                }
                (non_null[0].to_owned(), true, node.span.clone())
            }
            _ => {
                self.ctx.push(self.ctx.error(
                    Code::SchemaInvalid,
                    node.span.clone(),
                    "`type` must be a string",
                ));
                return None;
            }
        };
        if !TYPES.contains(&name.as_str()) {
            let mut diagnostic =
                self.ctx
                    .error(Code::SchemaInvalid, at, format!("unknown type `{name}`"));
            diagnostic = match closest(&name, TYPES.iter().copied()) {
                Some(s) => diagnostic.with_help(format!("did you mean `{s}`?")),
                None => diagnostic.with_help(format!("expected one of: {}", TYPES.join(", "))),
            };
            self.ctx.push(diagnostic);
            return None;
        }
        Some((name, nullable))
    }

    /// The validation keywords of `node`; `None` when one is malformed.
    fn checks(&mut self, node: &Node) -> Option<Checks> {
        let errors_before = self.ctx.diagnostics.len();
        let checks = Checks {
            minimum: self.number(node, "minimum"),
            maximum: self.number(node, "maximum"),
            exclusive_minimum: self.number(node, "exclusiveMinimum"),
            exclusive_maximum: self.number(node, "exclusiveMaximum"),
            multiple_of: self.number(node, "multipleOf"),
            min_length: self.count(node, "minLength"),
            max_length: self.count(node, "maxLength"),
            min_items: self.count(node, "minItems"),
            max_items: self.count(node, "maxItems"),
            unique_items: self.flag(node, "uniqueItems"),
            min_properties: self.count(node, "minProperties"),
            max_properties: self.count(node, "maxProperties"),
            pattern: self.pattern(node),
        };
        if let (Some(m), Some(at)) = (checks.multiple_of, node.get("multipleOf"))
            && m <= 0.0
        {
            self.ctx.push(self.ctx.error(
                Code::SchemaInvalid,
                at.span.clone(),
                "`multipleOf` must be greater than 0",
            ));
        }
        (self.ctx.diagnostics.len() == errors_before).then_some(checks)
    }

    /// `pattern`, in the checker's syntax; refused (S320) where the checker
    /// could not match exactly what ECMA-262 matches.
    fn pattern(&mut self, node: &Node) -> Option<skills_core::Pattern> {
        let value = node.get("pattern")?;
        let Some(source) = value.as_str() else {
            self.ctx.push(self.ctx.error(
                Code::SchemaInvalid,
                value.span.clone(),
                format!("`pattern` must be a string, found {}", value.type_name()),
            ));
            return None;
        };
        let refused = |why: String| {
            self.ctx
                .error(
                    Code::PatternUnsupported,
                    value.span.clone(),
                    format!("the pattern `{source}` holds {why}"),
                )
                .with_help(
                    "tool arguments are checked against the pattern before anything is sent, so it must mean exactly what ECMA-262 says; see `cargo skills explain S320`",
                )
        };
        let pattern = match super::pattern::translate(source) {
            Ok(regex) => skills_core::Pattern {
                source: source.to_owned().into(),
                regex: regex.into(),
            },
            Err(why) => {
                let diagnostic = refused(why);
                self.ctx.push(diagnostic);
                return None;
            }
        };
        if let Err(error) = pattern.is_match("") {
            let diagnostic = refused(format!("a construct the checker's engine refuses: {error}"));
            self.ctx.push(diagnostic);
            return None;
        }
        Some(pattern)
    }

    fn number(&mut self, node: &Node, key: &str) -> Option<f64> {
        let value = node.get(key)?;
        match value.value {
            Value::Int(n) => Some(n as f64),
            Value::Float(f) if f.is_finite() => Some(f),
            _ => {
                let help = if matches!(value.value, Value::Bool(_)) {
                    "in JSON Schema 2020-12 the exclusive bounds are numbers: `exclusiveMinimum: 0`"
                } else {
                    "write a number"
                };
                self.ctx.push(
                    self.ctx
                        .error(
                            Code::SchemaInvalid,
                            value.span.clone(),
                            format!("`{key}` must be a number, found {}", value.type_name()),
                        )
                        .with_help(help),
                );
                None
            }
        }
    }

    fn count(&mut self, node: &Node, key: &str) -> Option<u64> {
        let value = node.get(key)?;
        match value.value {
            Value::Int(n) if n >= 0 => u64::try_from(n).ok(),
            _ => {
                self.ctx.push(self.ctx.error(
                    Code::SchemaInvalid,
                    value.span.clone(),
                    format!("`{key}` must be a non-negative integer"),
                ));
                None
            }
        }
    }

    fn flag(&mut self, node: &Node, key: &str) -> bool {
        let Some(value) = node.get(key) else {
            return false;
        };
        match value.value {
            Value::Bool(b) => b,
            _ => {
                self.ctx.push(self.ctx.error(
                    Code::SchemaInvalid,
                    value.span.clone(),
                    format!("`{key}` must be true or false"),
                ));
                false
            }
        }
    }

    fn enumeration(&mut self, node: &Node, checks: &Checks) -> Option<Type> {
        let Some(items) = node.as_seq().filter(|items| !items.is_empty()) else {
            self.ctx.push(self.ctx.error(
                Code::SchemaInvalid,
                node.span.clone(),
                "`enum` must be a non-empty list",
            ));
            return None;
        };
        let mut values: Vec<String> = Vec::new();
        for item in items {
            match item.as_str() {
                Some(value) if values.iter().any(|v| v == value) => {
                    self.ctx.push(self.ctx.error(
                        Code::SchemaInvalid,
                        item.span.clone(),
                        format!("`{value}` appears twice in `enum`"),
                    ));
                }
                Some(value)
                    if checks
                        .pattern
                        .as_ref()
                        .is_some_and(|pattern| pattern.is_match(value) == Ok(false)) =>
                {
                    self.ctx.push(
                        self.ctx
                            .error(
                                Code::SchemaInvalid,
                                item.span.clone(),
                                format!("`{value}` does not match this schema's `pattern`, so no call could use it"),
                            )
                            .with_help("remove the value, or change the pattern"),
                    );
                    values.push(value.to_owned());
                }
                Some(value) => {
                    let length = value.chars().count() as u64;
                    if checks.min_length.is_some_and(|min| length < min)
                        || checks.max_length.is_some_and(|max| length > max)
                    {
                        self.ctx.push(self
                            .ctx
                            .error(
                                Code::SchemaInvalid,
                                item.span.clone(),
                                format!("`{value}` breaks this schema's `minLength` or `maxLength`, so no call could use it"),
                            )
                            .with_help("remove the value, or relax the length bounds"));
                    }
                    values.push(value.to_owned());
                }
                None => {
                    self.ctx.push(self.ctx.error(
                        Code::SchemaUnsupported,
                        item.span.clone(),
                        format!("`enum` values must be strings, found {}", item.type_name()),
                    ));
                    return None;
                }
            }
        }
        Some(Type::Enum(values))
    }

    fn reference(&mut self, node: &Node) -> Option<Type> {
        let Some(target) = node.as_str() else {
            self.ctx.push(self.ctx.error(
                Code::SchemaRef,
                node.span.clone(),
                "`$ref` must be a string",
            ));
            return None;
        };
        let Some(name) = target.strip_prefix("#/$defs/") else {
            let message = if target.starts_with('#') {
                format!("`{target}` is not a reference to `#/$defs/<name>`")
            } else {
                format!("remote `$ref` `{target}` is not supported")
            };
            self.ctx.push(self
                .ctx
                .error(Code::SchemaRef, node.span.clone(), message)
                .with_help(
                    "declare the schema under the root's `$defs` and refer to it as `#/$defs/Name`",
                ));
            return None;
        };
        let Some(id) = self.def_names.iter().position(|def| def == name) else {
            let mut diagnostic = self.ctx.error(
                Code::SchemaRef,
                node.span.clone(),
                format!("`$defs` has no entry `{name}`"),
            );
            if let Some(s) = closest(name, self.def_names.iter().map(String::as_str)) {
                diagnostic = diagnostic.with_help(format!("did you mean `#/$defs/{s}`?"));
            }
            self.ctx.push(diagnostic);
            return None;
        };
        // `$defs` holds far fewer than 2^32 entries (the frontmatter is bounded).
        Some(Type::Ref(DefId(u32::try_from(id).unwrap_or(u32::MAX))))
    }

    fn object_or_map(&mut self, node: &Node, entries: &[Entry]) -> Option<Type> {
        match node.get("additionalProperties") {
            Some(extra) if extra.as_map().is_some() => {
                if node.get("properties").is_some() {
                    self.ctx.push(self.ctx.error(
                        Code::SchemaUnsupported,
                        extra.span.clone(),
                        "an object with both `properties` and an `additionalProperties` schema",
                    )
                    .with_help("use either fixed `properties` or a map (`additionalProperties: {type: ...}`)"));
                    return None;
                }
                let checks = self.checks(node)?;
                Some(Type::Map(Box::new(self.schema(extra, false)?), checks))
            }
            _ => Some(Type::Object(self.object(node, entries, false)?)),
        }
    }

    fn object(&mut self, node: &Node, entries: &[Entry], is_root: bool) -> Option<ObjectType> {
        if is_root && !self.check_keywords(entries, true) {
            return None;
        }
        let checks = self.checks(node)?;
        let additional_properties = match node.get("additionalProperties") {
            None => false,
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => *b,
            Some(other) if is_root && other.as_map().is_some() => {
                self.ctx.push(
                    self.ctx
                        .error(
                            Code::SchemaUnsupported,
                            other.span.clone(),
                            "the root of `parameters` cannot be a map",
                        )
                        .with_help("declare the arguments as `properties`"),
                );
                return None;
            }
            Some(other) => {
                self.ctx.push(self.ctx.error(
                    Code::SchemaInvalid,
                    other.span.clone(),
                    "`additionalProperties` must be a boolean or a schema",
                ));
                return None;
            }
        };
        let required = self.required(node);
        let mut properties = Vec::new();
        if let Some(props) = node.get("properties") {
            for entry in self.ctx.map(props, "properties", Code::SchemaInvalid) {
                if entry.key.is_empty() {
                    self.ctx.push(self.ctx.error(
                        Code::SchemaInvalid,
                        entry.key_span.clone(),
                        "a property name must not be empty",
                    ));
                    continue;
                }
                let Some(ty) = self.schema(&entry.value, false) else {
                    continue;
                };
                if let Some(default) = entry.value.get("default") {
                    self.check_default(&ty, default);
                }
                properties.push(Property {
                    name: entry.key.clone(),
                    ty,
                    required: required.iter().any(|(name, _)| *name == entry.key),
                    description: entry
                        .value
                        .get("description")
                        .and_then(Node::as_str)
                        .map(str::to_owned),
                    default: entry.value.get("default").map(Node::to_json),
                });
            }
        }
        for (name, item) in &required {
            let declared = node.get("properties").and_then(|p| p.get(name)).is_some();
            if !declared {
                let mut diagnostic = self.ctx.error(
                    Code::SchemaRequired,
                    item.span.clone(),
                    format!("`required` names `{name}`, which is not in `properties`"),
                );
                let names = node.get("properties").and_then(Node::as_map).unwrap_or(&[]);
                diagnostic = match closest(name, names.iter().map(|e| e.key.as_str())) {
                    Some(s) => diagnostic.with_help(format!("did you mean `{s}`?")),
                    None => diagnostic.with_help(format!(
                        "declare `{name}` under `properties`, or remove it from `required`"
                    )),
                };
                self.ctx.push(diagnostic);
            }
        }
        Some(ObjectType {
            description: node
                .get("description")
                .and_then(Node::as_str)
                .map(str::to_owned),
            properties,
            additional_properties,
            checks,
        })
    }

    /// A default must be of a shape the generated code can spell (scalars,
    /// enum values, null, lists of those), and a value that the run-time
    /// checker accepts at the property's node: it is checked by that very
    /// checker, so the build and every call that leaves it out agree.
    fn check_default(&mut self, ty: &Type, default: &Node) {
        if matches!((ty, &default.value), (Type::Nullable(_), Value::Null)) {
            return; // `None`, whatever the type.
        }
        let refused = match spellable(ty) {
            Err(message) => Some((Code::SchemaUnsupported, message)),
            Ok(()) => table::value_schema(ty)
                .check_node("", 0, &default.to_json())
                .err()
                .map(|error| (Code::SchemaInvalid, refused_default(&error))),
        };
        if let Some((code, message)) = refused {
            self.ctx
                .push(self.ctx.error(code, default.span.clone(), message));
        }
    }

    fn required<'n>(&mut self, node: &'n Node) -> Vec<(String, &'n Node)> {
        let Some(required) = node.get("required") else {
            return Vec::new();
        };
        let Some(items) = required.as_seq() else {
            self.ctx.push(self.ctx.error(
                Code::SchemaInvalid,
                required.span.clone(),
                "`required` must be a list of property names",
            ));
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| match item.as_str() {
                Some(name) => Some((name.to_owned(), item)),
                None => {
                    self.ctx.push(self.ctx.error(
                        Code::SchemaInvalid,
                        item.span.clone(),
                        "`required` must list property names",
                    ));
                    None
                }
            })
            .collect()
    }
}

/// Whether generated code can spell a default of this type.
fn spellable(ty: &Type) -> Result<(), String> {
    match ty {
        Type::String(_) | Type::Integer(_) | Type::Number(_) | Type::Boolean | Type::Enum(_) => {
            Ok(())
        }
        Type::Nullable(inner) | Type::Array(inner, _) => spellable(inner),
        Type::Object(_) | Type::Map(..) | Type::Ref(_) => Err(
            "defaults are supported on scalars, enums and lists of them, not on objects or references"
                .to_owned(),
        ),
    }
}

/// The checker's reason, said of the default: ``the default is refused:
/// at `[1]`: invalid type: ...``.
fn refused_default(error: &ToolCallError) -> String {
    match error {
        ToolCallError::InvalidArguments { path, message, .. } if path != "." => {
            format!("the default is refused at `{path}`: {message}")
        }
        ToolCallError::InvalidArguments { message, .. } => {
            format!("the default is refused: {message}")
        }
        other => format!("the default is refused: {other}"),
    }
}

/// Makes what the checker enforces explicit in the schema sent to models, so
/// that any JSON Schema validator accepts exactly what the checker accepts:
/// `type` where it was implied, `additionalProperties: false` on objects (the
/// checker's default, not JSON Schema's), and `null` among a nullable `enum`'s
/// values (JSON Schema checks `enum` against null too).
pub(super) fn make_explicit(schema: &mut serde_json::Value) {
    use serde_json::Value as Json;
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if object.contains_key("$ref") {
        return;
    }
    if !object.contains_key("type") {
        if object.contains_key("enum") {
            object.insert("type".to_owned(), Json::from("string"));
        } else if object.contains_key("properties") {
            object.insert("type".to_owned(), Json::from("object"));
        }
    }
    let types: Vec<String> = match object.get("type") {
        Some(Json::String(t)) => vec![t.clone()],
        Some(Json::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    if types.iter().any(|t| t == "object") && !object.contains_key("additionalProperties") {
        object.insert("additionalProperties".to_owned(), Json::Bool(false));
    }
    if types.iter().any(|t| t == "null")
        && let Some(Json::Array(values)) = object.get_mut("enum")
        && !values.contains(&Json::Null)
    {
        values.push(Json::Null);
    }
    for key in ["properties", "$defs"] {
        if let Some(children) = object.get_mut(key).and_then(Json::as_object_mut) {
            children.values_mut().for_each(make_explicit);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = object.get_mut(key) {
            make_explicit(child);
        }
    }
}

/// Whether an explicit schema qualifies for OpenAI's strict mode: every
/// object closed and requiring all its properties, no defaults, no maps.
pub(super) fn strict_compatible(schema: &serde_json::Value) -> bool {
    use serde_json::Value as Json;
    let Some(object) = schema.as_object() else {
        return true;
    };
    if object.contains_key("default") {
        return false;
    }
    if object
        .get("additionalProperties")
        .is_some_and(|a| a != &Json::Bool(false))
    {
        return false;
    }
    let names: Vec<&String> = object
        .get("properties")
        .and_then(Json::as_object)
        .map_or_else(Vec::new, |p| p.keys().collect());
    let required: Vec<&str> = object
        .get("required")
        .and_then(Json::as_array)
        .map_or_else(Vec::new, |r| r.iter().filter_map(Json::as_str).collect());
    if names.iter().any(|name| !required.contains(&name.as_str())) {
        return false;
    }
    ["properties", "$defs"]
        .iter()
        .filter_map(|key| object.get(*key).and_then(Json::as_object))
        .all(|children| children.values().all(strict_compatible))
        && object.get("items").is_none_or(strict_compatible)
}
