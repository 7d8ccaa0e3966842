//! Why the router ranked and chose as it did, for `cargo skills route
//! --explain`: for each of the best skills, the words it matched with their
//! field and share of the score, the request's words no skill has, and the
//! confidence beside the cut. Bounded whatever the request's length: at
//! most [`MAX_WORDS`] words are listed of each kind, and the rest counted.

use super::ranked::Ranked;
use super::router::Router;

/// The most words an explanation lists of one kind (matched by one skill,
/// or unknown to all); the rest are counted.
pub const MAX_WORDS: usize = 20;

/// Where a skill has a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// The skill's name.
    Name,
    /// What the host lists (its description).
    Text,
    /// Its body (run-time routing only).
    Body,
}

impl Field {
    /// `name`, `description` or `body`.
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Text => "description",
            Field::Body => "body",
        }
    }
}

/// One word a skill matched, in one field.
#[derive(Debug, Clone, PartialEq)]
pub struct Matched {
    /// The word, as the router compares it (stemmed).
    pub word: String,
    /// Where the skill has it.
    pub field: Field,
    /// Its part of the skill's score, as a share of what the request's
    /// known words could score at most (the parts sum to the coverage).
    pub share: f64,
}

/// Why one skill scored what it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Why {
    /// The skill.
    pub skill: String,
    /// Its confidence, 0 to 1.
    pub score: f64,
    /// Its score over the most the request's known words could score.
    pub coverage: f64,
    /// How specific its match is, 0 to 1.
    pub evidence: f64,
    /// The words it matched, largest share first (at most [`MAX_WORDS`]).
    pub matched: Vec<Matched>,
    /// How many more it matched.
    pub more: usize,
}

/// A request's ranking and choice, with the reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    /// The ranking and the choice, as [`Router::route`] gives them.
    pub ranked: Ranked,
    /// The best skills, as ranked.
    pub top: Vec<Why>,
    /// The request's words no skill has (at most [`MAX_WORDS`]): they do
    /// not count, for or against.
    pub unknown: Vec<String>,
    /// How many words no skill has, in all.
    pub unknown_count: usize,
    /// The cut in force.
    pub threshold: f64,
}

impl Explained {
    /// How far the best skill is from the cut: positive above it.
    pub fn margin(&self) -> Option<f64> {
        self.top.first().map(|why| why.score - self.threshold)
    }
}

impl Router {
    /// [`Router::route`], with why, for the best `k` skills.
    pub fn explain(&self, query: &str, k: usize) -> Explained {
        let ranked = self.route(query);
        let mut all = super::words(query);
        all.sort();
        all.dedup();
        let (known, unknown): (Vec<String>, Vec<String>) = all
            .into_iter()
            .partition(|word| self.postings.contains_key(word));
        let potential: f64 = known
            .iter()
            .map(|word| self.idf(self.postings[word].len()))
            .sum();
        let top = ranked
            .top(k)
            .iter()
            .map(|scored| self.why(&scored.skill, scored.score, &known, potential))
            .collect();
        Explained {
            top,
            unknown_count: unknown.len(),
            unknown: unknown.into_iter().take(MAX_WORDS).collect(),
            threshold: self.params.threshold,
            ranked,
        }
    }

    fn why(&self, skill: &str, score: f64, known: &[String], potential: f64) -> Why {
        let mut matched = Vec::new();
        let mut raw = 0.0;
        if let Some(at) = self.names.iter().position(|name| name == skill) {
            for word in known {
                let postings = &self.postings[word];
                let Some(posting) = postings.iter().find(|p| p.skill as usize == at) else {
                    continue;
                };
                let contribution = self.idf(postings.len()) * self.saturated(posting, at);
                raw += contribution;
                let fields = self.weighted(posting, at);
                let total: f64 = fields.iter().sum();
                for (field, weight) in [Field::Name, Field::Text, Field::Body]
                    .into_iter()
                    .zip(fields)
                    .filter(|(_, weight)| *weight > 0.0)
                {
                    matched.push(Matched {
                        word: word.clone(),
                        field,
                        share: contribution * weight / total / potential.max(f64::EPSILON),
                    });
                }
            }
        }
        matched.sort_by(|a, b| {
            b.share
                .total_cmp(&a.share)
                .then_with(|| a.word.cmp(&b.word))
                .then_with(|| a.field.cmp(&b.field))
        });
        let more = matched.len().saturating_sub(MAX_WORDS);
        matched.truncate(MAX_WORDS);
        let evidence = 1.0 - (-raw / self.unit() / self.params.evidence_scale).exp();
        Why {
            skill: skill.to_owned(),
            score,
            coverage: if potential > 0.0 {
                raw / potential
            } else {
                0.0
            },
            evidence,
            matched,
            more,
        }
    }
}
