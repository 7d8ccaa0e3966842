//! The data of a tool as static tables the runtime interprets: its parameter
//! schema as a flat list of nodes (node 0 is the root; `$ref`s become
//! indices) and its endpoint template. Data is cheap to compile; code per
//! tool is not.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{
    BodyNode, Checks, Endpoint, Method, ObjectType, Parameters, Template, TemplatePart, Type,
};

/// `&[Node, ...]` for a tool's parameters.
pub fn schema(parameters: &Parameters) -> TokenStream {
    let mut table = Table {
        parameters,
        nodes: vec![None],
        defs: BTreeMap::new(),
    };
    let root = table.object(&parameters.root);
    table.nodes[0] = Some(root);
    let nodes = table.nodes.into_iter().map(|node| {
        // Every reserved slot is filled before the table is read.
        node.unwrap_or_else(|| quote!(__p::Node::Boolean))
    });
    quote!(&[#(#nodes),*])
}

struct Table<'a> {
    parameters: &'a Parameters,
    nodes: Vec<Option<TokenStream>>,
    /// The node of each `$defs` entry lowered so far.
    defs: BTreeMap<String, u32>,
}

impl Table<'_> {
    /// The index of a new node for `ty`.
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
            Type::String(checks) => {
                let checks = self::checks(checks);
                quote!(__p::Node::String(#checks))
            }
            Type::Integer(checks) => {
                let checks = self::checks(checks);
                quote!(__p::Node::Integer(#checks))
            }
            Type::Number(checks) => {
                let checks = self::checks(checks);
                quote!(__p::Node::Number(#checks))
            }
            Type::Boolean => quote!(__p::Node::Boolean),
            Type::Enum(values) => quote!(__p::Node::Enum(&[#(#values),*])),
            Type::Array(items, checks) => {
                let items = self.node(items);
                let checks = self::checks(checks);
                quote!(__p::Node::Array { items: #items, checks: #checks })
            }
            Type::Map(values, checks) => {
                let values = self.node(values);
                let checks = self::checks(checks);
                quote!(__p::Node::Map { values: #values, checks: #checks })
            }
            Type::Nullable(inner) => {
                let inner = self.node(inner);
                quote!(__p::Node::Nullable(#inner))
            }
            Type::Object(object) => self.object(object),
            Type::Ref(_) => unreachable_ref(),
        };
        self.nodes[index as usize] = Some(node);
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
            let target = target.clone();
            self.defs.insert(name.to_owned(), 0);
            let index = self.def(&target);
            self.defs.insert(name.to_owned(), index);
            return index;
        }
        let index = self.reserve();
        self.defs.insert(name.to_owned(), index);
        self.fill(index, ty);
        index
    }

    fn object(&mut self, object: &ObjectType) -> TokenStream {
        let properties: Vec<TokenStream> = object
            .properties
            .iter()
            .map(|property| {
                let name = &property.name;
                let node = self.node(&property.ty);
                let required = property.required;
                let default = match property.default.as_ref().filter(|_| !required) {
                    Some(value) => {
                        let text = value.to_string();
                        quote!(::core::option::Option::Some(#text))
                    }
                    None => quote!(::core::option::Option::None),
                };
                quote!(__p::Property { name: #name, node: #node, required: #required, default: #default })
            })
            .collect();
        let additional = object.additional_properties;
        let checks = checks(&object.checks);
        quote!(__p::Node::Object { properties: &[#(#properties),*], additional: #additional, checks: #checks })
    }
}

fn unreachable_ref() -> TokenStream {
    quote!(::core::compile_error!(
        "skills: internal error: an unresolved reference"
    ))
}

fn checks(checks: &Checks) -> TokenStream {
    if checks.is_empty() {
        return quote!(&__p::Checks::NONE);
    }
    let mut fields = Vec::new();
    let floats = [
        ("minimum", checks.minimum),
        ("maximum", checks.maximum),
        ("exclusive_minimum", checks.exclusive_minimum),
        ("exclusive_maximum", checks.exclusive_maximum),
        ("multiple_of", checks.multiple_of),
    ];
    for (name, value) in floats {
        if let Some(value) = value {
            let name = quote::format_ident!("{name}");
            fields.push(quote!(#name: ::core::option::Option::Some(#value),));
        }
    }
    let counts = [
        ("min_length", checks.min_length),
        ("max_length", checks.max_length),
        ("min_items", checks.min_items),
        ("max_items", checks.max_items),
        ("min_properties", checks.min_properties),
        ("max_properties", checks.max_properties),
    ];
    for (name, value) in counts {
        if let Some(value) = value {
            let name = quote::format_ident!("{name}");
            fields.push(quote!(#name: ::core::option::Option::Some(#value),));
        }
    }
    if checks.unique_items {
        fields.push(quote!(unique_items: true,));
    }
    quote!(&__p::Checks { #(#fields)* ..__p::Checks::NONE })
}

/// `Endpoint { ... }` for a tool's endpoint.
pub fn endpoint(endpoint: &Endpoint, krate: &TokenStream) -> TokenStream {
    let method = method(endpoint.method, krate);
    let origin = &endpoint.origin;
    let url = display_url(endpoint);
    let path = parts(&endpoint.path);
    let pairs = |pairs: &[(String, Template)]| -> Vec<TokenStream> {
        pairs
            .iter()
            .map(|(name, template)| {
                let parts = parts(template);
                quote!((#name, #parts))
            })
            .collect()
    };
    let query = pairs(&endpoint.query);
    let headers = pairs(&endpoint.headers);
    let body = match &endpoint.body {
        Some(body) => {
            let root = json(&body.root);
            quote!(::core::option::Option::Some(&#root))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(#krate::Endpoint {
        method: #method,
        origin: #origin,
        url: #url,
        path: #path,
        query: &[#(#query),*],
        headers: &[#(#headers),*],
        body: #body,
    })
}

pub fn method(method: Method, krate: &TokenStream) -> TokenStream {
    let variant = quote::format_ident!(
        "{}",
        match method {
            Method::Get => "Get",
            Method::Head => "Head",
            Method::Options => "Options",
            Method::Post => "Post",
            Method::Put => "Put",
            Method::Patch => "Patch",
            Method::Delete => "Delete",
        }
    );
    quote!(#krate::Method::#variant)
}

fn parts(template: &Template) -> TokenStream {
    let parts = template.parts.iter().map(|part| match part {
        TemplatePart::Literal(text) => quote!(__p::Part::Text(#text)),
        TemplatePart::Param(name) => quote!(__p::Part::Param(#name)),
    });
    quote!(&[#(#parts),*])
}

fn json(node: &BodyNode) -> TokenStream {
    match node {
        BodyNode::Text(text) => quote!(__p::Json::Text(#text)),
        BodyNode::Value(name) => quote!(__p::Json::Param(#name)),
        BodyNode::String(parts) => {
            let parts = self::parts(&Template {
                parts: parts.clone(),
            });
            quote!(__p::Json::String(#parts))
        }
        BodyNode::Object(members) => {
            let members = members.iter().map(|(key, value)| {
                let value = json(value);
                quote!((#key, #value))
            });
            quote!(__p::Json::Object(&[#(#members),*]))
        }
        BodyNode::Array(items) => {
            let items = items.iter().map(json);
            quote!(__p::Json::Array(&[#(#items),*]))
        }
    }
}

/// The URL template as the skill wrote it: origin, path and query.
fn display_url(endpoint: &Endpoint) -> String {
    let mut url = endpoint.origin.clone();
    url.push_str(&template_text(&endpoint.path));
    for (i, (name, value)) in endpoint.query.iter().enumerate() {
        url.push(if i == 0 { '?' } else { '&' });
        url.push_str(name);
        url.push('=');
        url.push_str(&template_text(value));
    }
    url
}

fn template_text(template: &Template) -> String {
    template
        .parts
        .iter()
        .map(|part| match part {
            TemplatePart::Literal(text) => text.clone(),
            TemplatePart::Param(name) => format!("{{{{{name}}}}}"),
        })
        .collect()
}
