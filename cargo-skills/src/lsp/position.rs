//! Byte offsets of a document and the protocol's positions: a line, and a
//! character counted in UTF-16 code units (LSP's default encoding).

use lsp_types::Position;

/// Where each line of a text starts, for mapping offsets both ways.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// The byte offset of each line's start; the first is 0.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`'s lines (ended by `\n`; a `\r` before it is
    /// the line's last character, as the compiler counts).
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        LineIndex { starts }
    }

    /// The position of byte `offset` of `text`, clamped to the text and
    /// to a character's start.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(saturate(line), saturate(character))
    }

    /// The byte offset of `position` in `text`: a line past the end is the
    /// end, a character past its line's end is the line's end, and one in
    /// the middle of a surrogate pair is the character's start.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |next| next - 1);
        let mut units = 0;
        for (at, character) in text[start..end].char_indices() {
            units += character.len_utf16();
            if units > position.character as usize {
                return start + at;
            }
        }
        end
    }
}

fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_offsets_are_columns() {
        let text = "ab\ncd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), Position::new(0, 0));
        assert_eq!(index.position(text, 4), Position::new(1, 1));
        assert_eq!(index.position(text, 6), Position::new(2, 0));
        assert_eq!(index.offset(text, Position::new(1, 1)), 4);
    }

    #[test]
    fn characters_count_in_utf16_units_across_multibyte_text() {
        // `é` is 2 bytes and 1 unit; `𝄞` is 4 bytes and 2 units; `日` 3 and 1.
        let text = "é𝄞日x\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 2), Position::new(0, 1));
        assert_eq!(index.position(text, 6), Position::new(0, 3));
        assert_eq!(index.position(text, 9), Position::new(0, 4));
        assert_eq!(index.offset(text, Position::new(0, 3)), 6);
        assert_eq!(index.offset(text, Position::new(0, 4)), 9);
        // Inside the surrogate pair: the character's start.
        assert_eq!(index.offset(text, Position::new(0, 2)), 2);
    }

    #[test]
    fn an_offset_inside_a_character_or_past_the_end_is_clamped() {
        let text = "é\r\nz";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 1), Position::new(0, 0));
        assert_eq!(index.position(text, 99), Position::new(1, 1));
        // The CR is the first line's last character.
        assert_eq!(index.position(text, 3), Position::new(0, 2));
        assert_eq!(index.offset(text, Position::new(0, 99)), 3);
        assert_eq!(index.offset(text, Position::new(7, 0)), text.len());
    }

    #[test]
    fn every_offset_maps_to_a_position_that_maps_back_to_a_character_start() {
        let text = "a\u{1F600}b\né\n\n日本\r\n";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() {
            let back = index.offset(text, index.position(text, offset));
            assert!(text.is_char_boundary(back), "{offset} -> {back}");
            assert!(back <= offset, "{offset} -> {back}");
        }
    }
}
