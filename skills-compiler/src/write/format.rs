//! One canonical style for frontmatter, as `cargo skills fmt` writes it:
//!
//! - keys in their declared order ([`crate::keys::FRONTMATTER`], which `cargo
//!   skills explain keys` prints): the specification's, then this
//!   project's, then other clients' keys, then `x-` keys, the last two
//!   groups in source order;
//! - strings plain unless YAML needs quotes, then double-quoted; `name` and
//!   `description` always on one line (loaders that read them line by line
//!   would read `>-`), unless the author wrote a block scalar; another
//!   one-line string longer than [`FOLD_FROM`] characters as a folded block
//!   scalar (`>-`) wrapped at [`WIDTH`] columns; strings with line breaks as
//!   literal block scalars when that reads back the same, else quoted;
//! - numbers, booleans and nulls exactly as written;
//! - block-style lists and maps, two spaces of indentation, `---` fences,
//!   the file's line ending and BOM.
//!
//! The body is never touched: every byte after the closing fence stays,
//! blank lines before the body included. saphyr keeps no comments, so a frontmatter
//! with a comment is left as it is ([`Outcome::Skipped`]), never stripped.
//! [`skill`] formats one skill's file and proves the result means the same:
//! the same skill as compiled, and the same body bytes.

use crate::config::Config;
use crate::ir;
use crate::read::discover::SkillFiles;
use crate::read::document;
use crate::read::yaml::{self, Entry, Node, Value};
use crate::validate::keys::KeyList;

/// Folded past this many characters (a description that long wraps in any editor).
pub(crate) const FOLD_FROM: usize = 100;
/// Folded lines are wrapped at this column.
pub(crate) const WIDTH: usize = 80;

/// What formatting a file gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Already canonical.
    Unchanged,
    /// The canonical text.
    Changed(String),
    /// Left as it is on purpose, and why: a comment that rewriting would
    /// lose, no frontmatter to format.
    Skipped(String),
    /// Could not be formatted, and why: not UTF-8, YAML that does not
    /// parse, a skill with errors. `fmt --check` fails on these: it cannot
    /// say the file is formatted.
    Unchecked(String),
}

/// Formats one skill file: canonical, or skipped with the reason. The
/// result is checked: it must compile to the same skill, with the same body.
pub fn skill(files: &SkillFiles, config: &Config) -> Outcome {
    let Ok(text) = std::str::from_utf8(&files.bytes) else {
        return Outcome::Unchecked("not UTF-8".to_owned());
    };
    let formatted = match canonical(text, config) {
        Ok(formatted) => formatted,
        Err(outcome) => return outcome,
    };
    if formatted == text {
        return Outcome::Unchanged;
    }
    let before = compiled(files, text.as_bytes(), config);
    let after = compiled(files, formatted.as_bytes(), config);
    match (before, after) {
        (Some(before), Some(after)) if same_skill(&before, &after) => Outcome::Changed(formatted),
        (Some(_), _) => Outcome::Unchecked(
            "formatting would change what the skill means (please report this)".to_owned(),
        ),
        (None, _) => {
            Outcome::Unchecked("the skill has errors: run `cargo skills check`".to_owned())
        }
    }
}

/// The canonical text of a skill file, or why it is left as it is.
pub fn text_of(text: &str, config: &Config) -> Result<String, String> {
    canonical(text, config).map_err(|outcome| match outcome {
        Outcome::Skipped(reason) | Outcome::Unchecked(reason) => reason,
        Outcome::Unchanged | Outcome::Changed(_) => String::new(),
    })
}

/// The canonical text, or the outcome that says why there is none.
fn canonical(text: &str, config: &Config) -> Result<String, Outcome> {
    // No frontmatter (which `lenient` allows): nothing to format.
    let written =
        document::written("SKILL.md", text, false).map_err(|d| Outcome::Skipped(d.message))?;
    let framing = &written.framing;
    let Some(range) = framing.yaml.clone() else {
        return Err(Outcome::Skipped("no frontmatter".to_owned()));
    };
    if let Some(line) = comment_line(&text[range.clone()]) {
        return Err(Outcome::Skipped(format!(
            "the frontmatter has a comment (line {}); comments would be lost, so the file is left as it is",
            written.source.line_col(range.start).line + line
        )));
    }
    let root = match written.root(config) {
        Ok(Some(root)) => root,
        Ok(None) => return Err(Outcome::Skipped("empty frontmatter".to_owned())),
        Err(problems) => {
            return Err(Outcome::Unchecked(format!(
                "{}; `cargo skills fix` repairs what it can",
                problems[0].message
            )));
        }
    };
    let Value::Map(entries) = &root.value else {
        return Err(Outcome::Unchecked(
            "the frontmatter is not a mapping".to_owned(),
        ));
    };
    let eol = if text[..range.start].ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut yaml = String::new();
    let emitter = Emitter { text: Some(text) };
    for entry in ordered(entries.as_slice(), KeyList::DECLARED) {
        emitter.entry(entry, 0, &mut yaml);
    }
    let bom = if text.starts_with('\u{feff}') {
        "\u{feff}"
    } else {
        ""
    };
    // The fence's own line break, then every byte after it, as written: the
    // body (leading blank lines included) is what the model reads.
    let mut out = format!("{bom}---\n{yaml}---").replace('\n', eol);
    out.push_str(&text[framing.after_fence.start..]);
    Ok(out)
}

/// Whether a skill file's frontmatter may hold a comment, which rewriting
/// it would lose.
pub(crate) fn has_comment(text: &str) -> bool {
    document::written("SKILL.md", text, true).is_ok_and(|written| {
        (written.framing.yaml).is_some_and(|range| comment_line(&text[range]).is_some())
    })
}

/// The same for a YAML file without fences (a sidecar `tools.yaml`).
pub(crate) fn yaml_has_comment(text: &str) -> bool {
    comment_line(text).is_some()
}

/// The 0-based line of the first `#` that may start a comment. YAML starts
/// one at a `#` after white space or a line break, and a lone CR is a line
/// break to YAML. Conservative: such a `#` counts even inside a quoted
/// string (the file is then only left alone); a `#` inside a word does not.
fn comment_line(yaml: &str) -> Option<u32> {
    let bytes = yaml.as_bytes();
    let at = bytes.iter().enumerate().position(|(i, &b)| {
        b == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\r' | b'\n'))
    })?;
    Some(bytes[..at].iter().filter(|&&b| b == b'\n').count() as u32)
}

/// Spec keys, then this project's keys, then other clients' keys, then
/// `x-` keys; the last two groups in source order.
fn ordered<'e>(entries: &'e [Entry], list: KeyList<'_>) -> Vec<&'e Entry> {
    let mut ordered: Vec<&Entry> = entries.iter().collect();
    ordered.sort_by_key(|entry| list.rank(&entry.key));
    ordered
}

/// A frontmatter mapping built in memory (by [`crate::write`]) in the
/// canonical style: keys in canonical order, scalars from their values.
pub(crate) fn emit(entries: &[Entry]) -> String {
    emit_in(entries, KeyList::DECLARED)
}

/// [`emit`] with the keys `list` declares.
pub(crate) fn emit_in(entries: &[Entry], list: KeyList<'_>) -> String {
    let mut out = String::new();
    let emitter = Emitter { text: None };
    for entry in ordered(entries, list) {
        emitter.entry(entry, 0, &mut out);
    }
    out
}

struct Emitter<'a> {
    /// The file, for scalars kept exactly as written; `None` for a tree
    /// built in memory, whose scalars are written from their values.
    text: Option<&'a str>,
}

impl Emitter<'_> {
    fn entry(&self, entry: &Entry, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        out.push_str(&pad);
        out.push_str(&key(&entry.key));
        out.push(':');
        // Loaders that read `name` and `description` line by line would read
        // `>-`: they stay on one line, unless the author folded them.
        let one_line = indent == 0
            && matches!(entry.key.as_str(), "name" | "description")
            && !self.is_block_scalar(entry);
        match &entry.value.value {
            Value::String(text) if one_line && !text.contains('\n') => {
                out.push_str(&inline(text));
                out.push('\n');
            }
            _ => self.value(&entry.value, indent, out),
        }
    }

    /// Whether the file wrote the entry's value as a block scalar: a `>` or
    /// `|` after the key's colon (the value's span may start after it).
    fn is_block_scalar(&self, entry: &Entry) -> bool {
        let Some(text) = self.text else {
            return false;
        };
        let end = entry.value.span.end.max(entry.key_span.end);
        text.get(entry.key_span.end..end).is_some_and(|written| {
            written
                .trim_start_matches(|c: char| c == ':' || c.is_whitespace())
                .starts_with(['>', '|'])
        })
    }

    /// `node` after a key's colon or a list item's dash.
    fn value(&self, node: &Node, indent: usize, out: &mut String) {
        match &node.value {
            Value::Map(entries) if entries.is_empty() => out.push_str(" {}\n"),
            Value::Seq(items) if items.is_empty() => out.push_str(" []\n"),
            Value::Map(entries) => {
                out.push('\n');
                for entry in entries {
                    self.entry(entry, indent + 2, out);
                }
            }
            Value::Seq(items) => {
                out.push('\n');
                for item in items {
                    self.item(item, indent + 2, out);
                }
            }
            Value::String(text) => {
                out.push_str(&string(text, indent + 2));
                out.push('\n');
            }
            _ => {
                let written = match self.text {
                    Some(text) => text.get(node.span.clone()).unwrap_or("").trim().to_owned(),
                    None => scalar(&node.value),
                };
                if !written.is_empty() {
                    out.push(' ');
                    out.push_str(&written);
                }
                out.push('\n');
            }
        }
    }

    /// A list item at `indent`: `- value`, a map's first entry on the dash's line.
    fn item(&self, node: &Node, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        match &node.value {
            Value::Map(entries) if !entries.is_empty() => {
                for (i, entry) in entries.iter().enumerate() {
                    let mut line = String::new();
                    self.entry(entry, indent + 2, &mut line);
                    if i == 0 {
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&line[indent + 2..]);
                    } else {
                        out.push_str(&line);
                    }
                }
            }
            _ => {
                out.push_str(&pad);
                out.push('-');
                self.value(node, indent, out);
            }
        }
    }
}

/// A number, boolean or null as YAML's core schema reads it back.
fn scalar(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => ".nan".to_owned(),
        Value::Float(f) if f.is_infinite() => if *f > 0.0 { ".inf" } else { "-.inf" }.to_owned(),
        // Debug keeps a `.0` on whole numbers, so `1.0` stays a float.
        Value::Float(f) => format!("{f:?}"),
        _ => String::new(),
    }
}

/// A key, plain when YAML allows.
fn key(text: &str) -> String {
    if is_plain(text) {
        text.to_owned()
    } else {
        yaml::quote(text)
    }
}

/// A string value after `key:`, with its leading space; block scalars are
/// indented to `indent`.
fn string(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    if text.contains('\n') {
        if let Some(block) = literal(text, &pad) {
            return block;
        }
        return format!(" {}", yaml::quote(text));
    }
    if text.chars().count() > FOLD_FROM && is_foldable(text) {
        return folded(text, &pad);
    }
    inline(text)
}

/// A one-line string after `key:`: plain when YAML allows, else quoted.
fn inline(text: &str) -> String {
    if is_plain(text) {
        format!(" {text}")
    } else {
        format!(" {}", yaml::quote(text))
    }
}

/// Words separated by single spaces: folding reads back the same.
fn is_foldable(text: &str) -> bool {
    !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.contains("  ")
        && text.chars().all(|c| c == ' ' || !c.is_whitespace())
        && text.chars().all(|c| !c.is_control())
}

/// `>-` and the words wrapped at [`WIDTH`] columns.
fn folded(text: &str, pad: &str) -> String {
    let mut out = String::from(" >-\n");
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && pad.len() + line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(pad);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(pad);
    out.push_str(&line);
    out
}

/// `|`, `|-` or `|+` and the lines, when that reads back as `text`: no
/// line starting with a space or a tab (which would need an indentation
/// indicator), no trailing spaces, no control characters.
fn literal(text: &str, pad: &str) -> Option<String> {
    let content = text.trim_end_matches('\n');
    let trailing = text.len() - content.len();
    let chomp = match trailing {
        0 => "-",
        1 => "",
        _ => "+",
    };
    let readable = !content.is_empty()
        && content.lines().all(|line| {
            !line.starts_with([' ', '\t'])
                && !line.ends_with([' ', '\t'])
                && !line.chars().any(|c| c.is_control() && c != '\t')
        })
        && !content.contains('\r');
    if !readable {
        return None;
    }
    let mut out = format!(" |{chomp}\n");
    let lines: Vec<&str> = content.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if !line.is_empty() {
            out.push_str(pad);
            out.push_str(line);
        }
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
    for _ in 1..trailing {
        out.push('\n');
    }
    Some(out)
}

/// Whether `text` reads back as this string when written plainly.
fn is_plain(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let indicator = "-?:,[]{}#&*!|>'\"%@`".contains(first);
    let dash_ok =
        matches!(first, '-' | '?' | ':') && text.chars().nth(1).is_some_and(|c| !c.is_whitespace());
    let special = text.contains(": ")
        || text.contains(" #")
        || text.ends_with(':')
        || text.starts_with(' ')
        || text.ends_with(' ')
        || text.chars().any(|c| c.is_control() || c == '\u{feff}')
        || text.starts_with("---")
        || text.starts_with("...");
    (!indicator || dash_ok) && !special && !resolves_to_other_type(text)
}

/// YAML 1.2 core schema (and 1.1's booleans, which some readers keep).
fn resolves_to_other_type(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "~" | "null"
            | "true"
            | "false"
            | "yes"
            | "no"
            | "on"
            | "off"
            | "y"
            | "n"
            | ".nan"
            | ".inf"
            | "-.inf"
            | "+.inf"
    ) || text.parse::<f64>().is_ok()
        || text.starts_with("0x")
        || text.starts_with("0o")
        || text
            .chars()
            .all(|c| c.is_ascii_digit() || "_.+-eE:".contains(c))
}

fn compiled(files: &SkillFiles, bytes: &[u8], config: &Config) -> Option<ir::Skill> {
    let files = SkillFiles {
        bytes: bytes.to_vec(),
        ..files.clone()
    };
    let (skill, diagnostics) = crate::pipeline::compile_one(files, config);
    skill.filter(|_| {
        !diagnostics
            .iter()
            .any(crate::diagnostics::Diagnostic::is_error)
    })
}

/// The same skill, apart from where its text sits in the file, the order
/// of extra keys (a YAML mapping's keys carry no order; the canonical order
/// moves `x-` keys last) and the frontmatter as written (the writer spells
/// schemas out in full).
pub fn same_skill(a: &ir::Skill, b: &ir::Skill) -> bool {
    let strip = |skill: &ir::Skill| {
        let mut table = skill.table.clone();
        table.extras.to_mut().sort_by(|x, y| x.0.cmp(&y.0));
        table.source = skill.body().to_owned().into();
        table.body_start = 0;
        table.frontmatter = Default::default();
        // Where the directory is on disk is not what the skill says.
        ir::Skill {
            table,
            description_span: None,
            dir_on_disk: None,
            ..skill.clone()
        }
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_only_when_it_reads_back_as_the_same_string() {
        for plain in [
            "deploy",
            "Deploys the app.",
            "a-b",
            "-x",
            "C++ and C#",
            "x:y",
        ] {
            assert!(is_plain(plain), "{plain}");
        }
        for quoted in [
            "", "true", "No", "1.0", "12", "~", "a: b", "a #b", "- x", "#x", "'x'", " x", "x ",
            "x:", "0x1F", "1_000",
        ] {
            assert!(!is_plain(quoted), "{quoted}");
        }
    }

    #[test]
    fn quoted_strings_escape_line_breaks_and_controls() {
        assert_eq!(yaml::quote("a\nb\t\"c\"\\"), "\"a\\nb\\t\\\"c\\\"\\\\\"");
        assert_eq!(yaml::quote("\u{7}"), "\"\\u0007\"");
    }
}
