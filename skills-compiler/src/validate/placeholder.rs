//! Whether a text is a placeholder: validation refuses one as a tool's
//! description, and the lints warn on one as a skill's.

/// Whether `text` is a placeholder: `TODO`, `TBD` or `FIXME` first, the
/// sentence `cargo skills new` writes, or the `Replace with ...` of
/// Anthropic's skill template.
pub(crate) fn is_placeholder(text: &str) -> bool {
    let text = text.trim_start();
    let marker = ["TODO", "TBD", "FIXME"].iter().any(|marker| {
        text.get(..marker.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(marker))
            && !text[marker.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    });
    marker
        || (text.starts_with("say what ") && text.contains("when a model should use it"))
        || text.starts_with("Replace with description")
}
