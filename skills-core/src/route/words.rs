//! The words a router compares: lowercase, split at anything that is not
//! a letter or a digit, filler words dropped, English suffixes taken off so
//! that "creating", "creates" and "creation" meet. Runs of CJK characters
//! (which have no spaces) become overlapping pairs. One function for the
//! catalogue and the query, so both sides always agree. Synonyms of the
//! field's vocabulary meet at one word (`synonyms`).

/// Words that say nothing about which skill a request is for: English
/// function words, a request's politeness, and the catalogue's own stock
/// phrases ("use when", "skill"). Sorted, to be read.
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
    each_word(text, |word| out.push(word.to_owned()));
    out
}

/// Each word of `text`, as [`words`] gives them, to `f`, without keeping
/// them: the index reads whole skill bodies this way, one buffer reused.
pub(super) fn each_word(text: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if !cjk.is_empty() {
                push_cjk(&mut f, &mut cjk);
            }
            word.push(c.to_ascii_lowercase());
        } else if c.is_ascii() {
            push_word(&mut f, &mut word);
            push_cjk(&mut f, &mut cjk);
        } else if is_cjk(c) {
            push_word(&mut f, &mut word);
            cjk.push(c);
        } else if c.is_alphanumeric() {
            push_cjk(&mut f, &mut cjk);
            word.extend(c.to_lowercase());
        } else {
            push_word(&mut f, &mut word);
            push_cjk(&mut f, &mut cjk);
        }
    }
    push_word(&mut f, &mut word);
    push_cjk(&mut f, &mut cjk);
}

fn is_stop(word: &str) -> bool {
    static SET: std::sync::OnceLock<foldhash::HashSet<&'static str>> = std::sync::OnceLock::new();
    // No stop word is longer than 8 bytes: most words need no lookup.
    word.len() <= 8
        && SET
            .get_or_init(|| STOP.iter().copied().collect())
            .contains(word)
}

/// Gives `word` to `f` as the router compares it (stemmed, its synonym
/// group's word), unless it is filler or a number, and empties it.
fn push_word(f: &mut impl FnMut(&str), word: &mut String) {
    // A number ("3", "2024") says which version or day, not which skill.
    let number = word.bytes().all(|b| b.is_ascii_digit());
    if !word.is_empty() && !number && !is_stop(word) {
        super::stem::stem_in_place(word);
        // "skills" is as empty as "skill".
        if !is_stop(word) {
            match super::synonyms::canonical(word) {
                Some(to) => f(to),
                None => f(word),
            }
        }
    }
    word.clear();
}

/// A run of CJK characters as overlapping pairs (one character alone).
fn push_cjk(f: &mut impl FnMut(&str), run: &mut Vec<char>) {
    match run.len() {
        0 => {}
        1 => f(run[0].encode_utf8(&mut [0; 4])),
        _ => {
            for pair in run.windows(2) {
                f(&pair.iter().collect::<String>());
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_list_is_sorted_and_no_word_is_over_eight_bytes() {
        assert!(STOP.windows(2).all(|pair| pair[0] < pair[1]));
        // `is_stop` looks up only words of 8 bytes or fewer.
        assert!(STOP.iter().all(|word| word.len() <= 8));
    }

    #[test]
    fn forms_of_one_word_meet() {
        for group in [
            &["create", "creates", "created", "creating", "creation"][..],
            &["test", "tests", "tested", "testing"],
            &["deploy", "deploys", "deployment", "deploying"],
            &["query", "queries"],
            &["optimize", "optimise", "optimization", "optimizing"],
            &["run", "running", "runs"],
            &["plan", "planning", "plans"],
            &["note", "notes"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| super::super::stem::stem(w)).collect();
            assert!(
                stems.windows(2).all(|p| p[0] == p[1]),
                "{group:?}: {stems:?}"
            );
        }
    }

    #[test]
    fn cjk_runs_become_pairs_and_filler_goes() {
        assert_eq!(words("精读文章 please"), ["精读", "读文", "文章"]);
        assert_eq!(words("Use when the user asks"), Vec::<String>::new());
        // A stem is never a stop word by accident ("notes" is not "not").
        assert_eq!(words("release notes"), ["releas", "note"]);
    }
}
