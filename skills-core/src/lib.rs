//! The one definition of what a compiled or loaded skill holds.
//!
//! The compiler (`skills-compiler`) lowers every valid skill into these
//! types; code generation prints them as `static`s, and the run-time loader
//! hands them over as they are. The runtime (`skills`) re-exports them. So
//! compile time and run time share one checker ([`Schema::check`]), one
//! request builder ([`Call::request`]) and one policy ([`Tool::is_offered`]),
//! and cannot disagree: the compiler checks a schema's `default` by running
//! it through the same checker a call goes through.
//!
//! ```
//! use std::borrow::Cow::Borrowed as B;
//! use skills_core::{Checks, Node, Property, Schema};
//!
//! // `{"type": "object", "properties": {"n": {"type": "integer", "default": 3}}}`
//! let schema = Schema {
//!     nodes: B(&[
//!         Node::Object {
//!             properties: B(&[Property { name: B("n"), node: 1, required: false, default: Some(B("3")) }]),
//!             additional: false,
//!             checks: B(&Checks::NONE),
//!         },
//!         Node::Integer(B(&Checks::NONE)),
//!     ]),
//! };
//! let checked = schema.check("count", &serde_json::json!({})).unwrap();
//! assert_eq!(checked["n"], 3);
//! ```

mod call;
pub mod definitions;
mod depth;
mod endpoint;
mod error;
mod file;
mod packed;
mod policy;
pub mod present;
mod schema;
mod skill;
mod tool;

pub use call::{CONFIRM_MAX_CHARS, Call};
pub use depth::MAX_DEPTH;
pub use endpoint::{Endpoint, Json, Part, check_origin, template_params, template_text};
pub use error::{RequestError, ToolCallError};
pub use file::{Bytes, Existing, File, base64, is_file_path, lower_hex, sha256_hex};
pub use packed::CompiledSkill;
#[doc(hidden)]
pub use packed::pack;
pub use policy::{Hints, Method, Policy};
pub use schema::{Checks, Node, Pattern, Property, Schema};
#[doc(hidden)]
pub use schema::{canonical_number, integer};
pub use skill::{Kind, Protocol, Section, Skill, Version};
pub use tool::Tool;

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
    let bytes = text.as_bytes();
    let [a, b, c, d, e, f] = INVISIBLE_LEADS;
    let mut first = memchr::memchr3_iter(a, b, c, bytes).peekable();
    let mut second = memchr::memchr3_iter(d, e, f, bytes).peekable();
    // The two passes' offsets, merged in order.
    let leads = std::iter::from_fn(move || match (first.peek(), second.peek()) {
        (Some(x), Some(y)) if x <= y => first.next(),
        (Some(_), Some(_)) | (None, Some(_)) => second.next(),
        (Some(_), None) => first.next(),
        (None, None) => None,
    });
    // A lead byte is never inside a character: `at` is a boundary.
    leads.filter_map(move |at| {
        let c = text.get(at..)?.chars().next()?;
        is_invisible(c).then_some((at, c))
    })
}

/// The first byte of the UTF-8 form of every character [`is_invisible`]
/// holds (U+00AD, U+061C, U+180E, U+2000 to U+2FFF, U+F000 to U+FFFF, and
/// the tags from U+E0000); a test goes through every character to hold it.
const INVISIBLE_LEADS: [u8; 6] = [0xC2, 0xD8, 0xE1, 0xE2, 0xEF, 0xF3];

/// Text in the tables: borrowed from the binary for compiled skills, owned
/// for skills loaded at run time. One type for both, so that every function
/// over skills serves both.
pub type Str = std::borrow::Cow<'static, str>;

/// A list in the tables, borrowed or owned like [`Str`].
pub type List<T> = std::borrow::Cow<'static, [T]>;

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
    }
}
