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
    let variants = calls.iter().enumerate().map(|(index, call)| {
        let doc = format!(
            " `{}`: {}",
            call.tool.name(),
            call.tool.description().lines().next().unwrap_or("")
        );
        let (variant, args, name) = (&call.variant, &call.args, call.tool.name());
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        quote!(#[doc = #doc] #variant(#args) = #index #name,)
    });
    // What varies per skill, and only that: the enum's items are the
    // runtime's `tool_call!`, the rest is `TypedCall`'s.
    quote! {
        __p::tool_call! {
            #(#variants)*
        }
    }
}
