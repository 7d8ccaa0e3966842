//! Source files as the compiler sees them: a display path plus text, with the
//! line index every diagnostic needs to turn a byte offset into `line:column`.

use std::ops::Range;

/// One file the compiler read, kept so that diagnostics can quote it.
///
/// `path` is relative to the crate (forward slashes, never absolute), so
/// rendered diagnostics and generated code are the same on every machine.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: String,
    text: String,
    /// Built on the first diagnostic that needs a line: most files have none.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

/// A 1-based line and column (columns count characters, as rustc does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            text: text.into(),
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// The byte offset where each line starts.
    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line and column of a byte offset; offsets past the end or inside a
    /// UTF-8 sequence are clamped to the nearest valid position.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line_starts = self.line_starts();
        let line = line_starts.partition_point(|&start| start <= offset) - 1;
        let start = line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        LineCol {
            line: to_u32(line + 1),
            column: to_u32(column),
        }
    }

    /// The whole lines that `bytes` touches, line breaks included, and the
    /// 1-based number of the first: enough of the file to quote a span.
    pub fn lines_around(&self, bytes: Range<usize>) -> (Range<usize>, usize) {
        let line_starts = self.line_starts();
        let line_of = |offset: usize| line_starts.partition_point(|&start| start <= offset) - 1;
        let (first, last) = (line_of(bytes.start), line_of(bytes.end.max(bytes.start)));
        let end = line_starts
            .get(last + 1)
            .map_or(self.text.len(), |&next| next);
        (line_starts[first]..end, first + 1)
    }

    /// The byte range of the 1-based line `line`, without its line break.
    pub fn line_range(&self, line: u32) -> Range<usize> {
        let line_starts = self.line_starts();
        let index = (line as usize).saturating_sub(1).min(line_starts.len() - 1);
        let start = line_starts[index];
        let end = line_starts
            .get(index + 1)
            .map_or(self.text.len(), |next| next - 1);
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        start..end
    }
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
    fn offsets_inside_a_character_or_past_the_end_are_clamped() {
        let file = SourceFile::new("a.md", "é");
        assert_eq!(file.line_col(1), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(99), LineCol { line: 1, column: 2 });
    }
}

/// The files a compilation read that have a diagnostic, by display path, for
/// renderers to quote.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: std::collections::BTreeMap<String, SourceFile>,
}

impl Sources {
    pub fn insert(&mut self, file: SourceFile) {
        self.files.insert(file.path.clone(), file);
    }

    /// Adds every file of `other`.
    pub fn extend(&mut self, other: Sources) {
        self.files.extend(other.files);
    }

    pub fn get(&self, path: &str) -> Option<&SourceFile> {
        self.files.get(path)
    }

    /// The display paths of every file read, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }
}
