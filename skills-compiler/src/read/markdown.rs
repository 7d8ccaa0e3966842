//! The body's heading tree, so one section can be served alone.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use skills_core::Section;

/// Every heading of `body`, in order, with the byte range it governs: from the
/// heading to the next heading of the same or a higher level.
pub fn sections(body: &str) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut open: Option<(u8, usize, String)> = None;
    for (event, range) in Parser::new_ext(body, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                open = Some((level_number(level), range.start, String::new()))
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some((_, _, title)) = &mut open {
                    title.push_str(&text);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, start, title)) = open.take() {
                    sections.push(Section {
                        level,
                        title: title.trim().to_owned().into(),
                        start,
                        end: body.len(),
                    });
                }
            }
            _ => {}
        }
    }
    // Close each section at the next heading of the same or a higher level.
    for i in 0..sections.len() {
        let level = sections[i].level;
        if let Some(next) = sections[i + 1..].iter().find(|s| s.level <= level) {
            sections[i].end = next.start;
        }
    }
    sections
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// The first line of text in `body`, heading markers stripped (lenient profile's
/// description of a skill without frontmatter).
pub fn first_prose_line(body: &str) -> Option<String> {
    body.lines()
        .map(|line| line.trim().trim_start_matches('#').trim())
        .find(|line| !line.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_nest_and_end_at_the_next_peer() {
        let body = "# A\ntext\n## B\nb\n## C `code`\nc\n# D\nd\n";
        let sections = sections(body);
        let titles: Vec<_> = sections
            .iter()
            .map(|s| (s.level, s.title.as_ref(), &body[s.start..s.end]))
            .collect();
        assert_eq!(
            titles,
            vec![
                (1, "A", "# A\ntext\n## B\nb\n## C `code`\nc\n"),
                (2, "B", "## B\nb\n"),
                (2, "C code", "## C `code`\nc\n"),
                (1, "D", "# D\nd\n"),
            ]
        );
    }

    #[test]
    fn first_prose_line_strips_headings() {
        assert_eq!(
            first_prose_line("\n\n# Deploy the app\n\ntext").as_deref(),
            Some("Deploy the app")
        );
        assert_eq!(first_prose_line("   \n"), None);
    }
}
