//! The IR lowered to the runtime's tables, as plain data: the one place that
//! decides what a compiled or loaded skill holds. Code generation prints
//! these values as `static`s; the run-time loader (`skills`, feature
//! `loader`) moves them into the same runtime types. Neither adds a rule.

use std::collections::BTreeMap;

use crate::ir::{self, BodyNode, Checks, Hints, Kind, Method, Policy, Section, TemplatePart, Type};
use crate::present;

/// A skill as the runtime's `Skill` holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub path: String,
    /// What a model reads when it loads the skill; ends with the body.
    pub rendered: String,
    /// Where the body starts in `rendered`.
    pub body_start: usize,
    /// The file's text before the body: with the body, the file as read.
    pub head: String,
    pub kind: Kind,
    pub version: ir::Version,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: Vec<(String, String)>,
    pub allowed_tools: Vec<String>,
    pub triggers: Vec<String>,
    pub tags: Vec<String>,
    pub area: Option<String>,
    pub app_slug: Option<String>,
    pub model_config: Option<String>,
    /// Values as JSON text.
    pub extras: Vec<(String, String)>,
    pub sections: Vec<Section>,
    pub tools: Vec<Tool>,
    pub sha256_hex: String,
    pub catalog_line: String,
    pub catalog_xml: String,
}

/// A tool as the runtime's `Tool` holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    pub description: String,
    pub policy: Policy,
    pub hints: Hints,
    pub endpoint: Option<Endpoint>,
    /// The parameter schema as a flat table: node 0 is the root object,
    /// `$ref`s are indices.
    pub nodes: Vec<Node>,
    pub parameters_json: String,
    pub strict: bool,
}

/// An endpoint as the runtime's `Endpoint` holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub method: Method,
    pub origin: String,
    /// The URL template as the skill wrote it: origin, path and query.
    pub url: String,
    pub path: Vec<TemplatePart>,
    pub query: Vec<(String, Vec<TemplatePart>)>,
    pub headers: Vec<(String, Vec<TemplatePart>)>,
    pub body: Option<BodyNode>,
}

/// One node of a schema table, as the runtime's `Node`.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    String(Checks),
    Integer(Checks),
    Number(Checks),
    Boolean,
    Enum(Vec<String>),
    Array {
        items: u32,
        checks: Checks,
    },
    Map {
        values: u32,
        checks: Checks,
    },
    Object {
        properties: Vec<Property>,
        additional: bool,
        checks: Checks,
    },
    Nullable(u32),
}

/// A declared property, as the runtime's `Property`.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub node: u32,
    pub required: bool,
    /// JSON text; only for optional properties (a required one is always given).
    pub default: Option<String>,
}

/// Lowers a valid skill.
pub fn skill(skill: &ir::Skill) -> Skill {
    let rendered = present::rendered(skill);
    // The body ends the rendered text; it is stored there only.
    let body_start = rendered.len() - skill.body.len();
    Skill {
        name: skill.name.as_str().to_owned(),
        description: skill.description.clone(),
        path: skill.path.clone(),
        rendered,
        body_start,
        head: skill.head.clone(),
        kind: skill.kind.clone(),
        version: skill.version.clone(),
        license: skill.license.clone(),
        compatibility: skill.compatibility.clone(),
        metadata: skill.metadata.clone(),
        allowed_tools: skill.allowed_tools.clone(),
        triggers: skill.triggers.clone(),
        tags: skill.tags.clone(),
        area: skill.area.clone(),
        app_slug: skill.app_slug.clone(),
        model_config: skill.model_config.clone(),
        extras: skill
            .extras
            .iter()
            .map(|(key, value)| (key.clone(), value.to_string()))
            .collect(),
        sections: skill.sections(),
        tools: skill.tools.iter().map(tool).collect(),
        sha256_hex: skill.sha256_hex(),
        catalog_line: present::catalog_line(skill),
        catalog_xml: present::catalog_xml_element(skill),
    }
}

fn tool(tool: &ir::Tool) -> Tool {
    Tool {
        name: tool.name.as_str().to_owned(),
        description: tool.description.clone(),
        policy: tool.policy,
        hints: tool.hints(),
        endpoint: tool.endpoint.as_ref().map(endpoint),
        nodes: schema(&tool.parameters),
        parameters_json: tool.parameters_json.to_string(),
        strict: tool.strict,
    }
}

fn endpoint(endpoint: &ir::Endpoint) -> Endpoint {
    let pairs = |pairs: &[(String, ir::Template)]| {
        pairs
            .iter()
            .map(|(name, template)| (name.clone(), template.parts.clone()))
            .collect()
    };
    Endpoint {
        method: endpoint.method,
        origin: endpoint.origin.clone(),
        url: display_url(endpoint),
        path: endpoint.path.parts.clone(),
        query: pairs(&endpoint.query),
        headers: pairs(&endpoint.headers),
        body: endpoint.body.as_ref().map(|body| body.root.clone()),
    }
}

/// The URL template as the skill wrote it: origin, path and query.
fn display_url(endpoint: &ir::Endpoint) -> String {
    let mut url = endpoint.origin.clone();
    url.push_str(&endpoint.path.text());
    for (i, (name, value)) in endpoint.query.iter().enumerate() {
        url.push(if i == 0 { '?' } else { '&' });
        url.push_str(name);
        url.push('=');
        url.push_str(&value.text());
    }
    url
}

/// A tool's parameters as a flat table: node 0 is the root object; each
/// `$defs` entry is lowered once and referred to by index, so recursion needs
/// no boxing.
fn schema(parameters: &ir::Parameters) -> Vec<Node> {
    let mut table = Table {
        parameters,
        nodes: vec![None],
        defs: BTreeMap::new(),
    };
    let root = table.object(&parameters.root);
    table.nodes[0] = Some(root);
    table
        .nodes
        .into_iter()
        // Every reserved slot is filled before the table is read.
        .map(|node| node.unwrap_or(Node::Boolean))
        .collect()
}

struct Table<'a> {
    parameters: &'a ir::Parameters,
    nodes: Vec<Option<Node>>,
    /// The node of each `$defs` entry lowered so far.
    defs: BTreeMap<String, u32>,
}

impl Table<'_> {
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
            Type::String(checks) => Node::String(*checks),
            Type::Integer(checks) => Node::Integer(*checks),
            Type::Number(checks) => Node::Number(*checks),
            Type::Boolean => Node::Boolean,
            Type::Enum(values) => Node::Enum(values.clone()),
            Type::Array(items, checks) => Node::Array {
                items: self.node(items),
                checks: *checks,
            },
            Type::Map(values, checks) => Node::Map {
                values: self.node(values),
                checks: *checks,
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
                name: property.name.clone(),
                node: self.node(&property.ty),
                required: property.required,
                default: property
                    .default
                    .as_ref()
                    .filter(|_| !property.required)
                    .map(|value| value.to_string()),
            })
            .collect();
        Node::Object {
            properties,
            additional: object.additional_properties,
            checks: object.checks,
        }
    }
}
