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

/// Where the JSON text `text` first nests arrays and objects deeper than
/// `limit` (the byte offset of the bracket that goes past it): a scan that skips strings (with their escapes), run before a
/// parse, so that a reader refuses a hostile nesting without the parser
/// walking it (a value the reader ignores is still parsed to its end, and
/// `serde_json` parses without a limit where `unbounded_depth` is on).
///
/// ```
/// assert_eq!(skills_core::json_nests_deeper_than(br#"{"a": ["[[["]}"#, 2), None);
/// assert_eq!(skills_core::json_nests_deeper_than(b"[[[1]]]", 2), Some(2));
/// ```
pub fn json_nests_deeper_than(text: &[u8], limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, &byte) in text.iter().enumerate() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(at);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}
