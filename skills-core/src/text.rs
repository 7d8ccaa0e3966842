//! Text that reaches a person or a model: which characters hide or act
//! instead of showing, and the one rule for printing text taken from a
//! skill's files (a file name, a key, a value) where a terminal, a CI log
//! or a model reads it.

use std::borrow::Cow;

/// Whether `c` acts on a terminal or a log instead of showing: C0 and C1
/// controls (ESC, CR, LF), DEL, and the [invisible](is_invisible)
/// characters that hide or reorder text. A tab shows as space and is not
/// one of them.
///
/// ```
/// assert!(skills_core::acts_on_output('\n'));
/// assert!(skills_core::acts_on_output('\u{1b}'));
/// assert!(skills_core::acts_on_output('\u{202e}'));
/// assert!(!skills_core::acts_on_output('\t'));
/// ```
pub fn acts_on_output(c: char) -> bool {
    (c.is_control() && c != '\t') || is_invisible(c)
}

/// `text` with every character that [acts on output](acts_on_output)
/// written as a Rust-style escape (`\u{1b}`): the one rule for printing a
/// file name, a key or a value read from a skill, so that a directory
/// named `a\n::error::x` cannot start a GitHub workflow command, and a
/// description holding ESC cannot recolour a terminal. Borrowed when
/// nothing needs escaping, which printable ASCII never does.
///
/// ```
/// assert_eq!(skills_core::printable("a\n::error::x"), "a\\u{a}::error::x");
/// assert_eq!(skills_core::printable("\u{1b}[31mred"), "\\u{1b}[31mred");
/// assert!(matches!(skills_core::printable("plain é"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !has_acting(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts_on_output(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `text` holds a character that [`acts_on_output`]. ASCII acts
/// only by its control bytes, so most text is not decoded.
fn has_acting(text: &str) -> bool {
    if text.is_ascii() {
        return text.bytes().any(|b| b.is_ascii_control() && b != b'\t');
    }
    text.chars().any(acts_on_output)
}

/// Whether `c` shows nothing, or changes the order of what shows, where it
/// stands in text: zero-width characters, text-direction controls, the
/// invisible operators, the byte-order mark, interlinear annotation marks
/// and Unicode tag characters (which spell hidden ASCII). One set for every
/// place that shows text a person must be able to read: lints on prompt
/// text, diagnostics, confirm prompts. The zero-width joiner and variation
/// selectors are not in it: emoji sequences need them.
///
/// ```
/// assert!(skills_core::is_invisible('\u{202e}'));
/// assert!(skills_core::is_invisible('\u{e0041}'));
/// assert!(!skills_core::is_invisible('\u{200d}'));
/// assert!(!skills_core::is_invisible('é'));
/// ```
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}'
        | '\u{61c}'
        | '\u{180e}'
        | '\u{200b}' | '\u{200c}' | '\u{200e}' | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}')
}

/// The invisible characters of `text` ([`is_invisible`]), each with its
/// byte offset, in order.
///
/// Every one of them starts with one of six bytes in UTF-8, so only those
/// bytes are looked for (memchr, a vectorised pass for each three), and only
/// the characters they start are decoded: a body of prose with a dash in it
/// is not decoded whole.
///
/// ```
/// let text = "a\u{200b}b — c\u{202e}";
/// let found: Vec<(usize, char)> = skills_core::invisible_chars(text).collect();
/// assert_eq!(found, [(1, '\u{200b}'), (11, '\u{202e}')]);
/// ```
pub fn invisible_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    led_by(text, is_invisible)
}

/// The characters of `text` that start with one of [`INVISIBLE_LEADS`] and
/// that `keep` keeps, with their offsets, in order.
fn led_by(text: &str, keep: fn(char) -> bool) -> impl Iterator<Item = (usize, char)> + '_ {
    let bytes = text.as_bytes();
    let [a, b, c, d, e, f] = INVISIBLE_LEADS;
    let first = memchr::memchr3_iter(a, b, c, bytes).map(|at| (at, '\0'));
    let second = memchr::memchr3_iter(d, e, f, bytes).map(|at| (at, '\0'));
    // A lead byte is never inside a character: `at` is a boundary.
    merge_by_offset(first.peekable(), second.peekable()).filter_map(move |(at, _)| {
        let c = text.get(at..)?.chars().next()?;
        keep(c).then_some((at, c))
    })
}

/// The characters of `text` a reader does not see for what they are, each
/// with its byte offset, in order: the [invisible](is_invisible) ones and
/// the controls (ESC, NUL, DEL, C1) other than tab and the line breaks that
/// lay text out. What W012 looks for in text that reaches a model.
///
/// ```
/// let found: Vec<(usize, char)> = skills_core::hidden_chars("a\u{1b}[8m\tb\u{200b}\n").collect();
/// assert_eq!(found, [(1, '\u{1b}'), (7, '\u{200b}')]);
/// ```
pub fn hidden_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    // Text is looked at a block at a time, and only a block that holds a
    // control byte byte by byte: a fold without an early exit compiles to
    // vector compares, where a byte-by-byte filter over a whole reference
    // file was a tenth of `check`'s time.
    const BLOCK: usize = 64;
    let controls = text
        .as_bytes()
        .chunks(BLOCK)
        .enumerate()
        .filter(|(_, block)| {
            block
                .iter()
                .fold(false, |found, &b| found | is_hidden_control(b))
        })
        .flat_map(|(n, block)| {
            block
                .iter()
                .enumerate()
                .filter(|&(_, &b)| is_hidden_control(b))
                .map(move |(at, &b)| (n * BLOCK + at, char::from(b)))
        })
        .peekable();
    // C1 controls start with 0xC2, a lead `invisible_chars` already decodes.
    let invisible = led_by(text, |c| is_invisible(c) || c.is_control()).peekable();
    merge_by_offset(controls, invisible)
}

/// An ASCII control a reader does not see: every one but tab and the line
/// breaks, and DEL.
fn is_hidden_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') | (b == 0x7f)
}

fn merge_by_offset(
    mut first: std::iter::Peekable<impl Iterator<Item = (usize, char)>>,
    mut second: std::iter::Peekable<impl Iterator<Item = (usize, char)>>,
) -> impl Iterator<Item = (usize, char)> {
    std::iter::from_fn(move || match (first.peek(), second.peek()) {
        (Some(x), Some(y)) if x.0 <= y.0 => first.next(),
        (Some(_), Some(_)) | (None, Some(_)) => second.next(),
        (Some(_), None) => first.next(),
        (None, None) => None,
    })
}

/// The first byte of the UTF-8 form of every character [`is_invisible`]
/// holds (U+00AD, U+061C, U+180E, U+2000 to U+2FFF, U+F000 to U+FFFF, and
/// the tags from U+E0000); a test goes through every character to hold it.
const INVISIBLE_LEADS: [u8; 6] = [0xC2, 0xD8, 0xE1, 0xE2, 0xEF, 0xF3];

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every invisible character starts with one of the lead bytes that
    /// `invisible_chars` looks for.
    #[test]
    fn every_invisible_character_starts_with_a_lead_byte() {
        let mut found = 0;
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            if is_invisible(c) {
                let mut utf8 = [0; 4];
                let lead = c.encode_utf8(&mut utf8).as_bytes()[0];
                assert!(INVISIBLE_LEADS.contains(&lead), "U+{:04X}", u32::from(c));
                found += 1;
            }
        }
        assert!(found > 100, "{found}");
    }

    proptest! {
        /// The same characters, at the same offsets, as decoding every
        /// character finds, in text dense with lead bytes and their
        /// neighbours.
        #[test]
        fn finds_what_decoding_every_character_finds(
            text in "[a \u{ad}\u{ac}\u{61c}\u{180e}\u{200b}-\u{2070}\u{2190}\u{feff}\u{fff9}-\u{fffd}\u{e0000}-\u{e0080}é中😀]{0,40}"
        ) {
            let expected: Vec<(usize, char)> =
                text.char_indices().filter(|&(_, c)| is_invisible(c)).collect();
            prop_assert_eq!(invisible_chars(&text).collect::<Vec<_>>(), expected);
        }

        /// Block by block, the same controls and invisible characters, at
        /// the same offsets, as a look at every character, across block
        /// edges.
        #[test]
        fn hidden_chars_finds_what_looking_at_every_character_finds(
            text in "[a-z \t\n\r\u{0}-\u{1f}\u{7f}\u{85}\u{9b}\u{200b}é]{0,300}"
        ) {
            let expected: Vec<(usize, char)> = text
                .char_indices()
                .filter(|&(_, c)| {
                    is_invisible(c) || (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                })
                .collect();
            prop_assert_eq!(hidden_chars(&text).collect::<Vec<_>>(), expected);
        }
    }
}
