//! The IR lowered to the runtime's own tables (`skills_core`): the one place
//! that decides what a compiled or loaded skill holds. Code generation prints
//! these values as `static`s; the run-time loader (`skills`, feature
//! `loader`) hands them over as they are. Neither adds a rule.

use std::borrow::Cow;
use std::collections::BTreeMap;

use skills_core::{Checks, Node, Property, Schema};

use crate::emit::ir::{self, List, Str, Type};
use crate::emit::present;

/// Lowers a valid skill.
pub fn skill(skill: &ir::Skill) -> skills_core::Skill {
    let rendered = present::rendered(skill);
    // The body ends the rendered text; it is stored there only.
    let body_start = rendered.len() - skill.body.len();
    skills_core::Skill {
        name: text(skill.name.as_str()),
        description: text(&skill.description),
        path: text(&skill.path),
        rendered: Str::Owned(rendered),
        body_start,
        head: text(&skill.head),
        kind: skill.kind.clone(),
        version: skill.version.clone(),
        license: skill.license.as_deref().map(text),
        compatibility: skill.compatibility.as_deref().map(text),
        metadata: pairs(&skill.metadata),
        allowed_tools: ir::texts(skill.allowed_tools.clone()),
        triggers: ir::texts(skill.triggers.clone()),
        tags: ir::texts(skill.tags.clone()),
        area: skill.area.as_deref().map(text),
        app_slug: skill.app_slug.as_deref().map(text),
        model_config: skill.model_config.as_deref().map(text),
        extras: List::Owned(
            skill
                .extras
                .iter()
                .map(|(key, value)| (text(key), Str::Owned(value.to_string())))
                .collect(),
        ),
        sections: List::Owned(skill.sections()),
        tools: List::Owned(skill.tools.iter().map(tool).collect()),
        sha256_hex: Str::Owned(skill.sha256_hex()),
        catalog_line: Str::Owned(present::catalog_line(skill)),
        catalog_xml: Str::Owned(present::catalog_xml_element(skill)),
    }
}

fn text(text: &str) -> Str {
    Str::Owned(text.to_owned())
}

fn pairs(pairs: &[(String, String)]) -> List<(Str, Str)> {
    List::Owned(pairs.iter().map(|(k, v)| (text(k), text(v))).collect())
}

fn tool(tool: &ir::Tool) -> skills_core::Tool {
    skills_core::Tool {
        name: text(tool.name.as_str()),
        description: text(&tool.description),
        policy: tool.policy,
        hints: tool.hints(),
        endpoint: tool.endpoint.clone(),
        schema: schema(&tool.parameters),
        parameters_json: Str::Owned(tool.parameters_json.to_string()),
        strict: tool.strict,
    }
}

/// One type alone as a schema (node 0), for checking a value against it
/// with the runtime's checker: how a `default` is checked at build time.
/// The type holds no `$ref` (defaults are refused on references first).
pub fn value_schema(ty: &Type) -> Schema {
    let parameters = ir::Parameters::empty();
    let mut table = Table {
        parameters: &parameters,
        nodes: Vec::new(),
        defs: BTreeMap::new(),
    };
    table.node(ty);
    table.finish()
}

/// A tool's parameters as a flat table: node 0 is the root object; each
/// `$defs` entry is lowered once and referred to by index, so recursion needs
/// no boxing.
fn schema(parameters: &ir::Parameters) -> Schema {
    let mut table = Table {
        parameters,
        nodes: vec![None],
        defs: BTreeMap::new(),
    };
    let root = table.object(&parameters.root);
    table.nodes[0] = Some(root);
    table.finish()
}

struct Table<'a> {
    parameters: &'a ir::Parameters,
    nodes: Vec<Option<Node>>,
    /// The node of each `$defs` entry lowered so far.
    defs: BTreeMap<String, u32>,
}

impl Table<'_> {
    fn finish(self) -> Schema {
        let nodes = self
            .nodes
            .into_iter()
            // Every reserved slot is filled before the table is read.
            .map(|node| node.unwrap_or(Node::Boolean))
            .collect();
        Schema {
            nodes: List::Owned(nodes),
        }
    }

    /// The index of the node for `ty`.
    fn node(&mut self, ty: &Type) -> u32 {
        if let Type::Ref(name) = ty {
            return self.def(name);
        }
        let index = self.reserve();
        self.fill(index, ty);
        index
    }

    fn fill(&mut self, index: u32, ty: &Type) {
        let node = match ty {
            Type::String(c) => Node::String(checks(c)),
            Type::Integer(c) => Node::Integer(checks(c)),
            Type::Number(c) => Node::Number(checks(c)),
            Type::Boolean => Node::Boolean,
            Type::Enum(values) => Node::Enum(ir::texts(values.clone())),
            Type::Array(items, c) => Node::Array {
                items: self.node(items),
                checks: checks(c),
            },
            Type::Map(values, c) => Node::Map {
                values: self.node(values),
                checks: checks(c),
            },
            Type::Nullable(inner) => Node::Nullable(self.node(inner)),
            Type::Object(object) => self.object(object),
            // `node` and `def` resolve references before filling; were one
            // to get here, the referenced node is the right meaning.
            Type::Ref(name) => {
                let target = self.def(name) as usize;
                match self.nodes.get(target).cloned().flatten() {
                    Some(node) => node,
                    None => return,
                }
            }
        };
        if let Some(slot) = self.nodes.get_mut(index as usize) {
            *slot = Some(node);
        }
    }

    fn reserve(&mut self) -> u32 {
        self.nodes.push(None);
        u32::try_from(self.nodes.len() - 1).unwrap_or(u32::MAX)
    }

    /// The node of a `$defs` entry, lowered once; recursion ends at the reservation.
    fn def(&mut self, name: &str) -> u32 {
        if let Some(index) = self.defs.get(name) {
            return *index;
        }
        let parameters = self.parameters;
        let Some((_, ty)) = parameters.defs.iter().find(|(def, _)| def == name) else {
            // Validation resolves every reference.
            return 0;
        };
        if let Type::Ref(target) = ty {
            // An alias: the same node as its target (validation refuses pure cycles).
            self.defs.insert(name.to_owned(), 0);
            let index = self.def(target);
            self.defs.insert(name.to_owned(), index);
            return index;
        }
        let index = self.reserve();
        self.defs.insert(name.to_owned(), index);
        self.fill(index, ty);
        index
    }

    fn object(&mut self, object: &ir::ObjectType) -> Node {
        let properties = object
            .properties
            .iter()
            .map(|property| Property {
                name: text(&property.name),
                node: self.node(&property.ty),
                required: property.required,
                default: property
                    .default
                    .as_ref()
                    .filter(|_| !property.required)
                    .map(|value| Str::Owned(value.to_string())),
            })
            .collect();
        Node::Object {
            properties: List::Owned(properties),
            additional: object.additional_properties,
            checks: checks(&object.checks),
        }
    }
}

/// Most nodes have no checks: they share the one static `NONE`.
fn checks(checks: &Checks) -> Cow<'static, Checks> {
    if checks.is_empty() {
        Cow::Borrowed(&Checks::NONE)
    } else {
        Cow::Owned(*checks)
    }
}
