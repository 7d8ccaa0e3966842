//! The `ToolCall` enum of a skill: a checked call with typed arguments. All
//! checking and request building is the runtime's, from the skill's tables;
//! the enum only picks the variant and converts.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::ir::Tool;

/// A tool with the names its generated code uses.
pub(super) struct Call<'a> {
    pub tool: &'a Tool,
    pub variant: Ident,
    pub args: Ident,
}

pub(super) fn tool_call(calls: &[Call<'_>]) -> TokenStream {
    let names: Vec<&str> = calls.iter().map(|c| c.tool.name.as_str()).collect();
    let variants: Vec<&Ident> = calls.iter().map(|c| &c.variant).collect();
    let args: Vec<&Ident> = calls.iter().map(|c| &c.args).collect();
    let indices: Vec<usize> = (0..calls.len()).collect();
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
    let (index_body, arguments_body, to_call_body) = if calls.is_empty() {
        (
            quote!(match *self {}),
            quote!(match *self {}),
            quote!(match *self {}),
        )
    } else {
        (
            quote!(match self { #(ToolCall::#variants(_) => #indices,)* }),
            quote!(match self { #(ToolCall::#variants(arguments) => __p::ToJson::to_json(arguments),)* }),
            quote!(match self { #(ToolCall::#variants(arguments) => __p::encode(&SKILL.tools[#indices], arguments),)* }),
        )
    };
    let result = quote!(__p::Result);
    quote! {
        /// A call of one of this skill's tools, with typed arguments.
        #[derive(__p::Debug, __p::Clone, __p::PartialEq)]
        pub enum ToolCall {
            #( #[doc = #doc_variants] #variants(#args), )*
        }

        impl ToolCall {
            /// The names of this skill's tools.
            pub const NAMES: &'static [&'static str] = &[#(#names),*];

            /// Turns a model's tool call (name and JSON arguments) into a typed value.
            /// Unknown fields, wrong types, missing required fields, bad enum values
            /// and broken bounds are errors that name the field by JSON path.
            pub fn parse(name: &str, arguments: &str) -> #result<ToolCall, __p::ToolCallError> {
                ToolCall::typed(SKILL.parse_call(name, arguments)?)
            }

            /// The same for arguments already parsed, as model APIs hand them over.
            pub fn parse_value(name: &str, arguments: &__p::serde_json::Value) -> #result<ToolCall, __p::ToolCallError> {
                ToolCall::typed(SKILL.parse_call_value(name, arguments)?)
            }

            fn typed(call: __p::Call<'static>) -> #result<ToolCall, __p::ToolCallError> {
                match call.name() {
                    #( #names => __p::decode(call).map(ToolCall::#variants), )*
                    other => #result::Err(__p::ToolCallError::UnknownTool {
                        name: __p::ToOwned::to_owned(other),
                        expected: __p::Vec::new(),
                    }),
                }
            }

            fn index(&self) -> usize {
                #index_body
            }

            /// The tool's name.
            pub fn name(&self) -> &'static str {
                self.tool().name()
            }

            /// The tool's static description.
            pub fn tool(&self) -> &'static __p::Tool {
                &SKILL.tools[self.index()]
            }

            /// What the runtime must do with this call, decided at build time.
            pub fn policy(&self) -> __p::Policy {
                self.tool().policy()
            }

            /// The arguments as the JSON the schema describes.
            pub fn arguments(&self) -> __p::serde_json::Value {
                #arguments_body
            }

            /// The untyped call, as `Tool::parse` gives it.
            pub fn to_call(&self) -> __p::Call<'static> {
                #to_call_body
            }

            /// The HTTP request this call stands for, to the origin the skill declares.
            pub fn request(&self) -> #result<__p::http::Request<__p::Vec<u8>>, __p::RequestError> {
                self.to_call().request()
            }

            /// The same request sent to another `scheme://host[:port]` (staging, tests).
            pub fn request_to(&self, origin: &str) -> #result<__p::http::Request<__p::Vec<u8>>, __p::RequestError> {
                self.to_call().request_to(origin)
            }
        }
    }
}
