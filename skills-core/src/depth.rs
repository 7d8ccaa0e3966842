//! How deep tool arguments may nest: the one limit that the checker
//! enforces and that the errors of every reader of arguments name.

/// Arguments nested deeper than this are refused rather than risking the
/// stack. It is below the 128 levels that `serde_json` parses, so that
/// arguments which arrive inside an envelope (a JSON-RPC request nests them
/// three levels down) meet this limit, and its message, before the parser's.
pub const MAX_DEPTH: usize = 64;

/// What the checker says of arguments nested deeper than [`MAX_DEPTH`].
pub(crate) fn too_deep() -> String {
    format!("nested more than {MAX_DEPTH} levels deep")
}
