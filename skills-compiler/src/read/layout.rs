//! The names that make a skill on disk: the leaf that discovery, a skill's
//! files, nested collections and link checking all read.

/// The file that makes a directory a skill: the runtime's own name for it.
pub(crate) const SKILL_FILE: &str = skills_core::Skill::FILE;

/// The sidecar that holds a skill's tools and permissions.
pub(crate) const TOOLS_FILE: &str = "tools.yaml";

/// Hidden entries, READMEs and licences at a root are not skills.
pub(crate) fn is_ignored_root_entry(name: &str) -> bool {
    name.starts_with('.')
        || name.eq_ignore_ascii_case("README.md")
        || name.to_ascii_uppercase().starts_with("LICENSE")
}
