//! Several skill sets as one: a project's skills over a user's over the ones
//! compiled into the binary, say. The order is the application's; a name in
//! two layers is reported, and the higher layer's skill is the one kept.

use std::collections::BTreeMap;

use crate::set::SkillSet;

/// Skill sets in precedence order: the first added is the highest.
///
/// ```
/// # static BUILT_IN: skills::SkillSet = skills::SkillSet::compiled(&[]);
/// let user = skills::SkillSet::compiled(&[]); // or a loaded set
/// let merged = skills::Layers::new()
///     .layer("user", &user)
///     .layer("built-in", &BUILT_IN)
///     .merge();
/// for shadowed in &merged.shadowed {
///     eprintln!("{shadowed}");
/// }
/// print!("{}", merged.set.catalog());
/// ```
#[derive(Debug, Default)]
pub struct Layers<'a> {
    layers: Vec<(String, &'a SkillSet)>,
}

/// The merged set, and every skill a higher layer hid.
#[derive(Debug)]
pub struct Merged {
    /// One skill of each name: the highest layer's.
    pub set: SkillSet,
    /// The skills left out, in layer order.
    pub shadowed: Vec<Shadowed>,
}

/// A skill left out because a higher layer has one of the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadowed {
    /// The name the two skills share.
    pub name: String,
    /// The layer whose skill is kept.
    pub kept: String,
    /// The layer whose skill is left out.
    pub hidden: String,
    /// The left-out skill's file.
    pub path: String,
}

impl std::fmt::Display for Shadowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "skill `{}` of layer `{}` ({}) is hidden by the skill of the same name in layer `{}`",
            self.name, self.hidden, self.path, self.kept
        )
    }
}

impl<'a> Layers<'a> {
    /// No layer yet: add the lowest first.
    pub fn new() -> Self {
        Layers { layers: Vec::new() }
    }

    /// Adds a layer below the ones added so far.
    pub fn layer(mut self, label: impl Into<String>, set: &'a SkillSet) -> Self {
        self.layers.push((label.into(), set));
        self
    }

    /// One set with every name once, from the highest layer that has it.
    /// Skills are cloned: borrowed text stays borrowed.
    pub fn merge(&self) -> Merged {
        let mut kept: BTreeMap<&str, &str> = BTreeMap::new();
        let mut skills = Vec::new();
        let mut shadowed = Vec::new();
        for (label, set) in &self.layers {
            for skill in set.iter() {
                match kept.get(skill.name()) {
                    Some(higher) => shadowed.push(Shadowed {
                        name: skill.name().to_owned(),
                        kept: (*higher).to_owned(),
                        hidden: label.clone(),
                        path: skill.path().to_owned(),
                    }),
                    None => {
                        kept.insert(skill.name(), label);
                        skills.push(skill.clone());
                    }
                }
            }
        }
        Merged {
            set: SkillSet::owned(skills),
            shadowed,
        }
    }
}
