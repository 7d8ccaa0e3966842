//! What a bundle refuses to hold.

/// A path a bundle cannot hold: not relative, or with a `..`, `.` or empty
/// component, or a backslash, so that unpacking it could write outside the
/// skill's folder. A compiled or loaded skill never has one; a `Skill` put
/// together by hand can.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsafePath {
    /// The skill.
    pub skill: String,
    /// The path, as the skill holds it.
    pub path: String,
}

impl std::fmt::Display for UnsafePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` of skill `{}` cannot go into a bundle: a path must be relative, without `..`, `.` or empty parts and without backslashes, or unpacking it would write outside the skill's folder",
            crate::printable(&self.path),
            crate::printable(&self.skill)
        )
    }
}

impl std::error::Error for UnsafePath {}
