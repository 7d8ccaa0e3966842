//! The index over a catalogue and the decision: BM25F over the name, the
//! listed text and the body, and the confidence the cut is held to.

use foldhash::{HashMap, HashMapExt};

use super::ranked::{Ranked, Reason, Scored};
use super::words::{self, words};

/// One catalogue entry: the skill's name, the text the host lists for it
/// (its description, cut where the host cuts it) and, for run-time
/// routing, its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Doc<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// What the host lists for it.
    pub text: &'a str,
    /// Its body (headings and text), read at a low weight; empty for what
    /// a host shows a model.
    pub body: &'a str,
}

impl<'a> Doc<'a> {
    /// An entry named `name` listed as `text`.
    pub fn new(name: &'a str, text: &'a str) -> Self {
        Doc {
            name,
            text,
            body: "",
        }
    }

    /// The same entry with its body read too.
    pub fn with_body(self, body: &'a str) -> Self {
        Doc { body, ..self }
    }
}

/// The router's constants: BM25F's (a saturation `k1`, and for each field a
/// weight and a length normalisation `b`), and the decision's. The
/// defaults were tuned on the development halves of our routing cases
/// only, in-scope and out-of-scope (BENCHMARKS.md).
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
    /// Weight of the body's words against the listed text's.
    pub body_weight: f64,
    /// Length normalisation of the body field.
    pub body_b: f64,
    /// The bonus for each pair of adjacent request words a skill's name or
    /// text has side by side, in units of the rarer word's weight.
    pub phrase_weight: f64,
    /// The bonus for a skill whose every name word the request has, in
    /// units of those words' weights.
    pub whole_name_weight: f64,
    /// How much coverage counts: its power in the confidence.
    pub coverage_power: f64,
    /// The score, in words only one skill has, at which the evidence share
    /// reaches `1 - 1/e`.
    pub evidence_scale: f64,
    /// The least confidence the best skill must have to be chosen.
    pub threshold: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k1: 1.2,
            name_weight: 3.0,
            name_b: 0.3,
            text_b: 0.75,
            body_weight: 0.3,
            body_b: 0.75,
            phrase_weight: 0.25,
            whole_name_weight: 0.5,
            coverage_power: 0.25,
            evidence_scale: 6.0,
            threshold: 0.25,
        }
    }
}

/// A catalogue indexed for routing. Built once; routing a query reads it.
#[derive(Debug, Clone)]
pub struct Router {
    pub(super) names: Vec<String>,
    /// Each skill's whole name as words, when it has two or more: a
    /// request that says them in order names the skill.
    phrases: Vec<Vec<String>>,
    /// Each word's postings: (skill, occurrences in the name, the text, the
    /// body).
    pub(super) postings: HashMap<String, Vec<Posting>>,
    /// Each pair of words side by side in a skill's name or text: the
    /// skills that have it.
    pairs: HashMap<(String, String), Vec<u32>>,
    /// Each skill's name words, once each.
    name_words: Vec<Vec<String>>,
    /// Each skill's BM25 length normalisation of each field, made once here
    /// rather than for every posting a query reads.
    norms: [Vec<f64>; 3],
    /// The sigils a request may start with to invoke a skill by name.
    sigils: Vec<char>,
    /// Skills a request may invoke but the router never chooses (the host
    /// does not list them): by name.
    hidden: Vec<String>,
    pub(super) params: Params,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Posting {
    pub(super) skill: u32,
    counts: [u16; 3],
}

/// The scores of one query before the decision: each skill's BM25F sum,
/// and what the query's known words could score at most.
struct Scores {
    raw: Vec<f64>,
    potential: f64,
}

impl Router {
    /// Indexes `docs` with the default [`Params`].
    pub fn new(docs: &[Doc<'_>]) -> Router {
        Router::with_params(docs, Params::default())
    }

    /// Indexes `docs` with `params`.
    pub fn with_params(docs: &[Doc<'_>], params: Params) -> Router {
        let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
        let mut lengths: [Vec<f64>; 3] = Default::default();
        let mut phrases = Vec::with_capacity(docs.len());
        let mut pairs: HashMap<(String, String), Vec<u32>> = HashMap::new();
        let mut name_words = Vec::with_capacity(docs.len());
        for (at, doc) in docs.iter().enumerate() {
            let skill = u32::try_from(at).unwrap_or(u32::MAX);
            let name = words(doc.name);
            let text = words(doc.text);
            let mut counts: HashMap<String, [u16; 3]> = HashMap::new();
            let mut count = |word: &str, field: usize| match counts.get_mut(word) {
                Some(entry) => entry[field] = entry[field].saturating_add(1),
                None => {
                    let mut entry = [0; 3];
                    entry[field] = 1;
                    counts.insert(word.to_owned(), entry);
                }
            };
            for (field, field_words) in [&name, &text].into_iter().enumerate() {
                lengths[field].push(field_words.len() as f64);
                for word in field_words {
                    count(word, field);
                }
            }
            // A body is read as it streams: it may be long.
            let mut body_length = 0usize;
            words::each_word(doc.body, |word| {
                body_length += 1;
                count(word, 2);
            });
            lengths[2].push(body_length as f64);
            let fields = [name.clone(), text];
            for (word, counts) in counts {
                postings
                    .entry(word)
                    .or_default()
                    .push(Posting { skill, counts });
            }
            if params.phrase_weight > 0.0 {
                for field in &fields {
                    for pair in field.windows(2) {
                        let skills = pairs.entry((pair[0].clone(), pair[1].clone())).or_default();
                        if skills.last() != Some(&skill) {
                            skills.push(skill);
                        }
                    }
                }
            }
            let mut own = name.clone();
            own.sort();
            own.dedup();
            name_words.push(own);
            phrases.push(if name.len() >= 2 { name } else { Vec::new() });
        }
        let bs = [params.name_b, params.text_b, params.body_b];
        Router {
            names: docs.iter().map(|doc| doc.name.to_owned()).collect(),
            phrases,
            norms: std::array::from_fn(|field| norms(&lengths[field], bs[field])),
            postings,
            pairs,
            name_words,
            sigils: Vec::new(),
            hidden: Vec::new(),
            params,
        }
    }

    /// The same router, invoking a skill for a request that starts with one
    /// of `sigils` and its name (`/pdf fill this in`); `hidden` are skills
    /// the host does not list but a user may still invoke
    /// (`disable-model-invocation: true`).
    pub fn invoked_by(mut self, sigils: &[char], hidden: &[&str]) -> Router {
        self.sigils = sigils.to_vec();
        self.hidden = hidden.iter().map(|name| (*name).to_owned()).collect();
        self
    }

    /// The same router with another cut (clamped to [0, 1]).
    pub fn threshold(mut self, threshold: f64) -> Router {
        self.params.threshold = threshold.clamp(0.0, 1.0);
        self
    }

    /// The constants in force.
    pub fn params(&self) -> &Params {
        &self.params
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
        if let Some(invoked) = self.invoked(query) {
            return Ranked {
                ranked: vec![Scored {
                    skill: invoked.to_owned(),
                    score: 1.0,
                }],
                chosen: Some((0, Reason::Invoked)),
                threshold: Some(self.params.threshold),
            };
        }
        let known = self.known_words(query);
        let named = self.named_in(&known);
        let scores = self.scores(&known);
        let mut ranked: Vec<Scored> = scores
            .raw
            .iter()
            .enumerate()
            .filter(|(at, raw)| **raw > 0.0 || named == Some(*at))
            .map(|(at, raw)| Scored {
                skill: self.names[at].clone(),
                score: if named == Some(at) {
                    1.0
                } else {
                    self.confidence(*raw, scores.potential)
                },
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.skill.cmp(&b.skill))
        });
        let chosen = match ranked.first() {
            Some(_) if named.is_some() => Some((0, Reason::Named)),
            Some(best) if best.score >= self.params.threshold => Some((0, Reason::Confident)),
            _ => None,
        };
        Ranked {
            ranked,
            chosen,
            threshold: Some(self.params.threshold),
        }
    }

    /// The request's words that some skill has, in order.
    fn known_words(&self, query: &str) -> Vec<String> {
        let mut known = words(query);
        known.retain(|word| self.postings.contains_key(word));
        known
    }

    /// Each skill's BM25F sum over `known` (each word once), and the most
    /// they could sum to.
    fn scores(&self, known: &[String]) -> Scores {
        let mut unique: Vec<&String> = known.iter().collect();
        unique.sort();
        unique.dedup();
        let mut raw = vec![0.0f64; self.names.len()];
        let mut potential = 0.0;
        for word in &unique {
            let postings = self.postings.get(*word).map_or(&[][..], Vec::as_slice);
            let idf = self.idf(postings.len());
            potential += idf;
            for posting in postings {
                let at = posting.skill as usize;
                raw[at] += idf * self.saturated(posting, at);
            }
        }
        let p = &self.params;
        if p.phrase_weight > 0.0 {
            let mut seen = std::collections::HashSet::new();
            for pair in known.windows(2) {
                let key = (pair[0].clone(), pair[1].clone());
                if !seen.insert(key.clone()) {
                    continue;
                }
                let Some(skills) = self.pairs.get(&key) else {
                    continue;
                };
                let weight = self.word_idf(&pair[0]).min(self.word_idf(&pair[1]));
                for &skill in skills {
                    raw[skill as usize] += p.phrase_weight * weight / skills.len() as f64;
                }
            }
        }
        if p.whole_name_weight > 0.0 {
            for (at, name) in self.name_words.iter().enumerate() {
                if raw[at] > 0.0
                    && !name.is_empty()
                    && name.iter().all(|w| unique.binary_search(&w).is_ok())
                {
                    let weight: f64 = name.iter().map(|w| self.word_idf(w)).sum();
                    raw[at] += p.whole_name_weight * weight / name.len() as f64;
                }
            }
        }
        Scores { raw, potential }
    }

    /// What one word only one skill has scores, said once in its text of
    /// average length: the unit of evidence.
    pub(super) fn unit(&self) -> f64 {
        self.idf(1) / (self.params.k1 + 1.0)
    }

    /// The inverse document frequency of `word` in this catalogue.
    fn word_idf(&self, word: &str) -> f64 {
        self.idf(self.postings.get(word).map_or(1, Vec::len))
    }

    /// BM25's inverse document frequency of a word `df` skills have.
    pub(super) fn idf(&self, df: usize) -> f64 {
        let n = self.names.len() as f64;
        let df = df.max(1) as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// BM25F's saturated term frequency of one posting, in [0, 1).
    pub(super) fn saturated(&self, posting: &Posting, at: usize) -> f64 {
        let tf = self.weighted(posting, at).iter().sum::<f64>();
        tf / (self.params.k1 + tf)
    }

    /// Each field's weighted, length-normalised count of one posting.
    pub(super) fn weighted(&self, posting: &Posting, at: usize) -> [f64; 3] {
        let p = &self.params;
        let weights = [p.name_weight, 1.0, p.body_weight];
        std::array::from_fn(|field| {
            weights[field] * f64::from(posting.counts[field]) / self.norms[field][at]
        })
    }

    /// The confidence of a skill that scored `raw` of `potential`.
    fn confidence(&self, raw: f64, potential: f64) -> f64 {
        if raw <= 0.0 || potential <= 0.0 {
            return 0.0;
        }
        let coverage = (raw / potential).clamp(0.0, 1.0);
        let evidence = raw / self.unit();
        let specific = 1.0 - (-evidence / self.params.evidence_scale.max(f64::EPSILON)).exp();
        (coverage.powf(self.params.coverage_power) * specific).clamp(0.0, 1.0)
    }

    /// The skill a request invokes: it starts with a sigil and a skill's
    /// name (listed or hidden), then a space or nothing.
    fn invoked(&self, query: &str) -> Option<&str> {
        let rest = query.trim_start();
        let sigil = rest.chars().next()?;
        if !self.sigils.contains(&sigil) {
            return None;
        }
        let token = rest[sigil.len_utf8()..]
            .split(char::is_whitespace)
            .next()
            .unwrap_or("")
            .trim_end_matches([',', '.', ':', ';', '!', '?']);
        self.names
            .iter()
            .chain(&self.hidden)
            .find(|name| name.eq_ignore_ascii_case(token))
            .map(String::as_str)
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

/// `1 - b + b * length / average length`, for each skill.
fn norms(lengths: &[f64], b: f64) -> Vec<f64> {
    let average = (lengths.iter().sum::<f64>() / lengths.len().max(1) as f64).max(1.0);
    lengths
        .iter()
        .map(|length| 1.0 - b + b * length / average)
        .collect()
}
