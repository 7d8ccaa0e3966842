//! `String.prototype.localeCompare` as Node.js runs it (ICU's root
//! collation, locale `en-US`, sensitivity `variant`): the order in which
//! Vercel's `skills` CLI hashes a skill's files, so `scripts/run.py` sorts
//! before `SKILL.md`.
//!
//! Three levels, compared in turn over the whole string: the base letter
//! (punctuation before digits before letters, case and accents ignored),
//! then accents, then case (lower before upper). Control characters weigh
//! nothing. Exact for ASCII and for Latin letters with combining accents
//! (the property test in `tests/lock.rs` holds it to Node.js); other
//! scripts sort after Latin by code point, which ICU mostly agrees with.

use std::cmp::Ordering;

use unicode_normalization::UnicodeNormalization;

/// ICU's root order of the printable ASCII characters that are not letters
/// or digits, space first (Node.js prints it for `[...].sort(localeCompare)`).
const PUNCTUATION: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// One collation element: the three weights of a character.
#[derive(Debug, Clone, Copy)]
struct Element {
    primary: u32,
    secondary: u32,
    tertiary: u32,
}

/// Compares `a` and `b` as `a.localeCompare(b)` does in Node.js.
pub(crate) fn locale_compare(a: &str, b: &str) -> Ordering {
    let (a, b) = (elements(a), elements(b));
    let level = |pick: fn(&Element) -> u32| {
        let weights = |elements: &[Element]| -> Vec<u32> {
            elements.iter().map(pick).filter(|&w| w != 0).collect()
        };
        weights(&a).cmp(&weights(&b))
    };
    level(|e| e.primary)
        .then_with(|| level(|e| e.secondary))
        .then_with(|| level(|e| e.tertiary))
}

fn elements(text: &str) -> Vec<Element> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.nfd() {
        if let Some(element) = element(c) {
            out.push(element);
        }
    }
    out
}

/// The weights of one character after decomposition; `None` for what ICU
/// ignores (control characters).
fn element(c: char) -> Option<Element> {
    const SPACE_BASE: u32 = 10;
    const PUNCTUATION_BASE: u32 = 20;
    const DIGIT_BASE: u32 = 100;
    const LETTER_BASE: u32 = 200;
    const OTHER_BASE: u32 = 1_000;
    let base = Element {
        primary: 0,
        secondary: 5,
        tertiary: 5,
    };
    match c {
        // Tab, line feed, vertical tab, form feed, carriage return: white
        // space below the space character.
        '\t'..='\r' => Some(Element {
            primary: SPACE_BASE + (c as u32 - '\t' as u32),
            ..base
        }),
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' => None,
        '0'..='9' => Some(Element {
            primary: DIGIT_BASE + (c as u32 - '0' as u32),
            ..base
        }),
        'a'..='z' | 'A'..='Z' => Some(Element {
            primary: LETTER_BASE + (c.to_ascii_lowercase() as u32 - 'a' as u32),
            tertiary: if c.is_ascii_uppercase() { 6 } else { 5 },
            ..base
        }),
        _ if c.is_ascii() => {
            let at = PUNCTUATION.find(c).unwrap_or(PUNCTUATION.len()) as u32;
            Some(Element {
                primary: PUNCTUATION_BASE + at,
                ..base
            })
        }
        // Combining marks (the accents NFD splits off): a secondary weight only.
        '\u{300}'..='\u{36f}' => Some(Element {
            primary: 0,
            secondary: 10 + (c as u32 - 0x300),
            tertiary: 0,
        }),
        _ => {
            let lower = c.to_lowercase().next().unwrap_or(c);
            Some(Element {
                primary: OTHER_BASE + lower as u32,
                tertiary: if lower != c { 6 } else { 5 },
                ..base
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_as_node_does() {
        // Each sorted with `(a, b) => a.localeCompare(b)` in Node.js 20.
        let mut words = vec![
            "b", "Ab", "ab1", "a.b", "aB", "a-b", "á", "ab", "B", "a_b", "A", "a",
        ];
        words.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            words,
            [
                "a", "A", "á", "a_b", "a-b", "a.b", "ab", "aB", "Ab", "ab1", "b", "B"
            ]
        );
        assert_eq!(locale_compare("scripts/run.py", "SKILL.md"), Ordering::Less);
        assert_eq!(locale_compare("a\tb", "ab"), Ordering::Less);
        assert_eq!(locale_compare("a\u{1}", "a"), Ordering::Equal);
    }
}
