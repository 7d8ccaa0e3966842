//! `skill://` URIs of a served skill: `skills::uri`, the one rule the
//! catalog's `<location>` follows too, applied to a `Skill`.

use skills::Skill;

pub(crate) use skills::uri::{SKILL_MD, parse};

/// `skill://<skill path>/<path>` of a file of `skill`.
pub(crate) fn file(skill: &Skill, path: &str) -> String {
    directory(skill, path)
}

/// `skill://<skill path>/SKILL.md`.
pub(crate) fn skill(skill: &Skill) -> String {
    file(skill, SKILL_MD)
}

/// `skill://<skill path>` for the skill's root (`path` empty), or
/// `skill://<skill path>/<path>`.
pub(crate) fn directory(skill: &Skill, path: &str) -> String {
    skills::uri::of(&skill.skill_path(), path)
}
