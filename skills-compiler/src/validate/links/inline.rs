//! The targets of a plain block, found without a markdown parser: most
//! blocks that name a file are a paragraph or a list item with an inline
//! link, and parsing each with pulldown-cmark was most of link checking's
//! cost.
//!
//! A block is plain when nothing in it can change how markdown reads a link
//! or a code span: no escape (`\`), no entity (`&amp;`), no HTML that holds
//! brackets, parentheses, backticks or quotes, no line that starts
//! something other than text (an HTML block, a fence, indented code, a
//! reference definition), no nested brackets, no `][`, and no link,
//! destination or code span over two lines. For anything else [`targets`]
//! says [`Unsure`] and pulldown-cmark reads the block. Tests hold the two to the same targets, on the corpus and on
//! generated blocks.

use std::ops::Range;

use super::syntax::{Target, TargetKind, after_markers, code_path, lines, locate};

/// Past what the scanner reads alone: pulldown-cmark reads the block.
#[derive(Debug)]
pub(super) struct Unsure;

/// More backtick strings than this in one block: pulldown-cmark reads it
/// (matching them here is quadratic in their number).
const MAX_BACKTICK_STRINGS: usize = 64;

/// The targets of `block` as pulldown-cmark finds them (every inline link
/// and image, every code span that names a layout path), in block order.
pub(super) fn targets(block: &str) -> Result<Vec<Target>, Unsure> {
    if !is_plain(block) {
        return Err(Unsure);
    }
    let code = code_spans(block)?;
    let mut found: Vec<Target> = code
        .iter()
        .filter_map(|span| code_target(block, span))
        .collect();
    links(block, &code, &mut found)?;
    found.sort_by_key(|target| target.span.start);
    Ok(found)
}

fn is_plain(block: &str) -> bool {
    let bytes = block.as_bytes();
    let may_define = memchr::memchr_iter(b']', bytes).any(|at| bytes.get(at + 1) == Some(&b':'));
    memchr::memchr3_iter(b'\\', b'&', b'<', bytes).all(|at| match bytes[at] {
        b'&' => !starts_entity(&bytes[at + 1..]),
        b'<' => is_opaque_tag(&bytes[at + 1..]),
        _ => false,
    }) && lines(block).all(|(_, line)| is_text_line(line, may_define))
}

/// Whether `line` holds only text and container markers: it does not start
/// something a scan of its bytes would misread (an HTML block, a fence,
/// indented code, a reference definition when `may_define`).
fn is_text_line(line: &str, may_define: bool) -> bool {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() >= 4 {
        return false;
    }
    let content = match trimmed.as_bytes().first() {
        Some(b'-' | b'*' | b'+' | b'>' | b'0'..=b'9') => after_markers(line),
        _ => trimmed,
    };
    let prefix = &line.as_bytes()[..line.len() - content.len()];
    let spaces_in_a_row = prefix.split(|&b| b != b' ').map(<[u8]>::len).max();
    !(spaces_in_a_row >= Some(4)
        || content.starts_with(['\t', '<'])
        || content.starts_with("```")
        || content.starts_with("~~~")
        || (may_define && content.starts_with('[')))
}

/// Whether the text after a `&` makes it an entity or a numeric
/// character reference (`&amp;`, `&#35;`), which markdown decodes.
fn starts_entity(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take(32)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
        .count();
    name > 0 && rest.get(name) == Some(&b';')
}

/// Whether the text after a `<` closes on its line with nothing in
/// between that a link or a code span is made of: then it reads the same
/// whether markdown takes it for HTML, an autolink or text (`<name>`,
/// `<https://x.dev>`, `a < b`).
fn is_opaque_tag(rest: &[u8]) -> bool {
    // A comment or a processing instruction runs to its own end marker,
    // past any `>`.
    if rest.starts_with(b"!--") || rest.starts_with(b"?") {
        return false;
    }
    let Some(close) = memchr::memchr2(b'>', b'\n', rest) else {
        return false;
    };
    rest[close] == b'>'
        && !rest[..close].iter().any(|b| {
            matches!(
                b,
                b'<' | b'[' | b']' | b'(' | b')' | b'`' | b'"' | b'\'' | b'\r'
            )
        })
}

/// The code spans of `block`, backticks included: a string of backticks
/// up to the next string of the same length; one that has none is text.
fn code_spans(block: &str) -> Result<Vec<Range<usize>>, Unsure> {
    let bytes = block.as_bytes();
    let run = |at: usize| bytes[at..].iter().take_while(|&&b| b == b'`').count();
    let mut spans = Vec::new();
    let mut strings = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'`', &bytes[at..]) {
        let open = at + found;
        let n = run(open);
        let mut search = open + n;
        let mut close = None;
        while let Some(found) = memchr::memchr(b'`', &bytes[search..]) {
            strings += 1;
            if strings > MAX_BACKTICK_STRINGS {
                return Err(Unsure);
            }
            let candidate = search + found;
            let m = run(candidate);
            if m == n {
                close = Some(candidate);
                break;
            }
            search = candidate + m;
        }
        match close {
            Some(close) if bytes[open..close].contains(&b'\n') => return Err(Unsure),
            Some(close) => {
                spans.push(open..close + n);
                at = close + n;
            }
            None => at = open + n,
        }
    }
    Ok(spans)
}

/// The layout path the code span at `span` names, if any.
fn code_target(block: &str, span: &Range<usize>) -> Option<Target> {
    let ticks = block[span.clone()]
        .bytes()
        .take_while(|&b| b == b'`')
        .count();
    let content = &block[span.start + ticks..span.end - ticks];
    let path = code_path(content)?;
    let start = span.start + block[span.clone()].find(path)?;
    Some(Target {
        text: path.to_owned(),
        span: start..start + path.len(),
        kind: TargetKind::Code,
    })
}

/// Every inline link and image outside the code spans `code`.
fn links(block: &str, code: &[Range<usize>], found: &mut Vec<Target>) -> Result<(), Unsure> {
    let bytes = block.as_bytes();
    let mut code = code.iter().peekable();
    let mut opener: Option<usize> = None;
    let mut from = 0;
    while let Some(offset) = memchr::memchr2(b'[', b']', &bytes[from..]) {
        let at = from + offset;
        from = at + 1;
        while code.next_if(|span| span.end <= at).is_some() {}
        if let Some(span) = code.peek()
            && span.start <= at
        {
            from = span.end;
            continue;
        }
        if bytes[at] == b'[' {
            if opener.is_some() {
                return Err(Unsure);
            }
            opener = Some(at);
            continue;
        }
        // A `]` without an opener is text.
        let Some(open) = opener.take() else {
            continue;
        };
        if bytes[open..at].contains(&b'\n') {
            return Err(Unsure);
        }
        match bytes.get(at + 1) {
            Some(b'[') => return Err(Unsure),
            Some(b'(') => {
                if let Some(link) = destination(block, at + 1)? {
                    let start = if open > 0 && bytes[open - 1] == b'!' {
                        open - 1
                    } else {
                        open
                    };
                    let dest = &block[link.dest.clone()];
                    // Where a parse says the destination is: its last
                    // occurrence in the link, which is where it is
                    // written unless the title holds it too.
                    let span = if link.titled {
                        locate(block, start..link.end, dest)
                    } else {
                        link.dest.clone()
                    };
                    found.push(Target {
                        span,
                        text: dest.to_owned(),
                        kind: TargetKind::Link,
                    });
                    from = link.end;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// An inline link's destination and end.
struct InlineLink {
    /// The destination, within the block.
    dest: Range<usize>,
    /// Past the link's `)`.
    end: usize,
    /// Whether the link has a title.
    titled: bool,
}

/// The inline destination that starts with the `(` at `paren`, or `None`
/// when this is not a link (markdown then reads the brackets as text).
fn destination(block: &str, paren: usize) -> Result<Option<InlineLink>, Unsure> {
    let bytes = block.as_bytes();
    let mut at = separator(bytes, paren + 1)?;
    let start = at;
    while let Some(&b) = bytes.get(at) {
        match b {
            0..=b' ' | b')' => break,
            b'(' | b'`' | b'<' => return Err(Unsure),
            _ => at += 1,
        }
    }
    if at == start {
        return Err(Unsure);
    }
    let dest = start..at;
    at = separator(bytes, at)?;
    let mut titled = false;
    if let Some(&quote @ (b'"' | b'\'')) = bytes.get(at) {
        let Some(len) = memchr::memchr(quote, &bytes[at + 1..]) else {
            return Ok(None);
        };
        let title = &bytes[at + 1..at + 1 + len];
        // A backtick would start a code span for this scanner, and not
        // inside a title for markdown.
        if title.contains(&b'\n') || title.contains(&b'`') {
            return Err(Unsure);
        }
        at = separator(bytes, at + 1 + len + 1)?;
        titled = true;
    }
    match bytes.get(at) {
        Some(b')') => Ok(Some(InlineLink {
            dest,
            end: at + 1,
            titled,
        })),
        Some(b'(') => Err(Unsure),
        _ => Ok(None),
    }
}

/// Past the spaces at `at`; a line break there is past this scanner (the
/// next line's container markers would be skipped).
fn separator(bytes: &[u8], mut at: usize) -> Result<usize, Unsure> {
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\x0b' | b'\x0c'))
    {
        at += 1;
    }
    match bytes.get(at) {
        Some(b'\n' | b'\r') => Err(Unsure),
        _ => Ok(at),
    }
}

#[cfg(test)]
mod tests {
    use super::super::targets::whole_targets;
    use super::*;

    #[test]
    fn a_paragraph_with_links_and_code_is_read_without_a_parser() {
        let block = "See [the guide](references/guide.md \"Guide\") and ![logo](assets/a.png),\n\
                     then run `scripts/fill.py in.pdf` or read [docs](https://x.dev).\n";
        let found = targets(block).unwrap();
        assert_eq!(found, whole_targets(block));
        let texts: Vec<&str> = found.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "references/guide.md",
                "assets/a.png",
                "scripts/fill.py",
                "https://x.dev"
            ]
        );
    }

    #[test]
    fn what_the_scanner_cannot_read_alone_is_left_to_the_parser() {
        for block in [
            "[a](<b c.md>)",
            "[a](b\\).md)",
            "[a](b&amp;c.md)",
            "[a [b](c.md)](d.md)",
            "[a][b]\n\n[b]: c.md",
            "[a\nb](c.md)",
            "[a](\nb.md)",
            "`scripts/\nx.py`",
            "```\n[a](b.md)\n```",
            "    [a](b.md)",
            "[a](b(c).md)",
            "[a]()",
        ] {
            assert!(targets(block).is_err(), "{block:?}");
        }
    }

    #[test]
    fn many_backtick_strings_are_left_to_the_parser() {
        let block: String = (1..200).map(|n| "`".repeat(n % 7 + 1) + " x ").collect();
        assert!(targets(&block).is_err());
    }

    /// The pieces the generated blocks are made of: whole links, images
    /// and code spans, and the brackets, parentheses, backtick strings,
    /// titles, container markers, line breaks, spaces, Unicode and control
    /// characters that may break them.
    const PIECES: &[&str] = &[
        "[a](a.md)",
        "[`c`](c.md)",
        "![i](i.png 'x')",
        "[u](https://x.dev)",
        "[e]( e.md )",
        "[f](f.md\"q\")",
        "[g](g.md \"t\" )",
        "[h](h.md \"t)",
        "`scripts/x.py`",
        "`` scripts/y.sh ``",
        "` ./references/r.md`",
        "[",
        "]",
        "(",
        ")",
        "![",
        "](",
        "`",
        "``",
        "```",
        " ",
        "  ",
        "\n",
        "\r\n",
        "- ",
        "> ",
        "# ",
        "1. ",
        "*",
        "_",
        "\"",
        "'",
        " \"t\"",
        " 't'",
        "]:",
        "a.md",
        "b c.md",
        "scripts/x.py",
        "assets/",
        "#frag",
        "é",
        "\u{a0}",
        "\u{3000}",
        "\x01",
        "\x0b",
        "word",
        "!",
        "%20",
        "?q=1",
        "<",
        "\\",
        "&",
        "<x>",
        "<a href=\"[\">",
        "<!-- [a](a.md) -->",
        "<!-- a > ",
        " -->",
        "a < b",
        ">",
        "<https://x.dev>",
        "<b.md>",
        "&amp;",
        "&x",
        "&#35;",
        "<?",
        "?>",
    ];

    proptest::proptest! {
        /// Whatever the scanner reads alone, it reads as pulldown-cmark
        /// does: the same targets at the same spans.
        #[test]
        fn the_scanner_agrees_with_the_parser(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..32),
        ) {
            let block = pieces.concat();
            if let Ok(found) = targets(&block) {
                proptest::prop_assert_eq!(found, whole_targets(&block), "{:?}", block);
            }
        }
    }
}
