//! How generated code embeds a file: `include_bytes!`/`include_str!` of the
//! file through `CARGO_MANIFEST_DIR`, or of its checked copy in `OUT_DIR`.

use proc_macro2::TokenStream;
use quote::quote;

/// `include_bytes!` of `path` (relative to the crate root) through
/// `CARGO_MANIFEST_DIR`, so that the text is the same from any checkout.
pub(super) fn included(path: &str) -> TokenStream {
    include(quote!(include_bytes), path)
}

/// `include_str!` of `path`, the same way.
pub(super) fn included_text(path: &str) -> TokenStream {
    include(quote!(include_str), path)
}

/// `include_bytes!` (or `include_str!`) of the copy `name` that
/// `snapshot::copy_into` wrote to `OUT_DIR`.
pub(super) fn included_copy(which: proc_macro2::Ident, name: &str) -> TokenStream {
    let relative = format!("/{}/{name}", crate::emit::snapshot::FOLDER);
    quote!(::core::#which!(::core::concat!(::core::env!("OUT_DIR"), #relative)))
}

fn include(which: TokenStream, path: &str) -> TokenStream {
    // An absolute root is refused (S511) before code is used; its stub
    // must still name files that exist, so as not to add errors.
    if std::path::Path::new(path).is_absolute() {
        return quote!(::core::#which!(#path));
    }
    let relative = format!("/{path}");
    quote!(::core::#which!(::core::concat!(
        ::core::env!("CARGO_MANIFEST_DIR"),
        #relative
    )))
}
