//! What the two readers of a body (the block-wise `targets` and the
//! inline scanner `inline`) share: the [`Target`] they report, and the
//! line-level syntax both read (lines, container markers, where a
//! destination is written, which code spans name a path). A leaf: it
//! imports neither reader.

use std::ops::Range;

/// The folders a backticked path must start with to be checked: the Agent
/// Skills layout's own.
pub(crate) const LAYOUT_FOLDERS: [&str; 3] = ["scripts/", "references/", "assets/"];

// [`candidates`] finds the folders by the `s/` they end with.
const _: () = {
    let mut i = 0;
    while i < LAYOUT_FOLDERS.len() {
        let folder = LAYOUT_FOLDERS[i].as_bytes();
        assert!(folder[folder.len() - 2] == b's' && folder[folder.len() - 1] == b'/');
        i += 1;
    }
};

/// A link target or backticked path in the body, with where its text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    pub text: String,
    /// Within the body.
    pub span: Range<usize>,
    pub kind: TargetKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TargetKind {
    Link,
    /// A reference definition, by its label (case-folded): only the first
    /// of a label counts, as markdown reads it.
    Definition(String),
    Code,
}

/// `line` past its container markers: block quote `>`s, list bullets and
/// numbers, and the spaces between.
pub(crate) fn after_markers(line: &str) -> &str {
    let mut rest = line.trim_start_matches(' ');
    loop {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let marker = match rest.as_bytes().get(digits) {
            Some(b'.' | b')') if (1..=9).contains(&digits) => digits + 1,
            Some(b'-' | b'*' | b'+') if digits == 0 => 1,
            Some(b'>') if digits == 0 => 1,
            _ => return rest,
        };
        let after = &rest[marker..];
        let spaced = after.trim_start_matches(' ');
        if spaced.len() == after.len() && rest.as_bytes()[marker - 1] != b'>' && !after.is_empty() {
            // `-x` or `1.x` is text, not a marker.
            return rest;
        }
        rest = spaced;
    }
}

/// Each line of `text` with its offset, line break included.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut breaks = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut at = 0;
    std::iter::from_fn(move || {
        if at == text.len() {
            return None;
        }
        let end = breaks.next().map_or(text.len(), |i| i + 1);
        let line = (at, &text[at..end]);
        at = end;
        Some(line)
    })
}

/// The span of `dest` in `range` of `body`: its last occurrence (a link's
/// destination follows its text), or the whole range when it was written
/// with escapes.
pub(crate) fn locate(body: &str, range: Range<usize>, dest: &str) -> Range<usize> {
    match body.get(range.clone()).and_then(|raw| raw.rfind(dest)) {
        Some(at) if !dest.is_empty() => range.start + at..range.start + at + dest.len(),
        _ => range,
    }
}

/// The path a code span names, when it starts with a layout folder: its
/// first word, without a leading `./`. Globs and placeholders are not paths.
pub(crate) fn code_path(code: &str) -> Option<&str> {
    let trimmed = code.trim_start();
    let trimmed = trimmed.strip_prefix("./").unwrap_or(trimmed);
    if !LAYOUT_FOLDERS
        .iter()
        .any(|folder| trimmed.starts_with(folder))
    {
        return None;
    }
    let word = trimmed.split_whitespace().next()?;
    if word.contains(['*', '?', '[', ']', '{', '}', '<', '>', '$', '%', '|'])
        || word.contains("...")
    {
        return None;
    }
    Some(word)
}
