use crate::skill::Skill;

/// Every skill of a skills directory, sorted by name. Built in a `static`.
#[derive(Debug)]
pub struct SkillSet {
    #[doc(hidden)]
    pub skills: &'static [&'static Skill],
    #[doc(hidden)]
    pub catalog: &'static str,
    #[doc(hidden)]
    pub catalog_xml: &'static str,
}

impl SkillSet {
    /// The skill named `name`: a binary search, no allocation.
    pub fn get(&self, name: &str) -> Option<&'static Skill> {
        self.skills
            .binary_search_by(|skill| skill.name().cmp(name))
            .ok()
            .map(|index| self.skills[index])
    }

    /// The skills in name order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'static Skill> + use<> {
        self.skills.iter().copied()
    }

    pub fn len(&self) -> usize {
        self.skills.len()
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// The names in order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'static str> + use<> {
        self.skills.iter().map(|skill| skill.name())
    }

    /// One `- name: description` line per skill; each description is clamped
    /// to one line of at most 240 characters. Precomputed at build time.
    pub fn catalog(&self) -> &'static str {
        self.catalog
    }

    /// The Agent Skills `<available_skills>` block, XML-escaped. Precomputed.
    pub fn catalog_xml(&self) -> &'static str {
        self.catalog_xml
    }
}

impl<'a> IntoIterator for &'a SkillSet {
    type Item = &'static Skill;
    type IntoIter = std::iter::Copied<std::slice::Iter<'static, &'static Skill>>;

    fn into_iter(self) -> Self::IntoIter {
        self.skills.iter().copied()
    }
}
