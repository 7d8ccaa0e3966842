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
    /// Open-addressing table built at compile time: slot `fnv1a(name) & (len - 1)`
    /// onwards holds `index + 1` of the skill, 0 marks an empty slot. At most
    /// half full, so every probe sequence ends.
    #[doc(hidden)]
    pub index: &'static [u32],
}

impl SkillSet {
    /// The skill named `name`: one hash of the name and, on average, about
    /// one comparison; no allocation.
    pub fn get(&self, name: &str) -> Option<&'static Skill> {
        let mask = self.index.len().checked_sub(1)?;
        let mut slot = fnv1a(name.as_bytes()) as usize & mask;
        for _ in 0..self.index.len() {
            let entry = *self.index.get(slot)?;
            let skill = self.skills.get((entry as usize).checked_sub(1)?)?;
            if skill.name() == name {
                return Some(skill);
            }
            slot = (slot + 1) & mask;
        }
        None
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

impl IntoIterator for &SkillSet {
    type Item = &'static Skill;
    type IntoIter = std::iter::Copied<std::slice::Iter<'static, &'static Skill>>;

    fn into_iter(self) -> Self::IntoIter {
        self.skills.iter().copied()
    }
}

/// FNV-1a, 64 bits: the hash the code generator uses to build [`SkillSet`]'s index.
#[doc(hidden)]
pub const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        // The code generator's copy is checked against the same vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
