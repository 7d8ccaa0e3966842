//! Did-you-mean: the one rule by which the compiler's diagnostics and the
//! runtime's errors suggest a name.

/// Did-you-mean: the candidate closest to `word`, when it is close enough to
/// be a plausible typo: at most a third of its length away (one edit for
/// short names), by Damerau-Levenshtein distance.
///
/// ```
/// assert_eq!(skills_core::closest("descripton", ["name", "description"]), Some("description"));
/// assert_eq!(skills_core::closest("zzz", ["name"]), None);
/// ```
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let within = |candidate: &str| (candidate.len().max(word.len()) / 3).max(1);
    let chars = word.chars().count();
    candidates
        .into_iter()
        // The distance is at least the difference in length: most candidates
        // are ruled out before the (allocating) distance is computed.
        .filter(|candidate| candidate.chars().count().abs_diff(chars) <= within(candidate))
        .map(|candidate| (strsim::damerau_levenshtein(word, candidate), candidate))
        .filter(|&(distance, candidate)| distance <= within(candidate))
        .min()
        .map(|(_, candidate)| candidate)
}
