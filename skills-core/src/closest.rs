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
    let letters = Letters::of(word);
    candidates
        .into_iter()
        // Two lower bounds of the distance rule most candidates out before
        // the (allocating, quadratic) distance is computed: a broken link's
        // suggestion weighs it against every file of its skill.
        .filter(|candidate| letters.distance_at_least(candidate) <= within(candidate))
        .map(|candidate| (strsim::damerau_levenshtein(word, candidate), candidate))
        .filter(|&(distance, candidate)| distance <= within(candidate))
        .min()
        .map(|(_, candidate)| candidate)
}

/// How many of each character a word has, by buckets of characters.
struct Letters {
    chars: usize,
    counts: [i32; Letters::BUCKETS],
}

impl Letters {
    const BUCKETS: usize = 64;

    fn of(word: &str) -> Letters {
        let mut letters = Letters {
            chars: 0,
            counts: [0; Letters::BUCKETS],
        };
        for c in word.chars() {
            letters.chars += 1;
            letters.counts[c as usize % Letters::BUCKETS] += 1;
        }
        letters
    }

    /// A lower bound of the Damerau-Levenshtein distance to `other`: the
    /// larger of the difference in length and the bag distance (how many
    /// characters one word has that the other lacks, the larger side).
    /// Each edit (an insertion, a deletion, a substitution) changes either
    /// side of the bag distance by at most one and a transposition changes
    /// neither, so no sequence of fewer edits turns one word into the
    /// other. Sharing a bucket only cancels differences out, so the bound
    /// holds for buckets too.
    fn distance_at_least(&self, other: &str) -> usize {
        let mut counts = self.counts;
        let mut chars = 0usize;
        for c in other.chars() {
            chars += 1;
            counts[c as usize % Letters::BUCKETS] -= 1;
        }
        let (more, fewer) = counts.iter().fold((0, 0), |(more, fewer), &count| {
            if count > 0 {
                (more + count.unsigned_abs() as usize, fewer)
            } else {
                (more, fewer + count.unsigned_abs() as usize)
            }
        });
        more.max(fewer).max(chars.abs_diff(self.chars))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `closest` as it was before the bound: every candidate weighed.
    fn closest_by_distance_alone<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let within = |candidate: &str| (candidate.len().max(word.len()) / 3).max(1);
        candidates
            .iter()
            .map(|&candidate| (strsim::damerau_levenshtein(word, candidate), candidate))
            .filter(|&(distance, candidate)| distance <= within(candidate))
            .min()
            .map(|(_, candidate)| candidate)
    }

    /// Words from a small alphabet, so that near words are common; `!`, `a`
    /// and `á` (U+0021, U+0061, U+00E1) share a bucket, and an emoji is
    /// four bytes of one character.
    fn word() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('a'),
                Just('b'),
                Just('c'),
                Just('!'),
                Just('á'),
                Just('/'),
                Just('.'),
                Just('é'),
                Just('😀'),
            ],
            0..12,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        #[test]
        fn the_bound_is_never_above_the_distance(a in word(), b in word()) {
            let bound = Letters::of(&a).distance_at_least(&b);
            prop_assert!(bound <= strsim::damerau_levenshtein(&a, &b), "{a:?} {b:?}: {bound}");
        }

        #[test]
        fn the_bound_never_changes_the_suggestion(
            word in word(),
            candidates in proptest::collection::vec(word(), 0..8),
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            prop_assert_eq!(
                closest(&word, candidates.iter().copied()),
                closest_by_distance_alone(&word, &candidates)
            );
        }
    }

    #[test]
    fn a_bucket_shared_by_two_characters_still_bounds() {
        // `!` (U+0021) and `a` (U+0061) share a bucket: their substitution
        // counts as no difference, which only lowers the bound.
        assert_eq!(Letters::of("a").distance_at_least("!"), 0);
        assert_eq!(Letters::of("ab").distance_at_least("ba"), 0);
        assert_eq!(Letters::of("abc").distance_at_least("xyz"), 3);
    }
}
