//! A light synonym table of the field's own vocabulary: the words users and
//! descriptions use for one act ("ship it", "deploy it"; "undo", "roll
//! back"). Each group meets at its first word, on both sides of the
//! router, after stemming. Kept small on purpose: a group that joins two
//! different acts (git's "push" and a deploy's) costs more than it finds.
//! The table was written before the routing cases were run and went in
//! whole: no group has been measured alone yet (BENCHMARKS.md, "Routing
//! v2").

use foldhash::{HashMap, HashMapExt};
use std::sync::OnceLock;

/// Each group: the word the others become, then the others.
const GROUPS: &[&[&str]] = &[
    &["deploy", "ship", "rollout"],
    &["rollback", "revert", "undo"],
    &["summarize", "summary", "summarise", "tldr", "recap"],
    &["presentation", "slide", "deck", "powerpoint", "pptx"],
    &["spreadsheet", "excel", "xlsx", "xls"],
    &["repository", "repo"],
    &["kubernetes", "k8s"],
    &["javascript", "js"],
    &["typescript", "ts"],
    &["python", "py"],
    &["database", "db"],
    &["postgres", "postgresql", "psql"],
    &["configuration", "config"],
    &["authentication", "auth"],
    &["email", "mail"],
    &["image", "picture", "photo"],
    &["remove", "delete"],
    &["bug", "defect"],
];

/// The word `stemmed` meets its group at, when it has one.
pub(super) fn canonical(stemmed: &str) -> Option<&'static str> {
    static TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut table = HashMap::new();
            for group in GROUPS {
                let to = super::stem::stem(group[0]);
                for word in &group[1..] {
                    table.insert(super::stem::stem(word), to.clone());
                }
            }
            table
        })
        .get(stemmed)
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_meets_at_its_first_word() {
        assert_eq!(canonical("ship"), Some("deploy"));
        assert_eq!(canonical("undo"), Some("rollback"));
        assert_eq!(canonical("deploy"), None);
        assert_eq!(
            super::super::words("ship it, then undo"),
            ["deploy", "rollback"]
        );
    }

    #[test]
    fn no_word_is_in_two_groups() {
        let mut seen = std::collections::HashSet::new();
        for word in GROUPS.iter().flat_map(|group| group.iter()) {
            assert!(seen.insert(*word), "{word} is in two groups");
        }
    }
}
