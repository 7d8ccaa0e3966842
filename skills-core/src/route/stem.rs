//! A light English stemmer: plurals, then one derivational or inflectional
//! suffix, then a doubled final consonant or a final `e`. Coarser than
//! Porter's, and the same on both sides, which is what matching needs.

/// A light English stemmer: plurals, then one derivational or inflectional
/// suffix, then a doubled final consonant or a final `e`. Coarser than
/// Porter's, and the same on both sides, which is what matching needs.
pub(super) fn stem(word: &str) -> String {
    let mut w = word.to_owned();
    stem_in_place(&mut w);
    w
}

/// [`stem`] in the word's own buffer: the tokenizer's hot path allocates
/// nothing for it.
pub(super) fn stem_in_place(w: &mut String) {
    if w.len() <= 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return;
    }
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
            let keep = rest.len();
            w.truncate(keep);
            w.push_str(replacement);
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
}
