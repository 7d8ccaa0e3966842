//! A tool's parameters as the runtime's flat schema table: what `lower`
//! stores and what validation checks each `default` with, so both use the
//! same nodes.

use std::borrow::Cow;
use std::collections::BTreeMap;

use skills_core::{Checks, Node, Property, Schema};

use skills_core::{List, Str};

use super::skill::{DefId, ObjectType, Parameters, Type, texts};

/// One type alone as a schema (node 0), for checking a value against it
/// with the runtime's checker: how a `default` is checked at build time.
/// The type holds no `$ref` (defaults are refused on references first).
pub(crate) fn value_schema(ty: &Type) -> Schema {
    let parameters = Parameters::empty();
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
pub(crate) fn schema(parameters: &Parameters) -> Schema {
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
    parameters: &'a Parameters,
    nodes: Vec<Option<Node>>,
    /// The node of each `$defs` entry lowered so far.
    defs: BTreeMap<DefId, u32>,
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
        if let Type::Ref(id) = ty {
            return self.def(*id);
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
            Type::Enum(values) => Node::Enum(texts(values.clone())),
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
            Type::Ref(id) => {
                let target = self.def(*id) as usize;
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
    fn def(&mut self, id: DefId) -> u32 {
        if let Some(index) = self.defs.get(&id) {
            return *index;
        }
        let ty = self.parameters.def(id);
        if let Type::Ref(target) = ty {
            // An alias: the same node as its target. Validation refuses pure
            // cycles; were one here, it would end at the root's node.
            self.defs.insert(id, 0);
            let index = self.def(*target);
            self.defs.insert(id, index);
            return index;
        }
        let index = self.reserve();
        self.defs.insert(id, index);
        self.fill(index, ty);
        index
    }

    fn object(&mut self, object: &ObjectType) -> Node {
        let properties = object
            .properties
            .iter()
            .map(|property| Property {
                name: Str::Owned(property.name.clone()),
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
        Cow::Owned(checks.clone())
    }
}
