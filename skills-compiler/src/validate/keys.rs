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
