//! Every frontmatter key the compiler knows, declared once, in canonical
//! order: the order `fmt` and the writer put keys in. The validator's key
//! groups (what `portable` allows, what only a protocol may have, what
//! other clients define), its did-you-mean, the editor schema and the
//! canonical order all read this one list.

/// What a key is, and so which profiles take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The Agent Skills specification: every profile.
    Spec,
    /// This project's extensions: `extended` and `lenient`.
    Extension,
    /// Extensions only a protocol (`kind: protocol`) may have.
    Protocol,
    /// A key another client defines: kept as an extra, its type checked.
    Client(Expect),
}

/// The type a client's key must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    String,
    Bool,
    Map,
}

/// One frontmatter key.
#[derive(Debug)]
pub struct Key {
    pub name: &'static str,
    pub group: Group,
}

const fn key(name: &'static str, group: Group) -> Key {
    Key { name, group }
}

/// Every key, in canonical order: the specification's, then this
/// project's (a protocol's among them, where they read best), then other
/// clients' (which keep their place in the file).
pub const FRONTMATTER: &[Key] = &[
    key("name", Group::Spec),
    key("description", Group::Spec),
    key("license", Group::Spec),
    key("compatibility", Group::Spec),
    key("metadata", Group::Spec),
    key("allowed-tools", Group::Spec),
    key("kind", Group::Extension),
    key("version", Group::Extension),
    key("area", Group::Extension),
    key("tags", Group::Extension),
    key("triggers", Group::Extension),
    key("app_slug", Group::Extension),
    key("model_config", Group::Extension),
    key("preconditions", Group::Protocol),
    key("steps", Group::Protocol),
    key("post_checks", Group::Protocol),
    key("on_deviation", Group::Protocol),
    key("on_blocked", Group::Protocol),
    key("on_already_done", Group::Protocol),
    key("tools", Group::Extension),
    key("permissions", Group::Extension),
    key("argument-hint", Group::Client(Expect::String)),
    key("disable-model-invocation", Group::Client(Expect::Bool)),
    key("user-invocable", Group::Client(Expect::Bool)),
    key("model", Group::Client(Expect::String)),
    key("when_to_use", Group::Client(Expect::String)),
    key("context", Group::Client(Expect::String)),
    key("agent", Group::Client(Expect::String)),
    key("hooks", Group::Client(Expect::Map)),
];

/// The declaration of `name`, if it is a known key.
pub fn find(name: &str) -> Option<&'static Key> {
    FRONTMATTER.iter().find(|key| key.name == name)
}

/// The names of the keys in `group`, in canonical order.
pub fn named(group: Group) -> impl Iterator<Item = &'static str> {
    FRONTMATTER
        .iter()
        .filter(move |key| key.group == group)
        .map(|key| key.name)
}

/// Whether `name` is the specification's.
pub fn is_spec(name: &str) -> bool {
    find(name).is_some_and(|key| key.group == Group::Spec)
}

/// Whether `name` is one of this project's keys (a protocol's included).
pub fn is_extension(name: &str) -> bool {
    find(name).is_some_and(|key| matches!(key.group, Group::Extension | Group::Protocol))
}

/// Where `name` goes in canonical order: the specification's keys first,
/// then this project's, then other keys in their place in the file, then
/// `x-` keys.
pub fn rank(name: &str) -> (u8, usize) {
    let place = FRONTMATTER.iter().position(|key| key.name == name);
    match place.map(|at| (at, FRONTMATTER[at].group)) {
        Some((at, Group::Spec)) => (0, at),
        Some((at, Group::Extension | Group::Protocol)) => (1, at),
        _ if name.starts_with("x-") => (3, 0),
        _ => (2, 0),
    }
}

/// Every key, by group, in canonical order, and the manifest's options:
/// what `cargo skills explain keys` prints. Made from the declarations, so
/// it lists exactly what the compiler reads.
pub fn explain() -> String {
    let line = |group: Group| named(group).collect::<Vec<_>>().join(", ");
    let clients: Vec<String> = FRONTMATTER
        .iter()
        .filter_map(|key| match key.group {
            Group::Client(expect) => Some(format!("{} ({})", key.name, expect.phrase())),
            _ => None,
        })
        .collect();
    format!(
        "Frontmatter keys of SKILL.md, in the order `cargo skills fmt` writes them\n\n\
         The Agent Skills specification (every profile):\n  {}\n\n\
         This project's extensions (profiles `extended` and `lenient`):\n  {}\n\n\
         A protocol's keys (`kind: protocol`, profiles `extended` and `lenient`):\n  {}\n\n\
         Other clients' keys (kept as extras, their type checked):\n  {}\n\n\
         A key that starts with `x-` is kept as an extra. Any other key is {}\n\
         ({} in `portable`, which allows the specification's keys only).\n\n\
         Options of [package.metadata.skills] (and include_skills!):\n  {}\n",
        line(Group::Spec),
        line(Group::Extension),
        line(Group::Protocol),
        clients.join(", "),
        crate::diagnostics::Code::UnknownKey.as_str(),
        crate::diagnostics::Code::NotPortable.as_str(),
        crate::config::option_keys::<crate::config::Overrides>().join(", "),
    )
}

impl Expect {
    fn phrase(self) -> &'static str {
        match self {
            Expect::String => "a string",
            Expect::Bool => "a boolean",
            Expect::Map => "a mapping",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_declared_once() {
        let mut names: Vec<&str> = FRONTMATTER.iter().map(|key| key.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
