//! Rust types from a tool's parameter schema: one struct per object, one enum
//! per string enum, `Vec`, `BTreeMap`, `Option` and `Box` where they belong,
//! each with the small `FromJson`/`ToJson` impls that fill it from checked
//! JSON and turn it back. Checking is not generated: the runtime's checker
//! interprets the schema table (see `tables`), so these impls only read.

use std::collections::BTreeSet;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::names::{Namespace, ident};
use crate::ir::{ObjectType, Parameters, Property, Tool, Type};

/// The arguments struct of one tool and every type it needs.
pub(super) struct Args {
    pub ident: Ident,
    pub items: Vec<TokenStream>,
}

/// The generated items refer to the runtime's private module as `__p`, which
/// each skill module imports.
pub(super) fn args(tool: &Tool, types: &mut Namespace) -> Args {
    let tool_pascal = types.pascal(&format!("{}_args", tool.name()), "Args");
    let prefix = tool_pascal
        .strip_suffix("Args")
        .unwrap_or(&tool_pascal)
        .to_owned();
    let mut generator = Generator {
        types,
        items: Vec::new(),
        defs: Vec::new(),
        recursive: recursive_defs(&tool.parameters),
    };
    // Name every `$defs` entry first so references can point at them.
    for (name, _) in &tool.parameters.defs {
        let type_name = generator.types.pascal(&format!("{prefix}_{name}"), "Def");
        generator.defs.push(format_ident!("{}", type_name));
    }
    for (index, (name, ty)) in tool.parameters.defs.iter().enumerate() {
        let type_ident = generator.defs[index].clone();
        let recursive = generator.recursive.contains(&index);
        generator.named(&type_ident, ty, &format!("{prefix}_{name}"), recursive);
    }
    let ident = format_ident!("{}", tool_pascal);
    generator.object(&ident, &tool.parameters.root, tool.description(), &prefix);
    Args {
        ident,
        items: generator.items,
    }
}

struct Generator<'a> {
    types: &'a mut Namespace,
    items: Vec<TokenStream>,
    /// The type of each `$defs` entry, by [`DefId`](crate::ir::DefId).
    defs: Vec<Ident>,
    /// The entries that reach themselves, by index.
    recursive: BTreeSet<usize>,
}

impl Generator<'_> {
    /// A `$defs` entry: a struct or enum of that name; a newtype when it
    /// reaches itself (a type alias cannot), else an alias.
    fn named(&mut self, name: &Ident, ty: &Type, hint: &str, recursive: bool) {
        match ty {
            Type::Object(object) => {
                self.object(
                    name,
                    object,
                    object.description.as_deref().unwrap_or(""),
                    hint,
                );
            }
            Type::Enum(values) => self.enumeration(name, values),
            other if recursive => {
                let target = self.rust_type(other, hint, false);
                self.items.push(quote! {
                    #[derive(__p::Debug, __p::Clone, __p::PartialEq)]
                    pub struct #name(pub #target);

                    impl __p::FromJson for #name {
                        fn from_json(value: &__p::serde_json::Value) -> __p::Option<Self> {
                            __p::Option::map(__p::FromJson::from_json(value), #name)
                        }
                    }

                    impl __p::ToJson for #name {
                        fn to_json(&self) -> __p::serde_json::Value {
                            __p::ToJson::to_json(&self.0)
                        }
                    }
                });
            }
            other => {
                let target = self.rust_type(other, hint, false);
                self.items.push(quote!(pub type #name = #target;));
            }
        }
    }

    /// A struct for `object`, with its conversions: one invocation of the
    /// runtime's `args!`, which writes the struct and both impls.
    fn object(&mut self, name: &Ident, object: &ObjectType, description: &str, hint: &str) {
        let mut field_names = Namespace::default();
        let mut fields = Vec::new();
        for property in &object.properties {
            let field = ident(&field_names.snake(&property.name, "field"));
            let property_hint = format!("{hint}_{}", property.name);
            let json = &property.name;
            let ty = self.rust_type(&property.ty, &property_hint, false);
            // Required and defaulted members are always in checked JSON.
            let (ty, kind) = if property.required || property.default.is_some() {
                (ty, quote!(always))
            } else {
                (quote!(__p::Option<#ty>), quote!(maybe))
            };
            let doc = doc(&property_doc(property));
            fields.push(quote!(#doc #field: [#ty] = #kind #json,));
        }
        let rest = object.additional_properties.then(|| {
            let extra = ident(&field_names.snake("additional_properties", "additional_properties"));
            let declared = object.properties.iter().map(|p| p.name.as_str());
            quote!(rest #extra [#(#declared),*])
        });
        let doc = doc(description);
        self.items.push(quote! {
            __p::args! {
                #doc
                #name {
                    #(#fields)*
                }
                #rest
            }
        });
    }

    /// The Rust type of `ty`. `indirect` is true inside a `Vec` or map, where
    /// a recursive reference needs no `Box`.
    fn rust_type(&mut self, ty: &Type, hint: &str, indirect: bool) -> TokenStream {
        match ty {
            Type::String(_) => quote!(__p::String),
            Type::Integer(_) => quote!(i64),
            Type::Number(_) => quote!(f64),
            Type::Boolean => quote!(bool),
            Type::Enum(values) => {
                let name = format_ident!("{}", self.types.pascal(hint, "Value"));
                self.enumeration(&name, values);
                quote!(#name)
            }
            Type::Array(inner, _) => {
                let inner = self.rust_type(inner, &format!("{hint}_item"), true);
                quote!(__p::Vec<#inner>)
            }
            Type::Map(inner, _) => {
                let inner = self.rust_type(inner, &format!("{hint}_value"), true);
                quote!(__p::BTreeMap<__p::String, #inner>)
            }
            Type::Nullable(inner) => {
                let inner = self.rust_type(inner, hint, indirect);
                quote!(__p::Option<#inner>)
            }
            Type::Object(object) => {
                let name = format_ident!("{}", self.types.pascal(hint, "Object"));
                self.object(
                    &name,
                    object,
                    object.description.as_deref().unwrap_or(""),
                    hint,
                );
                quote!(#name)
            }
            Type::Ref(id) => {
                let name = &self.defs[id.index()];
                if self.recursive.contains(&id.index()) && !indirect {
                    quote!(__p::Box<#name>)
                } else {
                    quote!(#name)
                }
            }
        }
    }

    fn enumeration(&mut self, name: &Ident, values: &[String]) {
        let mut variants = Namespace::default();
        let idents: Vec<Ident> = values
            .iter()
            .map(|v| format_ident!("{}", variants.pascal(v, "Value")))
            .collect();
        let docs: Vec<String> = values.iter().map(|v| format!(" `{v:?}`")).collect();
        // The runtime's `string_enum!` writes the enum and its impls.
        self.items.push(quote! {
            __p::string_enum! {
                #name { #( #[doc = #docs] #idents = #values, )* }
            }
        });
    }
}

/// A field's doc: its description and its default.
fn property_doc(property: &Property) -> String {
    let mut doc = property.description.clone().unwrap_or_default();
    if let Some(default) = &property.default {
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(&format!("Default: `{default}`."));
    }
    doc
}

fn doc(text: &str) -> TokenStream {
    let lines: Vec<String> = text.lines().map(|line| format!(" {line}")).collect();
    quote!(#(#[doc = #lines])*)
}

/// `$defs` entries that reach themselves through references, by index.
fn recursive_defs(parameters: &Parameters) -> BTreeSet<usize> {
    let edges: Vec<BTreeSet<usize>> = parameters
        .defs
        .iter()
        .map(|(_, ty)| references(ty))
        .collect();
    (0..edges.len())
        .filter(|&start| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<usize> = edges[start].iter().copied().collect();
            while let Some(next) = stack.pop() {
                if next == start {
                    return true;
                }
                if seen.insert(next) {
                    stack.extend(edges.get(next).into_iter().flatten().copied());
                }
            }
            false
        })
        .collect()
}

fn references(ty: &Type) -> BTreeSet<usize> {
    match ty {
        Type::Ref(id) => BTreeSet::from([id.index()]),
        Type::Array(inner, _) | Type::Map(inner, _) | Type::Nullable(inner) => references(inner),
        Type::Object(object) => object
            .properties
            .iter()
            .flat_map(|p| references(&p.ty))
            .collect(),
        Type::String(_) | Type::Integer(_) | Type::Number(_) | Type::Boolean | Type::Enum(_) => {
            BTreeSet::new()
        }
    }
}
