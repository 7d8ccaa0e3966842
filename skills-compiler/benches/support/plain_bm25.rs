//! Plain BM25 as google/skill-reach's `keyword` runtime does it: lowercase
//! words, a name mention first, then BM25 over name and description with
//! k1 1.5 and b 0.75, no stemming, no stop list, no abstention. The named
//! alternative the routing benchmarks measure beside ours.

#![allow(dead_code)]

use std::collections::HashMap;

pub struct PlainBm25 {
    names: Vec<String>,
    docs: Vec<HashMap<String, f64>>,
    lengths: Vec<f64>,
    df: HashMap<String, f64>,
    average: f64,
}

fn plain_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

impl PlainBm25 {
    pub fn new(entries: &[(String, String)]) -> PlainBm25 {
        let mut docs = Vec::new();
        let mut lengths = Vec::new();
        let mut df: HashMap<String, f64> = HashMap::new();
        for (name, text) in entries {
            let words = plain_words(&format!("{name} {text}"));
            lengths.push(words.len() as f64);
            let mut tf: HashMap<String, f64> = HashMap::new();
            for word in words {
                *tf.entry(word).or_default() += 1.0;
            }
            for word in tf.keys() {
                *df.entry(word.clone()).or_default() += 1.0;
            }
            docs.push(tf);
        }
        let average = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
        PlainBm25 {
            names: entries.iter().map(|(n, _)| n.clone()).collect(),
            docs,
            lengths,
            df,
            average,
        }
    }

    /// The skills best first: a named one, then every one that scores.
    pub fn rank(&self, query: &str) -> Vec<&str> {
        let lower = query.to_lowercase();
        let named = self
            .names
            .iter()
            .filter(|n| lower.contains(n.as_str()))
            .max_by_key(|n| n.len());
        let words = plain_words(query);
        let n = self.names.len() as f64;
        let (k1, b) = (1.5, 0.75);
        let mut scored: Vec<(f64, &str)> = Vec::new();
        for (at, doc) in self.docs.iter().enumerate() {
            let mut score = 0.0;
            for word in &words {
                let Some(tf) = doc.get(word) else { continue };
                let df = self.df[word];
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                score += idf * tf * (k1 + 1.0)
                    / (tf + k1 * (1.0 - b + b * self.lengths[at] / self.average));
            }
            if score > 0.0 {
                scored.push((score, &self.names[at]));
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let named = named.map(String::as_str);
        let rest = scored
            .into_iter()
            .map(|(_, name)| name)
            .filter(|name| Some(*name) != named);
        named.into_iter().chain(rest).collect()
    }

    /// The first of [`PlainBm25::rank`]: it never abstains while a word
    /// matches.
    pub fn route(&self, query: &str) -> Option<&str> {
        self.rank(query).first().copied()
    }
}
