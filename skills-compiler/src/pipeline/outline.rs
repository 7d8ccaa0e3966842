//! What an editor shows of one skill file while it is typed: the
//! frontmatter's entries, the body's headings with their anchors, and its
//! links with where they lead. Read with the compiler's own readers (the
//! link scanner and resolver the link checks use, the heading parse the
//! runtime serves sections by), so that a link the editor follows is the
//! link `check` judged.

use std::ops::Range;

pub use crate::read::key_at::Entry;
use crate::read::key_at::{entries, frontmatter};
use crate::read::markdown::sections;
use crate::validate::links::{Resolved, numbered_anchors, slug, written};

/// How much of a body is outlined: past it, headings and links are not
/// listed. The compiler refuses a skill file far smaller (200,000
/// characters by default, `max_document_chars`), and an editor asks for an
/// outline on every request: a 10 MB file took seconds a request.
pub const MAX_OUTLINED_BODY: usize = 1 << 20;

/// The largest char boundary of `text` at or before `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One skill file's outline. Every span is in bytes of the text given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// The frontmatter, both fences included.
    pub frontmatter: Option<Range<usize>>,
    /// Its top-level keys and its tools, in order.
    pub entries: Vec<Entry>,
    /// The body's headings, in order.
    pub headings: Vec<Heading>,
    /// The body's links and images (backticked paths aside), in order.
    pub links: Vec<Link>,
}

/// A heading of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 for `#`, up to 6.
    pub level: u8,
    /// Its text, inline markup dropped.
    pub title: String,
    /// Its `#fragment`, numbered as GitHub numbers a repeated title.
    pub anchor: String,
    /// The heading's own line.
    pub line: Range<usize>,
    /// What it governs: to the next heading of its level or higher.
    pub section: Range<usize>,
}

/// A link of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The destination's bytes, as written.
    pub span: Range<usize>,
    /// The destination as written (`forms/a.md#fill`).
    pub written: String,
    /// Where it leads.
    pub to: LinkTo,
}

/// Where a link leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTo {
    /// A heading of this file, by its anchor.
    Here(String),
    /// A file of the skill (relative to its folder, `/`-separated), and a
    /// heading of it.
    File {
        /// Relative to the skill's folder.
        path: String,
        /// The `#fragment`, percent-decoded.
        fragment: Option<String>,
    },
    /// Elsewhere in the skills root (relative to it): another skill's file.
    Root(String),
    /// A URL, an absolute path, a path above the root, or nothing a file
    /// can be named.
    Away,
}

/// The outline of a skill file's `text`. `dir` is the skill's folder name
/// in the root (`None` for a flat `name.md` skill, whose links start at
/// the root).
///
/// ```
/// use skills_compiler::ops::document::{LinkTo, outline};
///
/// let text = "---\nname: a\n---\n# Use\nSee [the form](forms/a.md#fill).\n";
/// let outline = outline(text, Some("a"));
/// assert_eq!(outline.headings[0].anchor, "use");
/// assert_eq!(
///     outline.links[0].to,
///     LinkTo::File { path: "forms/a.md".into(), fragment: Some("fill".into()) },
/// );
/// ```
pub fn outline(text: &str, dir: Option<&str>) -> Outline {
    let frontmatter = frontmatter(text);
    let body_start = frontmatter.as_ref().map_or(0, |block| block.end);
    let body = &text[body_start..];
    let body = &body[..floor_char_boundary(body, MAX_OUTLINED_BODY)];
    Outline {
        entries: entries(text),
        headings: headings(body, body_start),
        links: links(body, body_start, dir),
        frontmatter,
    }
}

/// The `#fragment` of a heading titled `title` (the first of that title):
/// lower case, spaces as `-`, punctuation other than `-` and `_` dropped.
///
/// ```
/// assert_eq!(skills_compiler::ops::document::anchor("S001: Not `UTF-8`"), "s001-not-utf-8");
/// ```
pub fn anchor(title: &str) -> String {
    slug(title)
}

/// The keys (and what each says) the mapping under `parent` declares and
/// `text` lacks: the top level (`None`), a tool (`tools`), its `endpoint`,
/// `permissions`.
pub(crate) fn missing_keys(text: &str, parent: Option<&str>) -> Vec<(&'static str, &'static str)> {
    use crate::validate::keys;
    let declared: Vec<(&str, &str)> = match parent {
        None => keys::FRONTMATTER
            .iter()
            .map(|key| (key.name, key.doc))
            .collect(),
        Some("tools") => keys::TOOL
            .iter()
            .map(|field| (field.name, field.doc))
            .collect(),
        Some("endpoint") => keys::ENDPOINT
            .iter()
            .map(|field| (field.name, field.doc))
            .collect(),
        Some("permissions") => keys::PERMISSIONS
            .iter()
            .map(|field| (field.name, field.doc))
            .collect(),
        Some(_) => Vec::new(),
    };
    // Only the top level's keys are known by name: a tool's are not told
    // apart from its neighbours' here.
    let present: Vec<String> = match parent {
        None => entries(text)
            .into_iter()
            .filter(|entry| !entry.tool)
            .map(|entry| entry.name)
            .collect(),
        Some(_) => Vec::new(),
    };
    declared
        .into_iter()
        .filter(|(name, _)| !present.iter().any(|had| had == name))
        .collect()
}

fn headings(body: &str, at: usize) -> Vec<Heading> {
    let found = sections(body);
    let anchors = numbered_anchors(found.iter().map(|section| &*section.title));
    found
        .into_iter()
        .zip(anchors)
        .map(|(section, anchor)| {
            let line_end = body[section.start..]
                .find('\n')
                .map_or(body.len(), |end| section.start + end);
            Heading {
                level: section.level,
                title: section.title.to_string(),
                anchor,
                line: at + section.start..at + line_end,
                section: at + section.start..at + section.end,
            }
        })
        .collect()
}

fn links(body: &str, at: usize, dir: Option<&str>) -> Vec<Link> {
    written(body, dir)
        .into_iter()
        .map(|(span, written, resolved)| Link {
            span: at + span.start..at + span.end,
            written,
            to: match resolved {
                Resolved::Fragment(anchor) => LinkTo::Here(anchor),
                Resolved::InSkill { path, fragment } => LinkTo::File { path, fragment },
                Resolved::InRoot { path } => LinkTo::Root(path),
                Resolved::NotRelative | Resolved::OutsideRoot | Resolved::Undecodable => {
                    LinkTo::Away
                }
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "---\nname: tracker\ndescription: Look up issues.\ntools:\n  - name: get_issue\n    endpoint: { method: GET }\n  - description: second\n    name: \"close_issue\"\n    parameters:\n      properties:\n        name: { type: string }\nlicense: MIT\n---\n# Use\nSee [form](forms/a.md#fill), [here](#use-1) and [site](https://x.test).\n## Use\nText.\n# Other\n[sibling](../other/SKILL.md)\n";

    fn named(outline: &Outline) -> Vec<(&str, bool, &str)> {
        outline
            .entries
            .iter()
            .map(|e| (e.name.as_str(), e.tool, &SKILL[e.span.clone()]))
            .collect()
    }

    #[test]
    fn entries_are_the_top_level_keys_and_the_tools_by_name() {
        let outline = outline(SKILL, Some("tracker"));
        assert_eq!(
            named(&outline),
            [
                ("name", false, "name"),
                ("description", false, "description"),
                ("tools", false, "tools"),
                ("get_issue", true, "get_issue"),
                ("close_issue", true, "close_issue"),
                ("license", false, "license"),
            ]
        );
        let tools = &outline.entries[2];
        assert!(SKILL[tools.lines.clone()].ends_with("{ type: string }\n"));
        let first = &outline.entries[3];
        assert_eq!(
            &SKILL[first.lines.clone()],
            "  - name: get_issue\n    endpoint: { method: GET }\n"
        );
    }

    #[test]
    fn headings_carry_numbered_anchors_and_sections() {
        let outline = outline(SKILL, Some("tracker"));
        let anchors: Vec<_> = outline.headings.iter().map(|h| h.anchor.as_str()).collect();
        assert_eq!(anchors, ["use", "use-1", "other"]);
        assert_eq!(&SKILL[outline.headings[1].line.clone()], "## Use");
        assert!(SKILL[outline.headings[0].section.clone()].ends_with("Text.\n"));
    }

    #[test]
    fn links_say_where_they_lead() {
        let outline = outline(SKILL, Some("tracker"));
        let to: Vec<_> = outline
            .links
            .iter()
            .map(|link| (&SKILL[link.span.clone()], link.to.clone()))
            .collect();
        assert_eq!(
            to,
            [
                (
                    "forms/a.md#fill",
                    LinkTo::File {
                        path: "forms/a.md".into(),
                        fragment: Some("fill".into())
                    }
                ),
                ("#use-1", LinkTo::Here("use-1".into())),
                ("https://x.test", LinkTo::Away),
                ("../other/SKILL.md", LinkTo::Root("other/SKILL.md".into())),
            ]
        );
    }

    #[test]
    fn a_body_past_the_bound_is_outlined_to_the_bound() {
        let mut text = String::from("---\nname: a\n---\n");
        while text.len() < 2 * MAX_OUTLINED_BODY {
            text.push_str("# 𝄞\n");
        }
        let outline = outline(&text, Some("a"));
        let last = outline.headings.last().unwrap();
        assert!(last.line.end <= MAX_OUTLINED_BODY + 16, "{last:?}");
        assert!(outline.headings.len() > 1000);
    }

    #[test]
    fn half_typed_text_has_an_outline_and_no_text_panics() {
        let half = outline("---\nname: a\ntools:\n  - name: t", Some("a"));
        assert_eq!(half.entries.len(), 3);
        for text in [
            "",
            "---",
            "---\n",
            "\u{feff}---\nname: é\n---\n# 𝄞\n[x](𝄞.md)",
            "# only\n",
        ] {
            for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
                let _ = outline(&text[..end], None);
            }
        }
    }
}
