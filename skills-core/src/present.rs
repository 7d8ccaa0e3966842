//! How a skill is presented to a model: its catalog line, its Agent Skills
//! XML element, and the text a model reads when it loads it. Compiled and
//! loaded skills share these, and the compiler's budget measures with them;
//! a compiled skill makes each on first use, from the tables, so that its
//! text is stored once (the skill file).

use crate::skill::{Kind, Skill, Version};

/// What a skill says to a model, made from its tables. The methods live
/// here, beside what they present, so that `skill.rs` (the table) imports
/// nothing from this file.
impl Skill {
    /// The text a model reads when it loads the skill: title, description,
    /// for a protocol the numbered steps, post-checks and the three escape
    /// hatches, then the body. Made on first use.
    pub fn rendered(&self) -> &str {
        self.rendered.get_or_init(|| rendered(self))
    }

    /// This skill's line of the text catalog: `- name: description`, the
    /// description on one line and cut to its `catalog_chars`.
    pub fn catalog_line(&self) -> String {
        catalog_line_of(&self.name, &self.description, self.catalog_chars)
    }

    /// This skill's `<skill>` element of the Agent Skills XML catalog.
    pub fn catalog_xml_element(&self) -> String {
        catalog_xml_element_of(&self.name, &self.description, &self.location)
    }
}

/// The most characters of a description in a catalog line, by default
/// (`catalog_chars`).
pub const CATALOG_DESCRIPTION_CHARS: usize = 240;

/// The catalog line of a name and a description: `- name: description`, the
/// description on one line of at most `chars` characters.
///
/// ```
/// use skills_core::present::catalog_line_of;
///
/// assert_eq!(catalog_line_of("deploy", "Ships it.\nUse when asked.", 240), "- deploy: Ships it. Use when asked.\n");
/// ```
pub fn catalog_line_of(name: &str, description: &str, chars: usize) -> String {
    format!("- {name}: {}\n", one_line(description, chars))
}

/// Whitespace runs (newlines included) become one space; longer than `max`
/// characters is cut at a character boundary and ends with `…`.
pub fn one_line(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(max.saturating_sub(1)).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

/// The `<skill>` element of a name, a description and a location.
pub fn catalog_xml_element_of(name: &str, description: &str, location: &str) -> String {
    [
        "<skill>",
        "<name>",
        &escape_xml(name),
        "</name>",
        "<description>",
        &escape_xml(description),
        "</description>",
        "<location>",
        &escape_xml(location),
        "</location>",
        "</skill>",
    ]
    .join("\n")
}

/// `text` with `&`, `<`, `>`, `"` and `'` written as XML entities, for the
/// XML catalog.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The text a model reads when it loads `skill`: title, description, area,
/// tags and triggers, for a protocol its preconditions, numbered steps,
/// post-checks and the three escape hatches, then the body.
pub(crate) fn rendered(skill: &Skill) -> String {
    let mut lines = Vec::new();
    let version = match skill.version() {
        Version::Number(1) => String::new(),
        Version::Number(n) => format!(" (v{n})"),
        Version::Semver(s) | Version::Text(s) => format!(" (v{s})"),
    };
    let title = if matches!(skill.kind(), Kind::Protocol(_)) {
        "PROTOCOL"
    } else {
        "SKILL"
    };
    lines.push(format!("{title}: {}{version}", skill.name()));
    lines.push(skill.description().trim().to_owned());
    let mut meta = Vec::new();
    if let Some(area) = skill.area() {
        meta.push(format!("area: {area}"));
    }
    if skill.tags().len() > 0 {
        meta.push(format!(
            "tags: {}",
            skill.tags().collect::<Vec<_>>().join(", ")
        ));
    }
    if skill.triggers().len() > 0 {
        meta.push(format!(
            "use when: {}",
            skill.triggers().collect::<Vec<_>>().join("; ")
        ));
    }
    if !meta.is_empty() {
        lines.push(meta.join(" | "));
    }
    if let Kind::Protocol(protocol) = skill.kind() {
        if !protocol.preconditions.is_empty() {
            lines.push(String::new());
            lines.push("Preconditions:".to_owned());
            lines.extend(protocol.preconditions.iter().map(|p| format!("- {p}")));
        }
        lines.push(String::new());
        lines.push("Steps (follow in order):".to_owned());
        lines.extend(
            protocol
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{}. {s}", i + 1)),
        );
        lines.push(String::new());
        lines.push("Post-checks:".to_owned());
        lines.extend(protocol.post_checks.iter().map(|c| format!("- {c}")));
        lines.push(String::new());
        lines.push(format!(
            "If the run goes off plan: {}",
            protocol.on_deviation
        ));
        lines.push(format!(
            "If the protocol cannot be completed: {}",
            protocol.on_blocked
        ));
        lines.push(format!(
            "If a step is already done: {}",
            protocol.on_already_done
        ));
    }
    let mut text = lines.join("\n");
    text.push('\n');
    if !skill.body().trim().is_empty() {
        text.push('\n');
    }
    text.push_str(skill.body());
    text
}

/// The Agent Skills `<available_skills>` block around `<skill>` elements
/// (one per skill), in the order given: the run-time set's XML catalog,
/// and the CLI's `catalog --format xml` and `to-prompt`.
pub fn available_skills<'a>(elements: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::from("<available_skills>\n");
    for element in elements {
        out.push_str(element);
        out.push('\n');
    }
    out.push_str("</available_skills>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_collapses_and_clamps_at_a_character_boundary() {
        assert_eq!(one_line("a\n  b\tc ", 240), "a b c");
        let long = "é".repeat(300);
        let clamped = one_line(&long, 240);
        assert_eq!(clamped.chars().count(), 240);
        assert!(clamped.ends_with('…'));
        assert_eq!(one_line(&"x".repeat(240), 240), "x".repeat(240));
    }
}
