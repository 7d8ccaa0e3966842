//! The served skills by their skill path (`pdf`, `pdf/forms`): which skill a
//! URI names and which skills are nested in another, each a look-up in a
//! sorted map instead of a scan of the set (5,000 skills are served).

use std::collections::BTreeMap;

use skills::Skill;

/// Each served skill's path, with its name, sorted by path.
#[derive(Debug, Clone, Default)]
pub(crate) struct SkillPaths {
    names: BTreeMap<String, String>,
}

impl SkillPaths {
    pub(crate) fn new<'a>(skills: impl Iterator<Item = &'a Skill>) -> SkillPaths {
        let names = skills
            .map(|skill| (skill.skill_path().into_owned(), skill.name().to_owned()))
            .collect();
        SkillPaths { names }
    }

    /// The name of the skill whose directory holds what `segments` name,
    /// with the path within it (empty for the skill's root): the skill with
    /// the longest path that starts them, so that a nested skill answers
    /// for its own files.
    pub(crate) fn resolve(&self, segments: &[String]) -> Option<(&str, String)> {
        (1..=segments.len()).rev().find_map(|depth| {
            let name = self.names.get(&segments[..depth].join("/"))?;
            Some((name.as_str(), segments[depth..].join("/")))
        })
    }

    /// The names of the skills nested in the directory at `path`, at any depth.
    pub(crate) fn nested_in<'s>(
        &'s self,
        path: &str,
    ) -> impl Iterator<Item = &'s str> + Clone + 's {
        let below = format!("{path}/");
        self.names
            .range(below.clone()..)
            .take_while(move |(other, _)| other.starts_with(&below))
            .map(|(_, name)| name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[(&str, &str)]) -> SkillPaths {
        SkillPaths {
            names: list
                .iter()
                .map(|(path, name)| (path.to_string(), name.to_string()))
                .collect(),
        }
    }

    fn segments(uri_path: &str) -> Vec<String> {
        uri_path.split('/').map(str::to_owned).collect()
    }

    #[test]
    fn the_longest_skill_path_answers() {
        let paths = paths(&[("pdf", "pdf"), ("pdf/forms", "forms"), ("pdfx", "pdfx")]);
        assert_eq!(
            paths.resolve(&segments("pdf/forms/SKILL.md")),
            Some(("forms", "SKILL.md".to_owned()))
        );
        assert_eq!(
            paths.resolve(&segments("pdf/reference.md")),
            Some(("pdf", "reference.md".to_owned()))
        );
        assert_eq!(
            paths.resolve(&segments("pdf")),
            Some(("pdf", String::new()))
        );
        assert_eq!(paths.resolve(&segments("pd/SKILL.md")), None);
        assert_eq!(paths.resolve(&[]), None);
    }

    #[test]
    fn nested_skills_are_those_below_and_no_sibling_with_the_same_prefix() {
        let paths = paths(&[
            ("pdf", "pdf"),
            ("pdf/forms", "forms"),
            ("pdf/forms/deep", "deep"),
            ("pdf-tools", "pdf-tools"),
            ("pdfx", "pdfx"),
        ]);
        assert_eq!(
            paths.nested_in("pdf").collect::<Vec<_>>(),
            ["forms", "deep"]
        );
        assert_eq!(paths.nested_in("pdf/forms").collect::<Vec<_>>(), ["deep"]);
        assert!(paths.nested_in("pdfx").next().is_none());
    }
}
