//! W009: two descriptions so alike that a model cannot choose between them.

use std::borrow::Borrow;
use std::collections::HashMap;

use super::at::at_description;
use crate::diagnostics::{Code, Diagnostic};
use crate::ir::Skill;

/// Words too common to tell two descriptions apart (a `match`, not a list
/// scan: this runs for every word of every description): function words,
/// quantifiers ("one" or "a single" document is the same document), and the
/// words of the when-to-use clause that every description shares ("use
/// when the user wants", "whenever a user asks"). Plurals are folded
/// before the match, so `needs` is `need`.
fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "one"
            | "single"
            | "several"
            | "multiple"
            | "many"
            | "some"
            | "each"
            | "every"
            | "new"
            | "their"
            | "they"
            | "them"
            | "whenever"
            | "user"
            | "want"
            | "need"
            | "ask"
            | "asked"
            | "asking"
            | "a"
            | "an"
            | "the"
            | "and"
            | "or"
            | "of"
            | "to"
            | "for"
            | "in"
            | "on"
            | "with"
            | "by"
            | "from"
            | "at"
            | "as"
            | "is"
            | "are"
            | "be"
            | "this"
            | "that"
            | "it"
            | "its"
            | "your"
            | "you"
            | "use"
            | "used"
            | "using"
            | "when"
            | "skill"
            | "skills"
            | "via"
            | "into"
            | "any"
            | "all"
    )
}

/// The words of a description that can tell it apart, as numbers from
/// `ids` (new words get the next number): lower-cased, without stop words,
/// plurals folded (`tests` is `test`), sorted and unique.
fn distinguishing_words(text: &str, ids: &mut HashMap<String, u32>) -> Vec<u32> {
    let mut lower = String::new();
    let mut set: Vec<u32> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .filter_map(|word| {
            lower.clear();
            lower.extend(word.chars().flat_map(char::to_lowercase));
            // `this` is a stop word as written, `needs` once folded.
            if is_stop_word(&lower) {
                return None;
            }
            if lower.len() > 3 && lower.ends_with('s') && !lower.ends_with("ss") {
                lower.pop();
                if is_stop_word(&lower) {
                    return None;
                }
            }
            if let Some(&id) = ids.get(lower.as_str()) {
                return Some(id);
            }
            let id = u32::try_from(ids.len()).unwrap_or(u32::MAX);
            ids.insert(lower.clone(), id);
            Some(id)
        })
        .collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// The most Jaccard similarity below which two descriptions never clash.
pub(super) const SIMILAR_FROM: f64 = 0.8;

/// W009: pairs of descriptions where one says nothing the other does not
/// (its words are a subset of the other's) and they share at least 80% of
/// their words. A model picks a skill by what its description says that
/// the others do not: here one has nothing. Descriptions that differ in a
/// single telling word (`MySQL` and `PostgreSQL` in otherwise equal text)
/// are not flagged. Reported on the later skill of each pair, by name, and
/// once per skill.
pub fn similar_descriptions<S: Borrow<Skill>>(skills: &[S]) -> Vec<Diagnostic> {
    if skills.len() < 2 {
        return Vec::new();
    }
    // Words as numbers: sets compare as sorted integers, not strings.
    let mut ids: HashMap<String, u32> = HashMap::new();
    let words: Vec<Vec<u32>> = skills
        .iter()
        .map(|skill| distinguishing_words(skill.borrow().description(), &mut ids))
        .collect();
    // Each word's skills: a subset must hold the rarest word of the smaller set.
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for (i, set) in words.iter().enumerate() {
        for &word in set {
            holders[word as usize].push(i);
        }
    }
    // Each skill once, against the first skill it cannot be told from: a
    // group of `k` copies gives `k - 1` warnings, not `k * (k - 1) / 2`. Only
    // that partner is kept while looking (storing every pair took 7.9 GB
    // for 20,000 copies).
    let mut partner: Vec<Option<(usize, f64)>> = vec![None; skills.len()];
    for (i, small) in words.iter().enumerate() {
        let Some(&rarest) = small.iter().min_by_key(|&&w| holders[w as usize].len()) else {
            continue;
        };
        for &j in &holders[rarest as usize] {
            let large = &words[j];
            // Each pair once: the smaller set (or of equals the earlier skill) leads.
            if (small.len(), i) >= (large.len(), j) {
                continue;
            }
            let similarity = small.len() as f64 / large.len() as f64;
            let (first, second) = (i.min(j), i.max(j));
            let earlier = partner[second].is_some_and(|(known, _)| known < first);
            if !earlier && similarity >= SIMILAR_FROM && is_subset(small, large) {
                partner[second] = Some((first, similarity));
            }
        }
    }
    partner
        .into_iter()
        .enumerate()
        .filter_map(|(second, found)| found.map(|(first, similarity)| (first, second, similarity)))
        .map(|(first, second, similarity)| {
            let (first, second) = (skills[first].borrow(), skills[second].borrow());
            at_description(
                second,
                Code::SimilarDescriptions,
                format!(
                    "the descriptions of `{}` and `{}` share {:.0}% of their words, and one says nothing the other does not: a model cannot choose between them",
                    first.name(), second.name(), similarity * 100.0
                ),
            )
            .with_help(format!(
                "say what sets `{}` apart from `{}` (`{}`), or merge them",
                second.name(), first.name(), first.path()
            ))
        })
        .collect()
}

/// Both sorted and unique: one merge walk, which stops at the first word of
/// `small` that `large` lacks.
fn is_subset(small: &[u32], large: &[u32]) -> bool {
    let mut rest = large;
    for word in small {
        match rest.iter().position(|other| other >= word) {
            Some(at) if rest[at] == *word => rest = &rest[at + 1..],
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fold_plurals_and_drop_stop_words() {
        let mut ids = HashMap::new();
        let set = distinguishing_words("Runs the tests, and the Test suites.", &mut ids);
        let mut words: Vec<&str> = set
            .iter()
            .map(|id| ids.iter().find(|(_, v)| *v == id).unwrap().0.as_str())
            .collect();
        words.sort_unstable();
        assert_eq!(words, ["run", "suite", "test"]);
        assert_eq!(distinguishing_words("Class access", &mut ids).len(), 2);
        assert!(ids.contains_key("class") && ids.contains_key("access"));
    }
}
