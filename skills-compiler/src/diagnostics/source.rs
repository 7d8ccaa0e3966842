//! Source files as the compiler sees them: a display path plus text, and
//! the `line:column` of a byte offset that every diagnostic needs.

use std::ops::Range;
use std::sync::Mutex;

/// One file the compiler read, kept so that diagnostics can quote it.
///
/// `path` is relative to the crate (forward slashes, never absolute), so
/// rendered diagnostics and generated code are the same on every machine.
///
/// Lines are found by scanning: most diagnostics sit in the first lines
/// (the frontmatter), and most files have none, so an index of every line
/// of every file cost more than the scans (5% of a check of a real
/// collection). Diagnostics of one file mostly come in the order of their
/// offsets (keys of the frontmatter, link targets of the body), so the last
/// offset looked up is kept with its line, and the next scan starts there:
/// a file's diagnostics cost one pass over it, not one each. An offset
/// before the last one scans from the start up to `SCAN_UP_TO` bytes, and
/// past that reads an index built once, so that no order is quadratic.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: String,
    /// Shared: a file is kept by every compilation whose diagnostics quote
    /// it (one lock, by each of a command line's skills), copied once.
    text: std::sync::Arc<str>,
    line_starts: std::sync::OnceLock<Vec<usize>>,
    last: LastLine,
}

/// The last offset turned into a line: the offset, its 0-based line and
/// where that line starts.
#[derive(Debug, Default)]
struct LastLine(Mutex<Option<(usize, usize, usize)>>);

impl LastLine {
    fn get(&self) -> Option<(usize, usize, usize)> {
        *self.0.lock().ok()?
    }

    fn set(&self, offset: usize, line: usize, start: usize) {
        if let Ok(mut last) = self.0.lock() {
            *last = Some((offset, line, start));
        }
    }
}

impl Clone for LastLine {
    fn clone(&self) -> Self {
        LastLine(Mutex::new(self.get()))
    }
}

/// Offsets up to here are turned into lines by scanning (small in unit tests,
/// so that their property test covers both ways).
const SCAN_UP_TO: usize = if cfg!(test) { 16 } else { 16 * 1024 };

/// A 1-based line and column (columns count characters, as rustc does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
}

impl SourceFile {
    /// A file at `path` (as diagnostics show it) with its text.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            text: text.into().into(),
            line_starts: std::sync::OnceLock::new(),
            last: LastLine::default(),
        }
    }

    /// The 0-based line of `offset` (a char boundary) and the byte where it starts.
    fn line_at(&self, offset: usize) -> (usize, usize) {
        let (line, start) = match self.last.get() {
            Some((last, line, start)) if last <= offset => {
                let between = &self.text[last..offset];
                match between.rfind('\n') {
                    None => (line, start),
                    Some(at) => (line + count_newlines(between), last + at + 1),
                }
            }
            _ if offset <= SCAN_UP_TO => {
                let before = &self.text[..offset];
                (count_newlines(before), line_start(before))
            }
            _ => {
                let starts = self.line_starts();
                let line = starts.partition_point(|&start| start <= offset) - 1;
                (line, starts[line])
            }
        };
        self.last.set(offset, line, start);
        (line, start)
    }

    /// Where the 0-based `line` starts; past the last line, where the last starts.
    ///
    /// Rendering quotes each diagnostic's lines in the order of the file, so
    /// the scan goes on from the last line looked up when it is at or before
    /// `line`, as [`SourceFile::line_at`]'s does; at most `SCAN_UP_TO`
    /// bytes are scanned before the index is built instead.
    fn start_of(&self, line: usize) -> usize {
        if line == 0 {
            return 0;
        }
        if let Some(starts) = self.line_starts.get() {
            return starts[line.min(starts.len() - 1)];
        }
        let (from_line, from) = match self.last.get() {
            Some((_, last_line, start)) if last_line <= line => (last_line, start),
            _ => (0, 0),
        };
        if from_line == line {
            return from;
        }
        let end = self.text.len().min(from.saturating_add(SCAN_UP_TO));
        let window = &self.text.as_bytes()[from..end];
        if let Some(at) = memchr::memchr_iter(b'\n', window).nth(line - from_line - 1) {
            let start = from + at + 1;
            self.last.set(start, line, start);
            return start;
        }
        let starts = self.line_starts();
        starts[line.min(starts.len() - 1)]
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// The path, as diagnostics show it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line and column of a byte offset; offsets past the end or inside a
    /// UTF-8 sequence are clamped to the nearest valid position.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let (line, start) = self.line_at(offset);
        LineCol {
            line: to_u32(line + 1),
            column: to_u32(self.text[start..offset].chars().count() + 1),
        }
    }

    /// The whole lines that `bytes` touches, line breaks included, and the
    /// 1-based number of the first: enough of the file to quote a span.
    pub fn lines_around(&self, bytes: Range<usize>) -> (Range<usize>, usize) {
        let clamp = |offset: usize| floor_char_boundary(&self.text, offset.min(self.text.len()));
        let (from, to) = (clamp(bytes.start), clamp(bytes.end.max(bytes.start)));
        let (line, start) = self.line_at(from);
        let end = self.text[to..]
            .find('\n')
            .map_or(self.text.len(), |at| to + at + 1);
        (start..end, line + 1)
    }

    /// How many lines the text has (a final line break starts no new one).
    pub fn line_count(&self) -> u32 {
        let starts = self.line_starts().len();
        let empty_last = self.text.ends_with('\n') || self.text.is_empty();
        (starts - usize::from(empty_last && starts > 0)) as u32
    }

    /// The byte range of the 1-based line `line`, without its line break.
    pub fn line_range(&self, line: u32) -> Range<usize> {
        let start = self.start_of((line as usize).saturating_sub(1));
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |at| start + at);
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        start..end
    }
}

/// Where the line that `before` ends in starts.
fn line_start(before: &str) -> usize {
    before.rfind('\n').map_or(0, |at| at + 1)
}

/// The `\n` bytes of `text`, counted in blocks of at most 255 into a byte:
/// the compiler then compares and adds 16 or 32 bytes at a time, where a
/// plain `filter().count()` widens every byte to a `usize`.
pub(crate) fn count_newlines(text: &str) -> usize {
    text.as_bytes()
        .chunks(255)
        .map(|block| {
            let in_block: u8 = block.iter().map(|&b| u8::from(b == b'\n')).sum();
            usize::from(in_block)
        })
        .sum()
}

/// The largest char boundary at or below `offset`.
pub(crate) fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_and_lines_start_at_one() {
        let file = SourceFile::new("a.md", "ab\r\néé x\n");
        assert_eq!(file.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(4), LineCol { line: 2, column: 1 });
        // `x` sits after two two-byte characters and a space.
        assert_eq!(file.line_col(9), LineCol { line: 2, column: 4 });
        assert_eq!(&file.text()[file.line_range(1)], "ab");
        assert_eq!(&file.text()[file.line_range(2)], "éé x");
    }

    #[test]
    fn lines_around_a_span_are_whole_lines_with_their_breaks() {
        let file = SourceFile::new("a.md", "one\ntwo\r\nthree\nfour");
        assert_eq!(file.lines_around(5..6), (4..9, 2));
        assert_eq!(&file.text()[file.lines_around(5..11).0], "two\r\nthree\n");
        // A span that ends with a line break reaches into the next line.
        assert_eq!(file.lines_around(0..4), (0..9, 1));
        assert_eq!(file.lines_around(19..19), (15..19, 4));
        assert_eq!(file.lines_around(99..99), (15..19, 4));
    }

    #[test]
    fn newlines_are_counted_across_blocks() {
        for text in [
            "",
            "\n",
            "a\nb",
            &"x\n".repeat(300),
            &"\n".repeat(255 * 3 + 7),
        ] {
            assert_eq!(count_newlines(text), text.matches('\n').count(), "{text:?}");
        }
    }

    /// Lines by scanning agree with lines from an index of every line start
    /// (the way this file worked before), on text with CRLF, blank lines and
    /// multi-byte characters, at every offset.
    mod against_an_index {
        use super::*;
        use proptest::prelude::*;

        fn starts(text: &str) -> Vec<usize> {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        }

        fn line_of(starts: &[usize], offset: usize) -> usize {
            starts.partition_point(|&start| start <= offset) - 1
        }

        /// Where `offset` is, read from the index `starts` of `text`.
        fn expected_line_col(text: &str, starts: &[usize], offset: usize) -> LineCol {
            let at = floor_char_boundary(text, offset.min(text.len()));
            let line = line_of(starts, at);
            let column = text[starts[line]..at].chars().count() + 1;
            LineCol {
                line: to_u32(line + 1),
                column: to_u32(column),
            }
        }

        /// The 1-based line `number` of `text` without its line break, read
        /// from the index `starts` (past the last line, the last).
        fn expected_line_range(text: &str, starts: &[usize], number: u32) -> Range<usize> {
            let index = (number as usize - 1).min(starts.len() - 1);
            let start = starts[index];
            let end = starts.get(index + 1).map_or(text.len(), |next| next - 1);
            let end = if text[start..end].ends_with('\r') {
                end - 1
            } else {
                end
            };
            start..end
        }

        proptest! {
            /// Offsets looked up in any order (the scan starts from the
            /// last one when it can) get the lines an index gives.
            #[test]
            fn lines_in_any_order_of_offsets(
                text in "[a\n\r é😀]{0,40}",
                order in proptest::collection::vec(0usize..48, 0..24),
            ) {
                let file = SourceFile::new("a.md", text.clone());
                let starts = starts(&text);
                for offset in order {
                    prop_assert_eq!(file.line_col(offset), expected_line_col(&text, &starts, offset));
                }
            }

            /// Lines quoted in any order, between look-ups of offsets (a
            /// renderer's order), are the lines an index gives.
            #[test]
            fn line_ranges_in_any_order_between_offsets(
                text in "[a\n\r é😀]{0,40}",
                order in proptest::collection::vec((1u32..24, 0usize..48), 0..24),
            ) {
                let file = SourceFile::new("a.md", text.clone());
                let starts = starts(&text);
                for (number, offset) in order {
                    prop_assert_eq!(file.line_range(number), expected_line_range(&text, &starts, number));
                    prop_assert_eq!(file.line_col(offset), expected_line_col(&text, &starts, offset));
                }
            }

            #[test]
            fn line_col_lines_around_and_line_range(text in "[a\n\r é😀]{0,40}") {
                let file = SourceFile::new("a.md", text.clone());
                let starts = starts(&text);
                for offset in 0..=text.len() + 1 {
                    let at = floor_char_boundary(&text, offset.min(text.len()));
                    let line = line_of(&starts, at);
                    let column = text[starts[line]..at].chars().count() + 1;
                    prop_assert_eq!(
                        file.line_col(offset),
                        LineCol { line: to_u32(line + 1), column: to_u32(column) }
                    );
                    for end in offset..=text.len() {
                        let end_at = floor_char_boundary(&text, end);
                        let last = line_of(&starts, end_at);
                        let stop = starts.get(last + 1).copied().unwrap_or(text.len());
                        prop_assert_eq!(file.lines_around(offset..end), (starts[line]..stop, line + 1));
                    }
                }
                for number in 1..=starts.len() as u32 + 1 {
                    prop_assert_eq!(file.line_range(number), expected_line_range(&text, &starts, number));
                }
            }
        }
    }

    #[test]
    fn offsets_inside_a_character_or_past_the_end_are_clamped() {
        let file = SourceFile::new("a.md", "é");
        assert_eq!(file.line_col(1), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(99), LineCol { line: 1, column: 2 });
    }
}

/// The files a compilation read that have a diagnostic, by display path, for
/// renderers to quote.
#[derive(Clone, Default)]
pub struct Sources {
    files: std::collections::BTreeMap<String, SourceFile>,
}

/// Each file's path and length, never its text: a root's sources are
/// megabytes, and whatever holds them (a load error under `expect`, a
/// compilation in a test's assertion) prints its `Debug`.
impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(
                self.files
                    .iter()
                    .map(|(path, file)| (path, format!("{} bytes", file.text.len()))),
            )
            .finish()
    }
}

/// The same files with the same texts.
impl PartialEq for Sources {
    fn eq(&self, other: &Sources) -> bool {
        self.files.len() == other.files.len()
            && (self.files.iter().zip(&other.files))
                .all(|((a, x), (b, y))| a == b && x.text == y.text)
    }
}

impl Eq for Sources {}

impl Sources {
    /// Adds a file (another at the same path is replaced).
    pub fn insert(&mut self, file: SourceFile) {
        self.files.insert(file.path.clone(), file);
    }

    /// Adds every file of `other`.
    pub fn extend(&mut self, other: Sources) {
        self.files.extend(other.files);
    }

    /// The file at `path`, when it was kept.
    pub fn get(&self, path: &str) -> Option<&SourceFile> {
        self.files.get(path)
    }

    /// The display paths of every file read, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }
}
