//! The heading titles of a markdown text, for `#fragment` links, without
//! parsing the whole text: most of a long body is prose, lists and code,
//! and only the blocks that may hold a heading are parsed.
//!
//! The blocks are the line scan's of [`super::targets`]: each parses alone
//! as it parses in the text, and where the scan cannot be sure, the rest of
//! the text is parsed as one. Tests hold the titles to one parse of the
//! whole text, on the corpus and on generated markdown.

use super::targets::{Blocks, blocks};
use crate::read::markdown;

/// Every heading's title in `text`, in order, as [`markdown::sections`]
/// reads them from the whole text.
pub(super) fn titles(text: &str) -> Vec<String> {
    let Blocks { alone, rest } = blocks(text, text.len());
    // A reference link in a heading reads differently without its
    // definition, which may be in another block.
    let has_definitions = memchr::memmem::find(text.as_bytes(), b"]:").is_some();
    let mut titles = Vec::new();
    for block in alone {
        let block = &text[block];
        if !may_hold_heading(block) {
            continue;
        }
        if has_definitions && block.contains('[') {
            return parsed(text).collect();
        }
        titles.extend(parsed(block));
    }
    if let Some(rest) = rest {
        let rest = &text[rest..];
        if has_definitions && rest.contains('[') {
            return parsed(text).collect();
        }
        titles.extend(parsed(rest));
    }
    titles
}

fn parsed(text: &str) -> impl Iterator<Item = String> {
    markdown::sections(text)
        .into_iter()
        .map(|section| section.title.into_owned())
}

/// Whether a block may hold a heading: a `#` anywhere (an ATX heading,
/// also in a list item or a quote), or a line of only `=` or `-` and
/// white space (a setext heading's underline). True whenever in doubt.
fn may_hold_heading(block: &str) -> bool {
    memchr::memchr(b'#', block.as_bytes()).is_some()
        || block.lines().any(|line| {
            let line = line.trim();
            !line.is_empty()
                && (line.bytes().all(|b| matches!(b, b'=' | b' ' | b'\t'))
                    || line.bytes().all(|b| matches!(b, b'-' | b' ' | b'\t')))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> Vec<String> {
        parsed(text).collect()
    }

    #[test]
    fn headings_in_prose_lists_quotes_and_setext() {
        let text = "# One\n\ntext\n\n- # In a list\n\n> ## Quoted\n\nTwo\n===\n\nThree\n---\n\n```\n# not one\n```\n";
        assert_eq!(titles(text), ["One", "In a list", "Quoted", "Two", "Three"]);
        assert_eq!(titles(text), whole(text));
    }

    /// What the property test below found: a reference link reads
    /// differently without its definition, and an indented line after a
    /// blank line may be in a list item.
    #[test]
    fn definitions_and_list_items_are_parsed_in_context() {
        for text in [
            "[r]: r.md\n\n#no space\n[r]: r.md\n===",
            "[r]: r.md\n\n- ```\n# See [r] and [x][r]",
            "- # In a list\n\n  ---\n    # indented code\n",
        ] {
            assert_eq!(titles(text), whole(text), "{text}");
        }
    }

    /// Every markdown file of the corpus (`../shared/corpus`) gives the
    /// same titles block by block as parsed whole.
    #[test]
    fn blocks_find_the_titles_a_whole_parse_finds_on_the_corpus() {
        let mut files = 0;
        let mut headings = 0;
        let found = super::super::each_corpus_markdown_file(|path, text| {
            let expected = whole(text);
            assert_eq!(titles(text), expected, "{}", path.display());
            headings += expected.len();
            files += 1;
        });
        if !found {
            return;
        }
        assert!(
            files > 1000 && headings > 10_000,
            "{files} files, {headings} headings"
        );
    }

    /// The lines the generated texts are made of: headings of both kinds
    /// and their look-alikes, beside every shape the line scan decides on.
    const LINES: &[&str] = &[
        "",
        "   ",
        "# Heading",
        "## Two `code` *em* [link](a.md)",
        "   ### Indented three",
        "    # indented code",
        "#no space",
        "\\# escaped",
        "# Closed ##",
        "Title",
        "===",
        "---",
        "- - -",
        "  ---",
        "- # In a list",
        "> # Quoted",
        "1. ## Numbered",
        "text",
        "```",
        "~~~",
        "    ```",
        "- ```",
        "<div>",
        "<!-- c",
        "-->",
        "<pre>",
        "</pre>",
        "  continued",
        "\t# tab",
        "[r]: r.md",
        "# See [r] and [x][r]",
        "| a | b |",
    ];

    proptest::proptest! {
        /// Markdown built from [`LINES`] gives the same titles block by
        /// block as parsed whole.
        #[test]
        fn blocks_find_the_titles_a_whole_parse_finds(
            lines in proptest::collection::vec(proptest::sample::select(LINES), 0..16),
        ) {
            let text = lines.join("\n");
            proptest::prop_assert_eq!(titles(&text), whole(&text));
        }
    }
}
