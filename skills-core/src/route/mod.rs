//! Which skill a request is for, from the catalogue alone: what a model
//! reads before it picks a skill (each skill's name and the description the
//! host lists), never a skill's body.
//!
//! The router is deterministic and offline: a skill the request names (its
//! whole name, when it has two words or more) is chosen; otherwise the
//! skills are ranked by BM25F over two fields (the name's words and the
//! listed text), and the best is chosen only when its score, as a share of
//! what the query's words could score at most in this catalogue, clears a
//! threshold: a request no skill is for gets none (abstention). Ties are
//! broken by name.
//!
//! ```
//! use skills_core::route::{Doc, Router};
//!
//! let router = Router::new(&[
//!     Doc::new("pdf", "Fill in PDF forms and extract text from PDF files."),
//!     Doc::new("release-notes", "Write release notes from merged pull requests."),
//! ]);
//! assert_eq!(router.route("fill in this PDF form for me").chosen(), Some("pdf"));
//! assert_eq!(router.route("what's the weather in Lisbon?").chosen(), None);
//! ```

mod words;

use std::collections::HashMap;

pub use words::words;

/// One catalogue entry: the skill's name and the text the host lists for
/// it (its description, cut where the host cuts it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Doc<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// What the host lists for it.
    pub text: &'a str,
}

impl<'a> Doc<'a> {
    /// An entry named `name` listed as `text`.
    pub fn new(name: &'a str, text: &'a str) -> Self {
        Doc { name, text }
    }
}

/// The router's constants: BM25F's (a saturation `k1`, and for each field a
/// weight and a length normalisation `b`) and the abstention threshold. The
/// defaults were tuned on the development half of our routing cases only
/// (BENCHMARKS.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Term-frequency saturation.
    pub k1: f64,
    /// Weight of the name's words against the listed text's.
    pub name_weight: f64,
    /// Length normalisation of the name field.
    pub name_b: f64,
    /// Length normalisation of the text field.
    pub text_b: f64,
    /// The least share of the query's best possible score the best skill
    /// must have to be chosen.
    pub threshold: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k1: 1.2,
            name_weight: 3.0,
            name_b: 0.3,
            text_b: 0.75,
            threshold: 0.22,
        }
    }
}

/// A catalogue indexed for routing. Built once; routing a query reads it.
#[derive(Debug, Clone)]
pub struct Router {
    names: Vec<String>,
    /// Each skill's whole name as words, when it has two or more: a
    /// request that says them in order names the skill.
    phrases: Vec<Vec<String>>,
    /// Each word's postings: (skill, occurrences in the name, in the text).
    postings: HashMap<String, Vec<(u32, u16, u16)>>,
    /// Each skill's BM25 length normalisation of its name and of its text,
    /// made once here rather than for every posting a query reads.
    name_norm: Vec<f64>,
    text_norm: Vec<f64>,
    params: Params,
}

/// A skill and its score for one query.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The skill's name.
    pub skill: String,
    /// Its share of the query's best possible score, 0 to 1 (1 for a skill
    /// the query names).
    pub score: f64,
}

/// A query's ranking: every skill that shares a word with it, best first
/// (ties by name), and the choice.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// Best first.
    pub ranked: Vec<Scored>,
    chosen: Option<usize>,
    /// The choice is a skill the query names.
    pub named: bool,
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
            chosen: choice.map(|_| 0),
            named: false,
        }
    }

    /// The skill chosen, or `None` when the router abstains.
    pub fn chosen(&self) -> Option<&str> {
        self.chosen.map(|at| self.ranked[at].skill.as_str())
    }

    /// The best `k` skills, whether or not one was chosen.
    pub fn top(&self, k: usize) -> &[Scored] {
        &self.ranked[..k.min(self.ranked.len())]
    }
}

impl Router {
    /// Indexes `docs` with the default [`Params`].
    pub fn new(docs: &[Doc<'_>]) -> Router {
        Router::with_params(docs, Params::default())
    }

    /// Indexes `docs` with `params`.
    pub fn with_params(docs: &[Doc<'_>], params: Params) -> Router {
        let mut postings: HashMap<String, Vec<(u32, u16, u16)>> = HashMap::new();
        let mut name_len = Vec::with_capacity(docs.len());
        let mut text_len = Vec::with_capacity(docs.len());
        let mut phrases = Vec::with_capacity(docs.len());
        for (at, doc) in docs.iter().enumerate() {
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            let name = words(doc.name);
            let text = words(doc.text);
            name_len.push(name.len() as f64);
            text_len.push(text.len() as f64);
            let mut counts: HashMap<&str, (u16, u16)> = HashMap::new();
            for word in &name {
                let count = &mut counts.entry(word).or_default().0;
                *count = count.saturating_add(1);
            }
            for word in &text {
                let count = &mut counts.entry(word).or_default().1;
                *count = count.saturating_add(1);
            }
            for (word, (in_name, in_text)) in counts {
                postings
                    .entry(word.to_owned())
                    .or_default()
                    .push((at, in_name, in_text));
            }
            phrases.push(if name.len() >= 2 { name } else { Vec::new() });
        }
        // 1 - b + b * length / average length, for each skill.
        let norms = |lengths: &[f64], b: f64| -> Vec<f64> {
            let average = (lengths.iter().sum::<f64>() / lengths.len().max(1) as f64).max(1.0);
            lengths
                .iter()
                .map(|length| 1.0 - b + b * length / average)
                .collect()
        };
        Router {
            names: docs.iter().map(|doc| doc.name.to_owned()).collect(),
            phrases,
            name_norm: norms(&name_len, params.name_b),
            text_norm: norms(&text_len, params.text_b),
            postings,
            params,
        }
    }

    /// How many skills the catalogue has.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the catalogue is empty.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Ranks the catalogue for `query` and chooses a skill, or none.
    pub fn route(&self, query: &str) -> Ranked {
        let mut query_words = words(query);
        let named = self.named_in(&query_words);
        query_words.sort();
        query_words.dedup();
        let n = self.names.len() as f64;
        let mut scores = vec![0.0f64; self.names.len()];
        let mut best_possible = 0.0;
        for word in &query_words {
            let postings = self.postings.get(word).map_or(&[][..], Vec::as_slice);
            // A word no skill has could at best have been one skill's: it
            // counts against the query as such (else, in a small catalogue,
            // one stray word outweighs every word that matched).
            let df = postings.len().max(1) as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            best_possible += idf;
            let p = &self.params;
            for &(at, in_name, in_text) in postings {
                let at = at as usize;
                let tf = p.name_weight * f64::from(in_name) / self.name_norm[at]
                    + f64::from(in_text) / self.text_norm[at];
                scores[at] += idf * tf / (p.k1 + tf);
            }
        }
        let mut ranked: Vec<Scored> = scores
            .iter()
            .enumerate()
            .filter(|(at, score)| **score > 0.0 || named == Some(*at))
            .map(|(at, score)| Scored {
                skill: self.names[at].clone(),
                score: if named == Some(at) {
                    1.0
                } else if best_possible > 0.0 {
                    score / best_possible
                } else {
                    0.0
                },
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.skill.cmp(&b.skill))
        });
        let chosen = match ranked.first() {
            Some(_) if named.is_some() => Some(0),
            Some(best) if best.score >= self.params.threshold => Some(0),
            _ => None,
        };
        Ranked {
            ranked,
            chosen,
            named: named.is_some(),
        }
    }

    /// The skill whose whole name (two words or more) the query says in
    /// order; the longest such name when several are.
    fn named_in(&self, query: &[String]) -> Option<usize> {
        self.phrases
            .iter()
            .enumerate()
            .filter(|(_, phrase)| {
                !phrase.is_empty() && query.windows(phrase.len()).any(|w| w == phrase.as_slice())
            })
            .max_by(|(a, x), (b, y)| {
                x.len()
                    .cmp(&y.len())
                    .then_with(|| self.names[*b].cmp(&self.names[*a]))
            })
            .map(|(at, _)| at)
    }
}
