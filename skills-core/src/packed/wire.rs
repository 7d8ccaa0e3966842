//! The bytes of a packed table: the varints, bytes and texts a [`Writer`]
//! writes and a [`Reader`] reads back, and why bytes do not read
//! ([`Unpacked`]). What the bytes mean is the business of `packed` and
//! `packed::json`, both of which write and read through these.

use std::collections::BTreeMap;
use std::ops::Range;

/// Strings shorter than this are inline: an offset and a length would not
/// be shorter.
const SHORTEST_REFERENCE: usize = 4;

/// The low two bits of a text's head: its bytes follow (the rest of the
/// head is their length), it is in the skill file (the rest is its offset;
/// its length follows), or it was written before (the rest is its number).
const INLINE: u64 = 0;
const IN_SOURCE: u64 = 1;
const AGAIN: u64 = 2;

/// Why packed bytes do not unpack: where, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unpacked {
    /// The byte offset in the packed table.
    at: usize,
    expected: &'static str,
}

impl std::fmt::Display for Unpacked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: expected {}", self.at, self.expected)
    }
}

impl std::error::Error for Unpacked {}

/// Writes a skill's tables: bytes, varints and texts.
pub(super) struct Writer<'a> {
    pub(super) bytes: Vec<u8>,
    pub(super) source: &'a str,
    /// Where the body starts in `source` (sections count from there).
    pub(super) body_start: usize,
    /// Where in `source` a string may be found as it is: the frontmatter,
    /// or a heading's line while its section is written.
    pub(super) window: Range<usize>,
    /// Every text written so far but the empty one, numbered in order.
    texts: BTreeMap<String, usize>,
    /// The JSON arrays and objects packed so far, each by its text,
    /// numbered in the order they were finished (`json`).
    pub(super) json_numbers: BTreeMap<String, usize>,
}

impl<'a> Writer<'a> {
    /// A writer of tables whose texts may be found in `window` of the
    /// skill file `source`, whose body starts at `body_start`.
    pub(super) fn new(source: &'a str, body_start: usize, window: Range<usize>) -> Self {
        Writer {
            bytes: Vec::new(),
            source,
            body_start,
            window,
            texts: BTreeMap::new(),
            json_numbers: BTreeMap::new(),
        }
    }

    pub(super) fn byte(&mut self, byte: u8) {
        self.bytes.push(byte);
    }

    pub(super) fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.bytes.push((value as u8 & 0x7f) | 0x80);
            value >>= 7;
        }
        self.bytes.push(value as u8);
    }

    pub(super) fn count(&mut self, count: usize) {
        self.varint(count as u64);
    }

    /// `text` as the number of the same text written before, as a
    /// reference into the window of the source when it is there, or
    /// inline: a varint whose low two bits say which, then the length
    /// (reference) or the bytes (inline).
    pub(super) fn text(&mut self, text: &str) {
        if let Some(number) = self.texts.get(text) {
            self.varint(((*number as u64) << 2) | AGAIN);
            return;
        }
        let found = (text.len() >= SHORTEST_REFERENCE)
            .then(|| self.source.get(self.window.clone()))
            .flatten()
            .and_then(|window| window.find(text))
            .map(|offset| self.window.start + offset);
        match found {
            Some(offset) => {
                self.varint(((offset as u64) << 2) | IN_SOURCE);
                self.count(text.len());
            }
            None => {
                self.varint(((text.len() as u64) << 2) | INLINE);
                self.bytes.extend_from_slice(text.as_bytes());
            }
        }
        if !text.is_empty() {
            let number = self.texts.len();
            self.texts.insert(text.to_owned(), number);
        }
    }
}

/// Reads what a [`Writer`] wrote.
pub(super) struct Reader {
    bytes: &'static [u8],
    at: usize,
    source: &'static str,
    /// Every text read so far but the empty one, in order: what the
    /// writer's numbers of texts written before point to.
    texts: Vec<&'static str>,
    /// The JSON text unpacked so far, one text after the other (`json`).
    pub(super) json_text: Vec<u8>,
    /// Where in `json_text` each numbered array or object is.
    pub(super) json_numbered: Vec<Range<usize>>,
}

impl Reader {
    /// A reader of `bytes`, whose texts are in the skill file `source`.
    pub(super) fn new(bytes: &'static [u8], source: &'static str) -> Self {
        Reader {
            bytes,
            at: 0,
            source,
            texts: Vec::new(),
            json_text: Vec::new(),
            json_numbered: Vec::new(),
        }
    }

    /// Where the reader is, in bytes from the start.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    /// How many bytes are left to read.
    pub(super) fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// The error of what was expected `back` bytes before where the
    /// reader is.
    pub(super) fn error_before(&self, back: usize, expected: &'static str) -> Unpacked {
        Unpacked {
            at: self.at.saturating_sub(back),
            expected,
        }
    }

    pub(super) fn byte(&mut self) -> Result<u8, Unpacked> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.error_before(0, "a byte"))?;
        self.at += 1;
        Ok(byte)
    }

    pub(super) fn peek(&self) -> Result<u8, Unpacked> {
        self.bytes
            .get(self.at)
            .copied()
            .ok_or_else(|| self.error_before(0, "a byte"))
    }

    pub(super) fn take(&mut self, len: usize) -> Result<&'static [u8], Unpacked> {
        let end = self.at.checked_add(len);
        let taken = end
            .and_then(|end| self.bytes.get(self.at..end))
            .ok_or_else(|| self.error_before(0, "as many bytes as the length says"))?;
        self.at += len;
        Ok(taken)
    }

    pub(super) fn varint(&mut self) -> Result<u64, Unpacked> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error_before(1, "a varint of at most ten bytes"))
    }

    pub(super) fn usize(&mut self) -> Result<usize, Unpacked> {
        let value = self.varint()?;
        usize::try_from(value).map_err(|_| self.error_before(1, "a number that fits usize"))
    }

    pub(super) fn text(&mut self) -> Result<&'static str, Unpacked> {
        let head = self.usize()?;
        let source = self.source;
        let text = match (head & 3) as u64 {
            INLINE => {
                let bytes = self.take(head >> 2)?;
                std::str::from_utf8(bytes).map_err(|_| self.error_before(0, "UTF-8 text"))?
            }
            IN_SOURCE => {
                let start = head >> 2;
                let len = self.usize()?;
                start
                    .checked_add(len)
                    .and_then(|end| source.get(start..end))
                    .ok_or_else(|| self.error_before(1, "a range of the skill file's text"))?
            }
            AGAIN => {
                return self
                    .texts
                    .get(head >> 2)
                    .copied()
                    .ok_or_else(|| self.error_before(1, "the number of a text before"));
            }
            _ => return Err(self.error_before(1, "the head of a text")),
        };
        if !text.is_empty() {
            self.texts.push(text);
        }
        Ok(text)
    }
}
