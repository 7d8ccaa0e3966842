//! The `ToolCall` enum of a skill: parse a model's call into typed arguments,
//! report its policy, and build the HTTP request it stands for.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::types::{Args, Field};
use crate::ir::{BodyPart, Endpoint, Method, Policy, Template, TemplatePart, Tool};

/// A tool with the names its generated code uses.
pub struct Call<'a> {
    pub tool: &'a Tool,
    pub variant: Ident,
    pub args: &'a Args,
}

pub fn tool_call(calls: &[Call<'_>], krate: &TokenStream) -> TokenStream {
    let names: Vec<&str> = calls.iter().map(|c| c.tool.name.as_str()).collect();
    let variants: Vec<&Ident> = calls.iter().map(|c| &c.variant).collect();
    let args: Vec<&Ident> = calls.iter().map(|c| &c.args.ident).collect();
    let indices: Vec<usize> = (0..calls.len()).collect();
    let policies: Vec<TokenStream> = calls.iter().map(|c| policy(c.tool.policy, krate)).collect();
    let requests: Vec<TokenStream> = calls.iter().map(|c| request_arm(c, krate)).collect();
    let doc_variants: Vec<String> = calls
        .iter()
        .map(|c| {
            format!(
                " `{}`: {}",
                c.tool.name,
                c.tool.description.lines().next().unwrap_or("")
            )
        })
        .collect();
    // An enum without variants still needs its methods to type-check.
    let name_body = if calls.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(ToolCall::#variants(_) => #names,)* })
    };
    let tool_body = if calls.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(ToolCall::#variants(_) => &SKILL.tools[#indices],)* })
    };
    let policy_body = if calls.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(ToolCall::#variants(_) => #policies,)* })
    };
    let request_body = if calls.is_empty() {
        quote!({
            let _ = origin;
            match *self {}
        })
    } else {
        quote!(match self { #(#requests)* })
    };
    quote! {
        /// A call of one of this skill's tools, with typed arguments.
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
        pub enum ToolCall {
            #( #[doc = #doc_variants] #variants(#args), )*
        }

        impl ToolCall {
            /// The names of this skill's tools.
            pub const NAMES: &'static [&'static str] = &[#(#names),*];

            /// Turns a model's tool call (name and JSON arguments) into a typed value.
            /// Unknown fields, wrong types, missing required fields and bad enum
            /// values are errors that name the field by JSON path.
            pub fn parse(name: &str, json: &str) -> ::core::result::Result<ToolCall, #krate::ToolCallError> {
                match name {
                    #( #names => #krate::__private::parse_args::<#args>(#names, json).map(ToolCall::#variants), )*
                    _ => {
                        let _ = json;
                        ::core::result::Result::Err(#krate::ToolCallError::UnknownTool {
                            name: ::std::string::ToString::to_string(name),
                            expected: ToolCall::NAMES,
                        })
                    }
                }
            }

            /// The tool's name.
            pub fn name(&self) -> &'static str {
                #name_body
            }

            /// The tool's static description.
            pub fn tool(&self) -> &'static #krate::Tool {
                #tool_body
            }

            /// What the runtime must do with this call, decided at build time.
            pub fn policy(&self) -> #krate::Policy {
                #policy_body
            }

            /// The HTTP request this call stands for, to the origin the skill declares.
            pub fn request(&self) -> ::core::result::Result<#krate::http::Request<::std::vec::Vec<u8>>, #krate::RequestError> {
                self.request_to_origin(::core::option::Option::None)
            }

            /// The same request sent to another `scheme://host[:port]` (staging, tests).
            pub fn request_to(&self, origin: &str) -> ::core::result::Result<#krate::http::Request<::std::vec::Vec<u8>>, #krate::RequestError> {
                self.request_to_origin(::core::option::Option::Some(origin))
            }

            fn request_to_origin(&self, origin: ::core::option::Option<&str>) -> ::core::result::Result<#krate::http::Request<::std::vec::Vec<u8>>, #krate::RequestError> {
                #request_body
            }
        }
    }
}

pub fn policy(policy: Policy, krate: &TokenStream) -> TokenStream {
    match policy {
        Policy::Allow => quote!(#krate::Policy::Allow),
        Policy::Confirm => quote!(#krate::Policy::Confirm),
        Policy::Deny => quote!(#krate::Policy::Deny),
    }
}

pub fn method(method: Method, krate: &TokenStream) -> TokenStream {
    let variant = format_ident!(
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

fn request_arm(call: &Call<'_>, krate: &TokenStream) -> TokenStream {
    let variant = &call.variant;
    let name = call.tool.name.as_str();
    let Some(endpoint) = &call.tool.endpoint else {
        return quote! {
            ToolCall::#variant(_) => {
                let _ = origin;
                ::core::result::Result::Err(#krate::RequestError::NoEndpoint { tool: #name })
            }
        };
    };
    let body = request_body(call, endpoint, krate);
    quote! {
        ToolCall::#variant(args) => {
            let _ = &args;
            #body
        }
    }
}

fn request_body(call: &Call<'_>, endpoint: &Endpoint, krate: &TokenStream) -> TokenStream {
    let name = call.tool.name.as_str();
    let declared_origin = &endpoint.origin;
    let fields = &call.args.fields;
    let path = path_statements(&endpoint.path, fields, name, krate);
    let query: Vec<TokenStream> = endpoint
        .query
        .iter()
        .map(|(key, template)| {
            let value = template_text(template, fields, krate);
            with_params(template, fields, quote!(url.query(#key, &#value);))
        })
        .collect();
    let headers: Vec<TokenStream> = endpoint
        .headers
        .iter()
        .map(|(header, template)| {
            let value = template_text(template, fields, krate);
            with_params(
                template,
                fields,
                quote!(headers.push((#header, #krate::__private::header_value(#name, #header, &#value)?));),
            )
        })
        .collect();
    let body = match &endpoint.body {
        None => quote!(::core::option::Option::None),
        Some(template) => {
            let parts: Vec<TokenStream> = template
                .parts
                .iter()
                .map(|part| match part {
                    BodyPart::Literal(text) => quote!(body.literal(#text);),
                    BodyPart::Value(param) => {
                        let field = match field(fields, param) {
                            Ok(field) => field,
                            Err(error) => return error,
                        };
                        let ident = &field.ident;
                        quote!(body.value(&args.#ident);)
                    }
                    BodyPart::InString(param) => {
                        let field = match field(fields, param) {
                            Ok(field) => field,
                            Err(error) => return error,
                        };
                        let ident = &field.ident;
                        if field.wrapped {
                            quote!(if let ::core::option::Option::Some(value) = &args.#ident { body.in_string(value); })
                        } else {
                            quote!(body.in_string(&args.#ident);)
                        }
                    }
                })
                .collect();
            quote!({
                let mut body = #krate::__private::Body::new();
                #(#parts)*
                ::core::option::Option::Some(body.finish())
            })
        }
    };
    let method = method(endpoint.method, krate);
    let headers_binding = if headers.is_empty() {
        quote!(headers)
    } else {
        quote!(mut headers)
    };
    quote! {
        let origin = match origin {
            ::core::option::Option::Some(origin) => #krate::__private::origin(origin)?,
            ::core::option::Option::None => #declared_origin,
        };
        let mut url = #krate::__private::Url::new(origin);
        #path
        #(#query)*
        let #headers_binding: ::std::vec::Vec<(&'static str, #krate::http::HeaderValue)> = ::std::vec::Vec::new();
        #(#headers)*
        let body: ::core::option::Option<::std::vec::Vec<u8>> = #body;
        #krate::__private::request(#name, #method, url.finish(), headers, body)
    }
}

/// The field a placeholder names. Validation guarantees it exists; if the IR
/// were ever inconsistent, the expansion fails to compile instead of panicking.
fn field<'a>(fields: &'a [Field], name: &str) -> Result<&'a Field, TokenStream> {
    fields.iter().find(|f| f.json == name).ok_or_else(|| {
        let message = format!("skills: internal error: no field for placeholder `{name}`");
        quote!(::core::compile_error!(#message);)
    })
}

/// Path literals as written; each parameter percent-encoded inside its segment.
fn path_statements(
    template: &Template,
    fields: &[Field],
    tool: &str,
    krate: &TokenStream,
) -> TokenStream {
    let statements = template.parts.iter().map(|part| match part {
        TemplatePart::Literal(text) => quote!(url.literal(#text);),
        TemplatePart::Param(param) => {
            let field = match field(fields, param) {
                Ok(field) => field,
                Err(error) => return error,
            };
            let ident = &field.ident;
            let json = &field.json;
            if field.wrapped {
                quote! {
                    match &args.#ident {
                        ::core::option::Option::Some(value) => url.segment(value),
                        ::core::option::Option::None => {
                            return ::core::result::Result::Err(#krate::RequestError::MissingPathValue { tool: #tool, parameter: #json });
                        }
                    }
                }
            } else {
                quote!(url.segment(&args.#ident);)
            }
        }
    });
    quote!(#(#statements)*)
}

/// An expression building the text of `template` from bound parameters
/// (see [`with_params`]).
fn template_text(template: &Template, fields: &[Field], krate: &TokenStream) -> TokenStream {
    let parts = template.parts.iter().map(|part| match part {
        TemplatePart::Literal(text) => quote!(text.push_str(#text);),
        TemplatePart::Param(param) => match field(fields, param) {
            Ok(field) => {
                let binding = binding(field);
                quote!(#krate::__private::Param::write_text(#binding, &mut text);)
            }
            Err(error) => error,
        },
    });
    quote!({
        let mut text = ::std::string::String::new();
        #(#parts)*
        text
    })
}

fn binding(field: &Field) -> Ident {
    format_ident!(
        "__param_{}",
        field.ident.to_string().trim_start_matches("r#")
    )
}

/// Binds each parameter of `template`; an absent optional parameter skips
/// `statement` (the query pair or header is left out).
fn with_params(template: &Template, fields: &[Field], statement: TokenStream) -> TokenStream {
    let mut names: Vec<&str> = template.params().collect();
    names.dedup();
    names.iter().rev().fold(statement, |inner, param| {
        let field = match field(fields, param) {
            Ok(field) => field,
            Err(error) => return error,
        };
        let ident = &field.ident;
        let binding = binding(field);
        if field.wrapped {
            quote!(if let ::core::option::Option::Some(#binding) = &args.#ident { #inner })
        } else {
            quote!({ let #binding = &args.#ident; #inner })
        }
    })
}
