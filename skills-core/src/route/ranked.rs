//! A query's ranking and choice, as the router gives them.

/// How the choice was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The best-ranked skill's confidence cleared the cut.
    Confident,
    /// The request says the skill's whole name.
    Named,
    /// The request starts with `/NAME` or `$NAME`, as the host's invocation.
    Invoked,
}

/// A skill and its confidence for one query.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The skill's name.
    pub skill: String,
    /// Its confidence, 0 to 1 (1 for a skill the query names or invokes).
    pub score: f64,
}

/// A query's ranking: every skill that shares a word with it, best first
/// (ties by name), and the choice.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// Best first.
    pub ranked: Vec<Scored>,
    pub(super) chosen: Option<(usize, Reason)>,
    /// The cut the choice was held to (`None` for a router that only
    /// chooses).
    pub threshold: Option<f64>,
}

impl Ranked {
    /// A choice without a ranking, as a router that only chooses (a model)
    /// gives it.
    pub fn only(choice: Option<&str>) -> Ranked {
        Ranked {
            ranked: choice
                .map(|skill| {
                    vec![Scored {
                        skill: skill.to_owned(),
                        score: 1.0,
                    }]
                })
                .unwrap_or_default(),
            chosen: choice.map(|_| (0, Reason::Confident)),
            threshold: None,
        }
    }

    /// The skill chosen, or `None` when the router abstains.
    pub fn chosen(&self) -> Option<&str> {
        self.chosen.map(|(at, _)| self.ranked[at].skill.as_str())
    }

    /// How the skill was chosen, when one was.
    pub fn reason(&self) -> Option<Reason> {
        self.chosen.map(|(_, reason)| reason)
    }

    /// The best `k` skills, whether or not one was chosen.
    pub fn top(&self, k: usize) -> &[Scored] {
        &self.ranked[..k.min(self.ranked.len())]
    }
}
