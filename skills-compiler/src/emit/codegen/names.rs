//! Rust identifiers from skill, tool, property and enum-value names, following
//! typify's rules: PascalCase types, snake_case fields (renamed for serde when
//! they differ), keywords and leading digits handled, collisions numbered.

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToSnakeCase};
use proc_macro2::{Ident, Span};

/// Strict and reserved keywords (2015–2024 editions).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "union",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// ASCII-only text: each non-ASCII character becomes `u<hex>` so that
/// identifiers stay portable (and lints such as `uncommon_codepoints` quiet).
fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("_u{:x}_", u32::from(c)));
        }
    }
    out
}

/// Makes `text` a valid identifier: non-empty, not starting with a digit.
fn valid_start(mut text: String, fallback: &str) -> String {
    text.retain(|c| c.is_ascii_alphanumeric() || c == '_');
    if text.is_empty() || text == "_" {
        return fallback.to_owned();
    }
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        text.insert(0, '_');
    }
    text
}

/// An identifier from a name [`Namespace`] handed out: raw when it is a
/// keyword (`r#type`). Names that cannot be raw never reach here: the
/// namespace gives them a `_` suffix.
pub(super) fn ident(text: &str) -> Ident {
    if KEYWORDS.contains(&text) {
        Ident::new_raw(text, Span::call_site())
    } else {
        Ident::new(text, Span::call_site())
    }
}

/// Hands out unique identifiers within one namespace. Every name it returns
/// is a valid identifier in editions 2015 to 2024 (through [`ident`]), and
/// no two calls return the same one, so naming is injective.
#[derive(Default)]
pub(super) struct Namespace {
    taken: BTreeSet<String>,
}

impl Namespace {
    pub(super) fn reserving(names: &[&str]) -> Self {
        Namespace {
            taken: names.iter().map(|n| (*n).to_owned()).collect(),
        }
    }

    fn unique(&mut self, mut base: String) -> String {
        // `self`, `Self`, `super` and `crate` cannot be raw identifiers.
        if NOT_RAW.contains(&base.as_str()) {
            base.push('_');
        }
        let mut candidate = base.clone();
        let mut n = 2;
        while !self.taken.insert(candidate.clone()) {
            candidate = format!("{base}{n}");
            n += 1;
        }
        candidate
    }

    /// A snake_case name: modules and fields.
    pub(super) fn snake(&mut self, text: &str, fallback: &str) -> String {
        let snake = ascii(text).to_snake_case();
        self.unique(valid_start(snake, fallback))
    }

    /// A PascalCase name: types and variants.
    pub(super) fn pascal(&mut self, text: &str, fallback: &str) -> String {
        let mut pascal = ascii(text).to_pascal_case();
        pascal.retain(|c| c.is_ascii_alphanumeric());
        if pascal.is_empty() {
            pascal = fallback.to_owned();
        } else if pascal.starts_with(|c: char| c.is_ascii_digit()) {
            pascal.insert(0, 'V');
        }
        self.unique(pascal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_names() {
        let mut ns = Namespace::default();
        assert_eq!(ns.snake("github-issues", "skill"), "github_issues");
        assert_eq!(ns.snake("3d-printing", "skill"), "_3d_printing");
        assert_eq!(ns.snake("type", "skill"), "type");
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ns.snake("self", "f"), "self_");
        // A real `self_` after `self` still gets its own name.
        assert_eq!(ns.snake("self_", "f"), "self_2");
        assert_eq!(ns.snake("crate", "f"), "crate_");
        assert_eq!(ns.snake("fooBar", "f"), "foo_bar");
        assert_eq!(ns.snake("foo_bar", "f"), "foo_bar2");
        assert_eq!(ns.snake("навык", "skill"), "u43d_u430_u432_u44b_u43a");
        assert_eq!(ns.snake("$", "field"), "field");
    }

    #[test]
    fn pascal_names() {
        let mut ns = Namespace::reserving(&["ToolCall"]);
        assert_eq!(ns.pascal("create_issue", "T"), "CreateIssue");
        assert_eq!(ns.pascal("tool-call", "T"), "ToolCall2");
        assert_eq!(ns.pascal("1st", "V"), "V1st");
        assert_eq!(ns.pascal("", "Value"), "Value");
        assert_eq!(ns.pascal("high priority", "V"), "HighPriority");
        assert_eq!(ns.pascal("self", "V"), "Self_");
        assert_eq!(ns.pascal("Self", "V"), "Self_2");
        assert_eq!(ns.pascal("a-b", "V"), "AB");
        assert_eq!(ns.pascal("A B", "V"), "AB2");
        assert_eq!(ns.pascal("", "Value"), "Value2");
    }
}
