//! The frontmatter key under an editor's cursor, named by its path as
//! `cargo skills explain` takes it (`name`, `tool.endpoint`,
//! `endpoint.method`): read from the lines as they are while the author
//! types, so half a frontmatter still has keys.

use std::ops::Range;

/// A key under the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAt {
    /// The key's bytes in the text.
    pub span: Range<usize>,
    /// Its path, as `explain` takes it (`name`, `tool.endpoint`, `endpoint.url`).
    pub path: String,
}

/// The key at byte `offset` of a skill file's `text`, when the offset is
/// on a key of the frontmatter: at the top level, in a tool, its endpoint
/// or `permissions`.
pub fn key_at(text: &str, offset: usize) -> Option<KeyAt> {
    let frontmatter = frontmatter_end(text)?;
    if offset >= frontmatter || !text.is_char_boundary(offset.min(text.len())) {
        return None;
    }
    let span = word_at(text, offset)?;
    let after = text[span.end..].trim_start_matches([' ', '\t']);
    if !after.starts_with(':') {
        return None;
    }
    let key = &text[span.clone()];
    let path = match parent_of(text, span.start) {
        Some("endpoint") => format!("endpoint.{key}"),
        Some("permissions") => format!("permissions.{key}"),
        Some("tools") => format!("tool.{key}"),
        Some(_) => return None,
        None => key.to_owned(),
    };
    Some(KeyAt { span, path })
}

/// Where the frontmatter's closing fence starts, for a text that opens one.
fn frontmatter_end(text: &str) -> Option<usize> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.len();
    let rest = body.strip_prefix("---")?;
    let mut lines = rest.split_inclusive('\n');
    // The opening fence's line, to its end.
    let mut at = skipped + 3 + lines.next()?.len();
    for line in lines {
        if line.trim_end() == "---" {
            return Some(at);
        }
        at += line.len();
    }
    // Half a frontmatter, as typing leaves it: all of it counts.
    Some(text.len())
}

/// The key-like word (letters, digits, `_`, `-`) around `offset`.
fn word_at(text: &str, offset: usize) -> Option<Range<usize>> {
    let is_key = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_key(*c))
        .last()
        .map_or(offset, |(at, _)| at);
    let end = offset
        + text[offset..]
            .char_indices()
            .find(|(_, c)| !is_key(*c))
            .map_or(text.len() - offset, |(at, _)| at);
    (start < end).then_some(start..end)
}

/// The key whose mapping holds the key at `start`: the key before an open
/// `{` on the same line (a flow mapping), else the nearest line above that
/// is indented less (`- ` counts as indentation, as a list item's keys
/// line up after it). `None` at the top level.
fn parent_of(text: &str, start: usize) -> Option<&str> {
    let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
    let before = &text[line_start..start];
    if let Some(open) = open_brace(before) {
        return last_key(&before[..open]);
    }
    let indent = indentation(&text[line_start..]);
    let mut end = line_start;
    while end > 0 {
        let above_start = text[..end - 1].rfind('\n').map_or(0, |at| at + 1);
        let line = &text[above_start..end - 1];
        end = above_start;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if line.trim_end() == "---" {
            return None;
        }
        if indentation(line) < indent {
            return last_key(line);
        }
    }
    None
}

/// The last `{` of a line's text left open, outside quotes: a flow
/// mapping the key is in (a quoted URL's `{{number}}` is not one).
fn open_brace(text: &str) -> Option<usize> {
    let mut open = Vec::new();
    let mut quote = None;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{') => open.push(at),
            (None, '}') => {
                open.pop();
            }
            _ => {}
        }
    }
    open.pop()
}

/// Spaces and `- ` before a line's first key.
fn indentation(line: &str) -> usize {
    let trimmed = line.trim_start_matches([' ', '-']);
    line.len() - trimmed.len()
}

/// The last `key:` of a line's text (`  endpoint: ` gives `endpoint`).
fn last_key(text: &str) -> Option<&str> {
    let colon = text
        .trim_end()
        .strip_suffix(':')
        .map(str::len)
        .or_else(|| text.rfind(':'))?;
    let head = text[..colon].trim_end();
    let start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |at| at + 1);
    let key = &head[start..];
    (!key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "---\nname: tracker\ndescription: Look up issues.\ntools:\n  - name: get_issue\n    endpoint:\n      method: GET\n    parameters: { type: object }\npermissions:\n  allow_write: []\n---\nname: in the body\n";

    fn path_at(needle: &str) -> Option<String> {
        let offset = SKILL.find(needle).unwrap() + 1;
        key_at(SKILL, offset).map(|hover| hover.path)
    }

    #[test]
    fn a_key_is_named_by_its_place() {
        assert_eq!(path_at("name: tracker").as_deref(), Some("name"));
        assert_eq!(path_at("description:").as_deref(), Some("description"));
        assert_eq!(path_at("endpoint:").as_deref(), Some("tool.endpoint"));
        assert_eq!(path_at("method:").as_deref(), Some("endpoint.method"));
        assert_eq!(
            path_at("allow_write").as_deref(),
            Some("permissions.allow_write")
        );
    }

    #[test]
    fn values_the_body_and_unknown_keys_have_no_hover() {
        assert_eq!(path_at("tracker"), None);
        assert_eq!(path_at("name: in the body"), None);
        // A key of no mapping the declarations have.
        assert_eq!(path_at("type: object"), None);
    }

    #[test]
    fn a_flow_mappings_keys_take_the_key_before_the_brace() {
        let text = "---\ntools:\n  - name: a\n    endpoint: { url: \"https://x/{{id}}\", method: GET }\n---\n";
        let offset = text.find("method").unwrap();
        assert_eq!(
            key_at(text, offset).map(|h| h.path).as_deref(),
            Some("endpoint.method")
        );
    }

    #[test]
    fn no_offset_panics() {
        for text in [SKILL, "---\nna", "\u{feff}---\né: 𝄞\n", "", "---"] {
            for offset in 0..=text.len() + 2 {
                let _ = key_at(text, offset);
            }
        }
    }
}
