//! The offline router as it was before routing v2 (issue 59), frozen here so
//! that benchmarks measure today's router beside it in one run. Not used
//! by the crate.

#![allow(dead_code)]

use std::collections::HashMap;

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

const STOP: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "ask",
    "asks", "at", "be", "been", "before", "being", "both", "but", "by", "can", "could", "did",
    "do", "does", "doing", "done", "each", "either", "etc", "for", "from", "get", "gets", "give",
    "go", "got", "had", "has", "have", "he", "help", "her", "here", "hers", "him", "his", "how",
    "i", "if", "in", "into", "is", "it", "its", "just", "let", "lets", "like", "me", "might",
    "mine", "more", "most", "must", "my", "need", "needs", "no", "nor", "not", "now", "of", "off",
    "ok", "on", "once", "one", "only", "or", "other", "our", "ours", "out", "over", "please", "s",
    "shall", "she", "should", "skill", "so", "some", "such", "t", "than", "thanks", "that", "the",
    "their", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too",
    "triggers", "under", "until", "up", "us", "use", "used", "user", "users", "uses", "using",
    "very", "via", "want", "wants", "was", "we", "were", "what", "when", "whenever", "where",
    "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
];

/// The words of `text`, as the router compares them, in order.
///
/// ```
/// use skills_core::route::words;
///
/// assert_eq!(words("Creating PDF forms, please!"), ["creat", "pdf", "form"]);
/// ```
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_cjk(c) {
            push_word(&mut out, &mut word);
            cjk.push(c);
        } else if c.is_alphanumeric() {
            push_cjk(&mut out, &mut cjk);
            word.extend(c.to_lowercase());
        } else {
            push_word(&mut out, &mut word);
            push_cjk(&mut out, &mut cjk);
        }
    }
    push_word(&mut out, &mut word);
    push_cjk(&mut out, &mut cjk);
    out
}

fn push_word(out: &mut Vec<String>, word: &mut String) {
    let stop = |w: &str| STOP.binary_search(&w).is_ok();
    // A number ("3", "2024") says which version or day, not which skill.
    let number = word.chars().all(|c| c.is_ascii_digit());
    if !word.is_empty() && !stop(word) && !number {
        let stemmed = stem(word);
        // "skills" is as empty as "skill".
        if !stop(&stemmed) {
            out.push(stemmed);
        }
    }
    word.clear();
}

/// A run of CJK characters as overlapping pairs (one character alone).
fn push_cjk(out: &mut Vec<String>, run: &mut Vec<char>) {
    match run.len() {
        0 => {}
        1 => out.push(run[0].to_string()),
        _ => out.extend(run.windows(2).map(|pair| pair.iter().collect())),
    }
    run.clear();
}

fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}' // kana
        | '\u{3400}'..='\u{4dbf}' // CJK extension A
        | '\u{4e00}'..='\u{9fff}' // CJK unified ideographs
        | '\u{ac00}'..='\u{d7af}' // Hangul syllables
        | '\u{f900}'..='\u{faff}') // compatibility ideographs
}

/// A light English stemmer: plurals, then one derivational or inflectional
/// suffix, then a doubled final consonant or a final `e`. Coarser than
/// Porter's, and the same on both sides, which is what matching needs.
fn stem(word: &str) -> String {
    if word.len() <= 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    if w.ends_with("sses") {
        w.truncate(w.len() - 2);
    } else if w.ends_with("ies") && w.len() > 4 {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.truncate(w.len() - 1);
    }
    const SUFFIXES: &[(&str, &str)] = &[
        ("ational", "ate"),
        ("ization", "ize"),
        ("isation", "ize"),
        ("ation", "ate"),
        ("ness", ""),
        ("ment", ""),
        ("ied", "y"),
        ("ing", ""),
        ("ise", "ize"),
        ("ed", ""),
    ];
    for (suffix, replacement) in SUFFIXES {
        if let Some(rest) = w.strip_suffix(suffix)
            && rest.len() >= 3
            && (*suffix != "ment" || rest.len() >= 5)
        {
            w = format!("{rest}{replacement}");
            break;
        }
    }
    let bytes = w.as_bytes();
    let n = bytes.len();
    // "running" to "run"; "create" to "creat", as "creating" became.
    let doubled = n >= 4 && bytes[n - 1] == bytes[n - 2] && !b"aeioulsz".contains(&bytes[n - 1]);
    let final_e = n >= 5 && bytes[n - 1] == b'e';
    if doubled || final_e {
        w.truncate(n - 1);
    }
    w
}
