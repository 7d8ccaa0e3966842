//! Rust types from a tool's parameter schema: one struct per object, one enum
//! per string enum, `Vec`, `BTreeMap`, `Option` and `Box` where they belong.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::names::{Namespace, ident};
use crate::ir::{ObjectType, Parameters, Property, Tool, Type};

/// A field of the arguments struct, as request building needs to know it.
pub struct Field {
    /// The JSON name.
    pub json: String,
    pub ident: Ident,
    /// The Rust type is `Option<_>` (optional without default, or nullable).
    pub wrapped: bool,
}

/// The arguments struct of one tool and every type it needs.
pub struct Args {
    pub ident: Ident,
    pub fields: Vec<Field>,
    pub items: Vec<TokenStream>,
}

pub fn args(tool: &Tool, types: &mut Namespace, krate: &TokenStream) -> Args {
    let tool_pascal = types.pascal(&format!("{}_args", tool.name), "Args");
    let prefix = tool_pascal
        .strip_suffix("Args")
        .unwrap_or(&tool_pascal)
        .to_owned();
    let mut generator = Generator {
        krate,
        types,
        items: Vec::new(),
        defs: BTreeMap::new(),
        recursive: recursive_defs(&tool.parameters),
        prefix: prefix.clone(),
        enums: BTreeMap::new(),
    };
    // Name every `$defs` entry first so references can point at them.
    for (name, _) in &tool.parameters.defs {
        let type_name = generator.types.pascal(&format!("{prefix}_{name}"), "Def");
        generator
            .defs
            .insert(name.clone(), format_ident!("{}", type_name));
    }
    for (name, ty) in &tool.parameters.defs {
        let type_ident = generator.defs[name].clone();
        generator.named(&type_ident, ty, &format!("{prefix}_{name}"));
    }
    let ident = format_ident!("{}", tool_pascal);
    let fields = generator.object(&ident, &tool.parameters.root, &tool.description, &prefix);
    Args {
        ident,
        fields,
        items: generator.items,
    }
}

struct Generator<'a> {
    krate: &'a TokenStream,
    types: &'a mut Namespace,
    items: Vec<TokenStream>,
    defs: BTreeMap<String, Ident>,
    recursive: BTreeSet<String>,
    prefix: String,
    /// The enum generated for each hint, for defaults that name a variant.
    enums: BTreeMap<String, Ident>,
}

impl Generator<'_> {
    /// A `$defs` entry: a struct or enum of that name, or an alias.
    fn named(&mut self, name: &Ident, ty: &Type, hint: &str) {
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
            other => {
                let target = self.rust_type(other, hint, false);
                self.items.push(quote!(pub type #name = #target;));
            }
        }
    }

    /// A struct for `object`; returns its fields.
    fn object(
        &mut self,
        name: &Ident,
        object: &ObjectType,
        description: &str,
        hint: &str,
    ) -> Vec<Field> {
        let mut field_names = Namespace::default();
        let mut fields = Vec::new();
        let mut tokens = Vec::new();
        for property in &object.properties {
            let snake = field_names.snake(&property.name, "field");
            let field_ident = ident(&snake);
            let property_hint = format!("{hint}_{}", property.name);
            let (field_tokens, wrapped) =
                self.field(&field_ident, &snake, property, &property_hint);
            tokens.push(field_tokens);
            fields.push(Field {
                json: property.name.clone(),
                ident: field_ident,
                wrapped,
            });
        }
        let krate = self.krate;
        let serde_attrs = if object.additional_properties {
            let extra = ident(&field_names.snake("additional_properties", "additional_properties"));
            tokens.push(quote! {
                /// Properties beyond the declared ones (`additionalProperties: true`).
                #[serde(flatten)]
                pub #extra: ::std::collections::BTreeMap<::std::string::String, #krate::__private::serde_json::Value>,
            });
            quote!(#[serde(crate = "self::__serde")])
        } else {
            quote!(#[serde(crate = "self::__serde", deny_unknown_fields)])
        };
        let doc = doc(description);
        self.items.push(quote! {
            #doc
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq, __serde::Deserialize, __serde::Serialize)]
            #serde_attrs
            pub struct #name {
                #(#tokens)*
            }
        });
        fields
    }

    fn field(
        &mut self,
        field_ident: &Ident,
        snake: &str,
        property: &Property,
        hint: &str,
    ) -> (TokenStream, bool) {
        let doc = doc(property.description.as_deref().unwrap_or(""));
        let rename = (snake != property.name).then(|| {
            let json = &property.name;
            quote!(#[serde(rename = #json)])
        });
        let nullable = matches!(property.ty, Type::Nullable(_));
        let default = (!property.required)
            .then_some(property.default.as_ref())
            .flatten();
        let ty = self.rust_type(&property.ty, hint, false);
        let (ty, attrs, wrapped) = match default {
            Some(value) => {
                let function = format_ident!("__default_{}", self.types.snake(hint, "default"));
                let expression = self.default_value(&property.ty, value, hint);
                let name = function.to_string();
                self.items.push(quote! {
                    fn #function() -> #ty {
                        #expression
                    }
                });
                (ty, quote!(#[serde(default = #name)]), nullable)
            }
            None if !property.required && !nullable => (
                quote!(::core::option::Option<#ty>),
                quote!(#[serde(default, skip_serializing_if = "::core::option::Option::is_none")]),
                true,
            ),
            // Optional and nullable: absent and null both read as `None`.
            None if !property.required => (ty, quote!(#[serde(default)]), true),
            None => (ty, quote!(), nullable),
        };
        (
            quote! {
                #doc
                #rename
                #attrs
                pub #field_ident: #ty,
            },
            wrapped,
        )
    }

    /// The Rust type of `ty`. `indirect` is true inside a `Vec` or map, where
    /// a recursive reference needs no `Box`.
    fn rust_type(&mut self, ty: &Type, hint: &str, indirect: bool) -> TokenStream {
        match ty {
            Type::String => quote!(::std::string::String),
            Type::Integer => quote!(i64),
            Type::Number => quote!(f64),
            Type::Boolean => quote!(bool),
            Type::Enum(values) => {
                let name = format_ident!("{}", self.types.pascal(hint, "Value"));
                self.enumeration(&name, values);
                self.enums.insert(hint.to_owned(), name.clone());
                quote!(#name)
            }
            Type::Array(inner) => {
                let inner = self.rust_type(inner, &format!("{hint}_item"), true);
                quote!(::std::vec::Vec<#inner>)
            }
            Type::Map(inner) => {
                let inner = self.rust_type(inner, &format!("{hint}_value"), true);
                quote!(::std::collections::BTreeMap<::std::string::String, #inner>)
            }
            Type::Nullable(inner) => {
                let inner = self.rust_type(inner, hint, indirect);
                quote!(::core::option::Option<#inner>)
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
            Type::Ref(def) => {
                let name = self
                    .defs
                    .get(def)
                    .cloned()
                    .unwrap_or_else(|| format_ident!("{}", self.prefix));
                if self.recursive.contains(def) && !indirect {
                    quote!(::std::boxed::Box<#name>)
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
        let krate = self.krate;
        self.items.push(quote! {
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq, ::core::cmp::Eq,
                     ::core::hash::Hash, ::core::cmp::PartialOrd, ::core::cmp::Ord, __serde::Deserialize, __serde::Serialize)]
            #[serde(crate = "self::__serde")]
            pub enum #name {
                #( #[serde(rename = #values)] #idents, )*
            }

            impl #name {
                /// Every value, in declaration order.
                pub const ALL: &'static [#name] = &[#(#name::#idents),*];

                /// The value as the schema spells it.
                pub fn as_str(self) -> &'static str {
                    match self {
                        #( #name::#idents => #values, )*
                    }
                }
            }

            impl #krate::__private::Param for #name {
                fn write_text(&self, out: &mut ::std::string::String) {
                    out.push_str(self.as_str());
                }
            }
        });
    }

    /// A default value as a Rust expression; validation has checked that it fits the type.
    fn default_value(&mut self, ty: &Type, value: &serde_json::Value, hint: &str) -> TokenStream {
        use serde_json::Value as Json;
        match (ty, value) {
            (Type::Nullable(_), Json::Null) => quote!(::core::option::Option::None),
            (Type::Nullable(inner), value) => {
                let inner = self.default_value(inner, value, hint);
                quote!(::core::option::Option::Some(#inner))
            }
            (Type::String, Json::String(s)) => quote!(::std::borrow::ToOwned::to_owned(#s)),
            (Type::Integer, Json::Number(n)) => {
                let n = n.as_i64().unwrap_or_default();
                quote!(#n)
            }
            (Type::Number, Json::Number(n)) => {
                let n = n.as_f64().unwrap_or_default();
                quote!(#n)
            }
            (Type::Boolean, Json::Bool(b)) => quote!(#b),
            (Type::Enum(values), Json::String(s)) if self.enums.contains_key(hint) => {
                // Variant names are handed out in declaration order, as in `enumeration`.
                let mut variants = Namespace::default();
                let names: Vec<String> =
                    values.iter().map(|v| variants.pascal(v, "Value")).collect();
                let position = values.iter().position(|v| v == s).unwrap_or_default();
                let name = &self.enums[hint];
                let variant = format_ident!("{}", names[position]);
                quote!(#name::#variant)
            }
            (Type::Array(inner), Json::Array(items)) => {
                let items: Vec<TokenStream> = items
                    .iter()
                    .map(|item| self.default_value(inner, item, &format!("{hint}_item")))
                    .collect();
                quote!(::std::vec![#(#items),*])
            }
            // Validation accepts defaults only of the shapes above.
            _ => quote!(::core::default::Default::default()),
        }
    }
}

fn doc(text: &str) -> TokenStream {
    let lines: Vec<String> = text.lines().map(|line| format!(" {line}")).collect();
    quote!(#(#[doc = #lines])*)
}

/// `$defs` entries that reach themselves through references.
fn recursive_defs(parameters: &Parameters) -> BTreeSet<String> {
    let edges: BTreeMap<&str, BTreeSet<&str>> = parameters
        .defs
        .iter()
        .map(|(name, ty)| (name.as_str(), references(ty)))
        .collect();
    edges
        .keys()
        .filter(|start| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<&str> = edges[*start].iter().copied().collect();
            while let Some(next) = stack.pop() {
                if next == **start {
                    return true;
                }
                if seen.insert(next) {
                    stack.extend(edges.get(next).into_iter().flatten().copied());
                }
            }
            false
        })
        .map(|name| (*name).to_owned())
        .collect()
}

fn references(ty: &Type) -> BTreeSet<&str> {
    match ty {
        Type::Ref(name) => BTreeSet::from([name.as_str()]),
        Type::Array(inner) | Type::Map(inner) | Type::Nullable(inner) => references(inner),
        Type::Object(object) => object
            .properties
            .iter()
            .flat_map(|p| references(&p.ty))
            .collect(),
        Type::String | Type::Integer | Type::Number | Type::Boolean | Type::Enum(_) => {
            BTreeSet::new()
        }
    }
}
