//! The commonest diagnostic, written out directly: one span on one line of
//! printable characters one or two columns wide (other than ASCII only on a
//! line that fits the terminal uncut), no labels, no fix-it, no colour.
//! annotate-snippets lays every diagnostic out on a grid of styled
//! characters, which cost a fifth of a check of the real corpus (1,581
//! diagnostics); most of them are this shape. Anything else goes to
//! annotate-snippets. The output is the same, byte for byte, long lines cut
//! as it cuts them: a property test renders both ways.

use std::fmt::Write;

use super::source::SourceFile;
use super::{Diagnostic, Severity};

/// annotate-snippets' terminal width, and the room it keeps around a span
/// and the leading whitespace it keeps when it cuts a line.
const TERM_WIDTH: usize = 140;
const ELLIPSIS_PASSING: usize = 6;
const LONG_WHITESPACE: usize = 20;
const LONG_WHITESPACE_PADDING: usize = 4;
const ELLIPSIS: &[u8] = b"...";

/// The diagnostic as annotate-snippets' plain renderer prints it, when it
/// has the one shape written here; `None` otherwise.
pub(super) fn render(diagnostic: &Diagnostic, source: &SourceFile) -> Option<String> {
    let span = diagnostic.span.as_ref()?;
    if !diagnostic.labels.is_empty()
        || diagnostic.fix.is_some()
        || span.start.line != span.end.line
        || !is_plain(&diagnostic.message)
        || !is_plain(&diagnostic.file)
        || !diagnostic.help.as_deref().is_none_or(is_plain)
    {
        return None;
    }
    // annotate-snippets puts the end of a file that ends with a line break
    // at the end of its last line, not on a line of its own.
    if span.bytes.start == source.text().len() && source.text().ends_with('\n') {
        return None;
    }
    let line = source.line_range(span.start.line);
    let text = &source.text()[line.clone()];
    // A `\r` is part of a line break only before a `\n`; alone, it is shown.
    let after = &source.text()[line.end..];
    let line_break = after.is_empty() || after.starts_with('\n') || after.starts_with("\r\n");
    if span.bytes.start < line.start || span.bytes.end > line.end || !line_break {
        return None;
    }
    // Columns are what the terminal shows: a byte each for ASCII, one or
    // two for other characters.
    let column = width(&text[..span.bytes.start - line.start])?;
    let carets = width(&source.text()[span.bytes.clone()])?.max(1);
    let line_width = width(text)?;
    let number = span.start.line.to_string();
    let gutter = " ".repeat(number.len());
    let level = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let window = Window::of(text, line_width, column, column + carets, number.len());
    // A line of other characters is written here only when it fits: where
    // annotate-snippets cuts one (at its ends, or in the middle of a span
    // twice the window wide) is its own business.
    if !text.is_ascii() && (window.left > 0 || line_width > window.width) {
        return None;
    }
    let mut out = String::with_capacity(256 + 2 * text.len());
    let _ = write!(
        out,
        "{level}[{code}]: {message}\n{gutter}--> {file}:{number}:{col}\n{gutter} |\n{number} |",
        code = diagnostic.code.as_str(),
        message = diagnostic.message,
        file = diagnostic.file,
        col = span.start.column,
    );
    let mut shown = if text.is_ascii() {
        window.show(text)
    } else {
        text.as_bytes().to_vec()
    };
    let mut underline = vec![b' '; column - window.left];
    underline.resize(underline.len() + carets, b'^');
    // A span more than twice the window wide loses its middle, in the line
    // and in the underline alike. (annotate-snippets keeps at least 5
    // columns each side for a narrow terminal; the window here is at least
    // 127 columns wide.)
    if carets > window.width * 2 {
        let pad = window.width / 3;
        let middle = column + pad - window.left..column + carets - pad - window.left;
        for row in [&mut shown, &mut underline] {
            if middle.start != middle.end && middle.end <= row.len() {
                row.splice(middle.clone(), ELLIPSIS.iter().copied());
            }
        }
    }
    if !shown.is_empty() {
        out.push(' ');
        out.push_str(&String::from_utf8_lossy(&shown));
    }
    let _ = write!(out, "\n{gutter} | {}", String::from_utf8_lossy(&underline));
    if let Some(help) = &diagnostic.help {
        let _ = write!(out, "\n{gutter} |\n{gutter} = help: {help}");
    }
    Some(out)
}

/// The columns `text` takes as annotate-snippets counts them (its
/// `char_width`: `unicode-width`), when it is printable ASCII or characters
/// one or two columns wide; `None` for tabs and other control characters,
/// which it replaces, and for characters of no width, whose carets it
/// places by rules of its own.
fn width(text: &str) -> Option<usize> {
    if printable_ascii(text) {
        return Some(text.len());
    }
    text.chars().try_fold(
        0,
        |columns, c| match unicode_width::UnicodeWidthChar::width(c) {
            Some(n @ (1 | 2)) if is_plain_char(c) => Some(columns + n),
            _ => None,
        },
    )
}

/// Text that annotate-snippets prints as it is: no line breaks, tabs or
/// other control characters, which it replaces or lays out itself, and none
/// of the joiner and text-direction characters that it replaces.
fn is_plain(text: &str) -> bool {
    printable_ascii(text) || text.chars().all(is_plain_char)
}

/// Whether every byte of `text` is printable ASCII (space to `~`), as most
/// messages, paths and lines are. One pass without an early exit, which
/// the compiler vectorises: checked a byte at a time, these checks were
/// 28 M instructions of rendering the corpus's 3,339 diagnostics.
pub(super) fn printable_ascii(text: &str) -> bool {
    text.bytes()
        .fold(true, |all, b| all & (b' '..=b'~').contains(&b))
}

fn is_plain_char(c: char) -> bool {
    !(c.is_control() || matches!(c, '\u{200d}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
}

/// The columns of a line that annotate-snippets shows (its `Margin`): the
/// whole line when it fits the terminal, else a window around the span with
/// `...` at each cut end.
struct Window {
    /// Columns for code: the terminal less the gutter.
    width: usize,
    left: usize,
    right: usize,
    cut_left: bool,
}

impl Window {
    /// The window over `text`, `len` columns wide, for the span from
    /// column `start` to `end`.
    fn of(text: &str, len: usize, start: usize, end: usize, number_width: usize) -> Self {
        let width = TERM_WIDTH.saturating_sub(3 + number_width);
        let indent = if text.bytes().all(|b| b == b' ') {
            0
        } else {
            text.len() - text.trim_start_matches(' ').len()
        };
        let whitespace_left = indent.min(start).saturating_sub(ELLIPSIS_PASSING);
        let span_left = start.saturating_sub(ELLIPSIS_PASSING);
        let span_right = end + ELLIPSIS_PASSING;
        let label_right = end + ELLIPSIS_PASSING;
        let mut left = if whitespace_left > LONG_WHITESPACE {
            whitespace_left - (LONG_WHITESPACE - LONG_WHITESPACE_PADDING)
        } else {
            0
        };
        let mut right = len.max(left);
        if right - left > width {
            if label_right.saturating_sub(whitespace_left) <= width
                && label_right >= whitespace_left
            {
                left = whitespace_left;
                right = left + width;
            } else if label_right - span_left <= width {
                left = span_left.saturating_sub((width - (label_right - span_left)) / 2);
                right = left + width;
            } else if span_right - span_left <= width {
                left = span_left.saturating_sub((width - (span_right - span_left)) / 5 * 2);
                right = left + width;
            } else {
                left = span_left;
                right = span_right;
            }
        }
        let cut_left = left > 0;
        let right = if len.saturating_sub(left) <= width {
            len
        } else {
            len.min(right)
        };
        Window {
            width,
            left: left.min(len),
            right,
            cut_left,
        }
    }

    /// The shown part of `text`, with `...` over its first and last three
    /// columns where it was cut.
    fn show(&self, text: &str) -> Vec<u8> {
        let code = &text.as_bytes()[self.left..self.right.max(self.left)];
        let mut row: Vec<u8> = Vec::with_capacity(code.len());
        let taken = if self.cut_left {
            put(&mut row, 0, ELLIPSIS);
            code.len().min(ELLIPSIS.len())
        } else {
            0
        };
        put(&mut row, taken, &code[taken..]);
        if text.len() > self.right {
            put(
                &mut row,
                code.len() - code.len().min(ELLIPSIS.len()),
                ELLIPSIS,
            );
        }
        row
    }
}

/// annotate-snippets' `puts`: writes over what is there, widening the row
/// with spaces; an empty string changes nothing.
fn put(row: &mut Vec<u8>, at: usize, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    if row.len() < at + bytes.len() {
        row.resize(at + bytes.len(), b' ');
    }
    row[at..at + bytes.len()].copy_from_slice(bytes);
}
