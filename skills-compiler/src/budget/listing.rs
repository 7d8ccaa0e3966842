//! What each host lists of a skill: the text a model picks a skill by,
//! and what an exact token count counts.

use super::model::{Budget, Entry};
use super::{builtins, claude_code, codex};
use crate::ir::present;

/// What `budget`'s host lists for `entry`, or `None` when it leaves the
/// skill out of its listing (`disable-model-invocation: true` for Claude
/// Code and Zed, `allow_implicit_invocation: false` for Codex): the text a
/// model picks a skill by.
pub(crate) fn listed_text(budget: Budget, entry: &Entry<'_>) -> Option<String> {
    (!builtins::listing(budget).hides.hides(entry)).then(|| entry_text(budget, entry))
}

/// One skill's whole entry as `budget`'s host lists it (Zed's prompt
/// template is approximated as `- name: description`; it counts only the
/// name and description). For exact token counts of what is sent.
pub fn entry_text(budget: Budget, entry: &Entry<'_>) -> String {
    match budget {
        Budget::ClaudeCode => claude_code::text(entry),
        Budget::Codex => codex::text(entry),
        Budget::Zed => format!("- {}: {}\n", entry.name, entry.description),
        Budget::AgentSkills => {
            present::catalog_xml_element_of(entry.name, entry.description, entry.path)
        }
        Budget::Chars(_) | Budget::Tokens(_) => {
            present::catalog_line_of(entry.name, entry.description, entry.catalog_chars)
        }
    }
}
