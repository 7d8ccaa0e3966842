//! What each host does with one description over the specification's
//! 1,024 characters, from the same figures the budget models use: the
//! text of S108, so that the warning says what will happen, host by host.

use super::model::thousands;
use super::{claude_code, codex, zed};

/// `Claude Code lists it whole, Codex cuts it at 1,024 characters with
/// `...`, Zed refuses the skill (1,078 bytes; it takes 1,024)`.
pub(crate) fn long_description(description: &str) -> String {
    let chars = description.chars().count();
    let bytes = description.len();
    let claude = if chars > claude_code::MAX_ENTRY_CHARS {
        format!(
            "Claude Code lists its first {} characters",
            thousands(claude_code::MAX_ENTRY_CHARS)
        )
    } else {
        "Claude Code lists it whole".to_owned()
    };
    let codex = if chars > codex::MAX_DESCRIPTION_CHARS {
        format!(
            "Codex cuts it at {} characters with `...`",
            thousands(codex::MAX_DESCRIPTION_CHARS)
        )
    } else {
        "Codex lists it whole".to_owned()
    };
    let zed = if bytes > zed::MAX_DESCRIPTION_BYTES {
        format!(
            "Zed refuses the skill ({} bytes; it takes {})",
            thousands(bytes),
            thousands(zed::MAX_DESCRIPTION_BYTES)
        )
    } else {
        "Zed loads it".to_owned()
    };
    format!("{claude}, {codex}, {zed}")
}
