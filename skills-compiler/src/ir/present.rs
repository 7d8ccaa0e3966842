//! How skills are presented to a model, for the compiler's own use (the
//! CLI's `inspect`, the budget): each skill's catalog line and Agent Skills
//! XML element (the text a model reads when it loads a skill is
//! `lower::rendered`). The rules are `skills_core::present`'s, which
//! compiled and loaded skills use at run time; this only feeds them the IR.

use super::skill::Skill;

pub use skills_core::present::{
    CATALOG_DESCRIPTION_CHARS, catalog_line_of, catalog_xml_element_of, escape_xml, one_line,
};

/// One skill's line of the catalog: `- name: description`, the description
/// on one line of at most `catalog_chars` characters (240 by default).
pub fn catalog_line(skill: &Skill) -> String {
    catalog_line_of(skill.name(), skill.description(), skill.table.catalog_chars)
}

/// One skill's `<skill>` element of the XML catalog, its `<location>` what
/// `catalog_location` chose: the `skill://` URI, or the file's path.
pub fn catalog_xml_element(skill: &Skill) -> String {
    catalog_xml_element_of(skill.name(), skill.description(), &skill.table.location)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_is_escaped() {
        assert_eq!(escape_xml("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
