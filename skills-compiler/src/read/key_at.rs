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

/// Where a key is being typed: the mapping it goes in (`None` at the top
/// level, else the key that holds the mapping: `tools`, `endpoint`,
/// `permissions`) and the bytes typed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeySlot {
    /// The key that holds the mapping, `None` for the top level.
    pub(crate) parent: Option<String>,
    /// The key's letters typed so far (empty at a line's start).
    pub(crate) typed: Range<usize>,
}

/// The key being typed at byte `offset` of the frontmatter: the line
/// holds only indentation, `- ` and key letters before the cursor.
pub(crate) fn key_slot(text: &str, offset: usize) -> Option<KeySlot> {
    let frontmatter = frontmatter_end(text)?;
    if offset > frontmatter || !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    if line_start == 0 {
        return None;
    }
    let before = text[line_start..offset].trim_start_matches(' ');
    let word = before
        .strip_prefix("- ")
        .map_or(before, |item| item.trim_start_matches(' '));
    let is_key = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !word.chars().all(is_key) {
        return None;
    }
    let typed = offset - word.len()..offset;
    let parent = parent_of(text, typed.start).map(str::to_owned);
    Some(KeySlot { parent, typed })
}

/// A key of the frontmatter's top level, or a tool's name, as an editor's
/// outline shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key (`description`), or the tool's name (`get_issue`).
    pub name: String,
    /// Whether it is a tool of `tools:`, named by its `name:`.
    pub tool: bool,
    /// The key's (or the name's) bytes in the text.
    pub span: Range<usize>,
    /// The whole entry: from its line to the next entry of its level.
    pub lines: Range<usize>,
}

/// The frontmatter's bytes, both fences included; to the end of the text
/// when the closing fence is not typed yet.
pub(crate) fn frontmatter(text: &str) -> Option<Range<usize>> {
    let end = frontmatter_end(text)?;
    let close = text[end..].find('\n').map_or(text.len(), |at| end + at + 1);
    Some(0..close)
}

/// The frontmatter's top-level keys, and the tools of `tools:` by their
/// names, in order.
pub(crate) fn entries(text: &str) -> Vec<Entry> {
    let Some(end) = frontmatter_end(text) else {
        return Vec::new();
    };
    let mut entries: Vec<Entry> = Vec::new();
    let mut in_tools = false;
    // The column of the last tool's `- `: its own keys are two further in.
    let mut item_indent = None;
    // Where each open entry's lines started: the last top-level key's, the
    // last tool's.
    let mut at = 0;
    for line in text[..end].split_inclusive('\n') {
        let start = at;
        at += line.len();
        if start == 0 {
            continue;
        }
        let content = line.trim_end();
        if content.trim_start().is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        let indent = content.len() - content.trim_start().len();
        if indent == 0 {
            close(&mut entries, start, |_| true);
            let Some(colon) = content.find(':') else {
                continue;
            };
            let key = content[..colon].trim_end();
            in_tools = key == "tools";
            entries.push(Entry {
                name: key.to_owned(),
                tool: false,
                span: start..start + key.len(),
                lines: start..end,
            });
        } else if in_tools && content.trim_start().starts_with("- ") {
            close(&mut entries, start, |entry| entry.tool);
            item_indent = Some(indent);
            let item = content.trim_start()[2..].trim_start();
            let item_at = start + (content.len() - item.len());
            if let Some(name) = item.strip_prefix("name:") {
                let value = name.trim_start();
                let value = value.trim_matches(['"', '\'']);
                let value_at = item_at + item.find(value).unwrap_or(0);
                if value.trim_end().is_empty() {
                    continue;
                }
                entries.push(Entry {
                    name: value.trim_end().to_owned(),
                    tool: true,
                    span: value_at..value_at + value.trim_end().len(),
                    lines: start..end,
                });
            }
        } else if in_tools
            && item_indent.is_some_and(|item| indent == item + 2)
            && content.trim_start().starts_with("name:")
        {
            // `- ` then other keys first: the name comes on a later line.
            let value = content.trim_start()["name:".len()..].trim();
            let value = value.trim_matches(['"', '\'']);
            let tool_open = entries.last().is_some_and(|e| e.tool && e.lines.end == end);
            if !tool_open && !value.is_empty() {
                let value_at = start + content.find(value).unwrap_or(0);
                entries.push(Entry {
                    name: value.to_owned(),
                    tool: true,
                    span: value_at..value_at + value.len(),
                    lines: start..end,
                });
            }
        }
    }
    entries
}

/// Ends, at `at`, the open entries `which` picks (their `lines` still run
/// to the frontmatter's end).
fn close(entries: &mut [Entry], at: usize, which: impl Fn(&Entry) -> bool) {
    for entry in entries.iter_mut().rev() {
        if entry.lines.end > at && which(entry) {
            entry.lines.end = at;
        }
    }
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
