//! The `ToolCall` enum of a skill: a checked call with typed arguments. All
//! checking and request building is the runtime's (`skills::TypedCall`,
//! from the skill's tables); the enum only picks the variant and converts.

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
    let (index_body, arguments_body) = if calls.is_empty() {
        (quote!(match *self {}), quote!(match *self {}))
    } else {
        (
            quote!(match self { #(ToolCall::#variants(_) => #indices,)* }),
            quote!(match self { #(ToolCall::#variants(a) => __p::ToJson::to_json(a),)* }),
        )
    };
    // What varies per skill, and only that: the rest is `TypedCall`'s.
    quote! {
        /// A call of one of this skill's tools, with typed arguments: parse
        /// one, and build its request, through `skills::TypedCall`.
        #[derive(__p::Debug, __p::Clone, __p::PartialEq)]
        pub enum ToolCall {
            #( #[doc = #doc_variants] #variants(#args), )*
        }

        impl ToolCall {
            /// The names of this skill's tools.
            pub const NAMES: &'static [&'static str] = &[#(#names),*];
        }

        impl __p::TypedCall for ToolCall {
            const SKILL: &'static __p::CompiledSkill = SKILL;
            fn from_call(call: __p::Call<'static>) -> __p::Result<Self, __p::ToolCallError> {
                match call.name() {
                    #( #names => __p::decode(call).map(ToolCall::#variants), )*
                    other => __p::unknown_tool(other),
                }
            }
            fn index(&self) -> usize {
                #index_body
            }
            fn arguments(&self) -> __p::serde_json::Value {
                #arguments_body
            }
        }
    }
}
