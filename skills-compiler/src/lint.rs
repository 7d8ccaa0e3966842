//! Lints: valid skills that will still work badly with a model. Warnings
//! only (`deny_warnings` makes them errors); each rule and its measured
//! false-positive rate on real collections is in `docs/budget.md`.
//!
//! - W007: a description is the placeholder `cargo skills new` wrote;
//! - W008: a description never says when to use the skill;
//! - W009: two descriptions a model cannot choose between;
//! - W010: a body over the Agent Skills client guide's recommended size.

use std::collections::HashMap;

use crate::budget;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;
use crate::source::SourceFile;

/// The client guide's recommended most lines of a body.
pub const MAX_BODY_LINES: usize = 500;
/// The client guide's recommended most tokens of a body (estimated, 4 characters each).
pub const MAX_BODY_TOKENS: usize = 5_000;

/// Lints of one valid skill, read from `source` (the file as parsed).
pub fn skill(skill: &Skill, source: &SourceFile, diagnostics: &mut Vec<Diagnostic>) {
    if let Some(span) = &skill.description_span {
        if is_placeholder(&skill.description) {
            diagnostics.push(
                Diagnostic::at(
                    Code::PlaceholderDescription,
                    source,
                    span.clone(),
                    "the description is still a placeholder (left by `cargo skills new` or a template)",
                )
                .with_severity(Severity::Warning)
                .with_help("say what the skill does and when a model should use it: the description is sent on every turn"),
            );
        } else if !says_when(&skill.description) {
            diagnostics.push(
                Diagnostic::at(
                    Code::NoWhenToUse,
                    source,
                    span.clone(),
                    "the description says what the skill does but never when to use it",
                )
                .with_severity(Severity::Warning)
                .with_help("add a clause a model can match a request against, e.g. `Use when the user asks to ...`"),
            );
        }
    }
    if let Some(diagnostic) = long_body(skill, source) {
        diagnostics.push(diagnostic);
    }
}

/// Whether `text` is a placeholder: `TODO`, `TBD` or `FIXME` first, the
/// sentence `cargo skills new` writes, or the `Replace with ...` of
/// Anthropic's skill template.
pub fn is_placeholder(text: &str) -> bool {
    let text = text.trim_start();
    let marker = ["TODO", "TBD", "FIXME"].iter().any(|marker| {
        text.get(..marker.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(marker))
            && !text[marker.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    });
    marker
        || (text.starts_with("say what ") && text.contains("when a model should use it"))
        || text.starts_with("Replace with description")
}

/// Words that, alone, introduce a condition or an occasion.
const WHEN_WORDS: &[&str] = &[
    "when",
    "whenever",
    "if",
    "before",
    "after",
    "during",
    "while",
    "upon",
    "once",
    "trigger",
    "triggers",
    "triggered",
    "invoke",
    "invoked",
    "activate",
    "activates",
    "activated",
    "proactively",
    "ask",
    "asks",
    "asked",
    "asking",
    "need",
    "needs",
    "want",
    "wants",
];

/// Two-word phrases that say what a skill is for.
const WHEN_PHRASES: &[(&str, &str)] = &[
    ("use", "for"),
    ("use", "to"),
    ("use", "this"),
    ("use", "it"),
    ("use", "on"),
    ("use", "with"),
    ("use", "in"),
    ("used", "for"),
    ("used", "to"),
    ("for", "use"),
    ("apply", "to"),
    ("applies", "to"),
    ("ideal", "for"),
    ("useful", "for"),
    ("helpful", "for"),
    ("designed", "for"),
];

/// Chinese and Japanese markers of "when" and "used for".
const WHEN_MARKERS: &[&str] = &["当", "时", "使用", "用于", "适用", "場合", "ときに"];

/// Whether `text` has a clause that says when to use the skill.
pub fn says_when(text: &str) -> bool {
    let lower = text.to_lowercase();
    let mut previous = "";
    for word in lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if WHEN_WORDS.contains(&word) || WHEN_PHRASES.contains(&(previous, word)) {
            return true;
        }
        previous = word;
    }
    WHEN_MARKERS.iter().any(|marker| text.contains(marker))
}

/// The byte offset of the `n`th character (from 0) of `text`, if it has
/// that many: characters are counted in blocks (a character starts at every
/// byte that does not continue one), then found in the last block. Decoding
/// every character up to 20,000 of them was most of W010's cost.
fn nth_char_at(text: &str, n: usize) -> Option<usize> {
    let starts_char = |b: &u8| (*b as i8) >= -0x40;
    let bytes = text.as_bytes();
    let (mut offset, mut remaining) = (0, n);
    for block in bytes.chunks(64) {
        let starts: u8 = block.iter().map(|b| u8::from(starts_char(b))).sum();
        if usize::from(starts) > remaining {
            break;
        }
        remaining -= usize::from(starts);
        offset += block.len();
    }
    bytes[offset..]
        .iter()
        .enumerate()
        .filter(|(_, b)| starts_char(b))
        .nth(remaining)
        .map(|(at, _)| offset + at)
}

/// W010 at the line where the body passes 500 lines or about 5,000 tokens.
fn long_body(skill: &Skill, source: &SourceFile) -> Option<Diagnostic> {
    let body_start = source.text().len().checked_sub(skill.body.len())?;
    // Cheap bounds first: this runs on every body of every check. A byte
    // count of newlines vectorises; characters are counted only when the
    // bytes could pass the token limit.
    let newlines = crate::source::count_newlines(&skill.body);
    let may_pass_tokens = skill.body.len() > MAX_BODY_TOKENS * 4;
    if newlines < MAX_BODY_LINES && !may_pass_tokens {
        return None;
    }
    // `str::lines` would count them again: a last line without a break is one more.
    let lines = newlines + usize::from(!skill.body.is_empty() && !skill.body.ends_with('\n'));
    let tokens = budget::estimated_tokens(&skill.body);
    if lines <= MAX_BODY_LINES && tokens <= MAX_BODY_TOKENS {
        return None;
    }
    // Where the body crosses the first limit it passes.
    let by_lines = skill
        .body
        .match_indices('\n')
        .nth(MAX_BODY_LINES - 1)
        .map(|(at, _)| at + 1);
    let by_tokens = nth_char_at(&skill.body, MAX_BODY_TOKENS * 4);
    let at = by_lines
        .into_iter()
        .chain(by_tokens)
        .min()
        .unwrap_or_default();
    let line = source.line_col(body_start + at).line;
    Some(
        Diagnostic::at(
            Code::LongBody,
            source,
            source.line_range(line),
            format!(
                "the body is {lines} lines and about {} tokens; the Agent Skills client guide recommends under {MAX_BODY_LINES} lines and {} tokens",
                budget::thousands(tokens),
                budget::thousands(MAX_BODY_TOKENS)
            ),
        )
        .with_severity(Severity::Warning)
        .with_help("the whole body is read when the skill loads: move detail from here on into files under `references/` and link them"),
    )
}

/// Words too common to tell two descriptions apart (a `match`, not a list
/// scan: this runs for every word of every description).
fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
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
            if is_stop_word(&lower) {
                return None;
            }
            if lower.len() > 3 && lower.ends_with('s') && !lower.ends_with("ss") {
                lower.pop();
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
pub const SIMILAR_FROM: f64 = 0.8;

/// W009: pairs of descriptions where one says nothing the other does not
/// (its words are a subset of the other's) and they share at least 80% of
/// their words. A model picks a skill by what its description says that
/// the others do not: here one has nothing. Descriptions that differ in a
/// single telling word (`MySQL` and `PostgreSQL` in otherwise equal text)
/// are not flagged. Reported on the later skill of each pair, by name, and
/// once per skill.
pub fn similar_descriptions(skills: &[Skill]) -> Vec<Diagnostic> {
    if skills.len() < 2 {
        return Vec::new();
    }
    // Words as numbers: sets compare as sorted integers, not strings.
    let mut ids: HashMap<String, u32> = HashMap::new();
    let words: Vec<Vec<u32>> = skills
        .iter()
        .map(|skill| distinguishing_words(&skill.description, &mut ids))
        .collect();
    // Each word's skills: a subset must hold the rarest word of the smaller set.
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for (i, set) in words.iter().enumerate() {
        for &word in set {
            holders[word as usize].push(i);
        }
    }
    let mut pairs = Vec::new();
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
            if similarity >= SIMILAR_FROM && is_subset(small, large) {
                pairs.push((i.min(j), i.max(j), similarity));
            }
        }
    }
    // Each skill once, against the first skill it cannot be told from: a
    // group of `k` copies gives `k - 1` warnings, not `k * (k - 1) / 2`.
    pairs.sort_by_key(|&(first, second, _)| (second, first));
    pairs.dedup_by_key(|pair| pair.1);
    pairs
        .into_iter()
        .map(|(first, second, similarity)| {
            let (first, second) = (&skills[first], &skills[second]);
            at_description(
                second,
                Code::SimilarDescriptions,
                format!(
                    "the descriptions of `{}` and `{}` share {:.0}% of their words, and one says nothing the other does not: a model cannot choose between them",
                    first.name, second.name, similarity * 100.0
                ),
            )
            .with_help(format!(
                "say what sets `{}` apart from `{}` (`{}`), or merge them",
                second.name, first.name, first.path
            ))
        })
        .collect()
}

/// A diagnostic at `skill`'s description, for lints over a whole set (whose
/// files were let go after validation: the text is rebuilt from the skill),
/// or at the file when `lenient` derived the description.
pub fn at_description(skill: &Skill, code: Code, message: String) -> Diagnostic {
    match &skill.description_span {
        Some(span) => {
            let file = SourceFile::new(skill.path.clone(), skill.source_text());
            Diagnostic::at(code, &file, span.clone(), message).with_severity(Severity::Warning)
        }
        None => Diagnostic::warning(code, skill.path.clone(), message),
    }
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
    fn the_nth_character_is_found_across_blocks_and_multibyte_characters() {
        let texts = [
            String::new(),
            "abc".into(),
            "é".repeat(100),
            format!("{}😀{}", "a".repeat(63), "b".repeat(200)),
            "a€😀é\n".repeat(40),
        ];
        for text in &texts {
            for n in 0..text.chars().count() + 2 {
                assert_eq!(
                    nth_char_at(text, n),
                    text.char_indices().nth(n).map(|(at, _)| at),
                    "{text:?} {n}"
                );
            }
        }
    }

    /// W010 from a skill whose body is `body`.
    fn long_body_of(body: &str) -> Option<String> {
        let text = format!("---\nname: a\ndescription: Use when testing.\n---\n{body}");
        let files = crate::validate::SkillFiles {
            path: "skills/a/SKILL.md".into(),
            directory: "a".into(),
            bytes: text.clone().into_bytes(),
            tools_yaml: None,
        };
        let (mut sources, mut diagnostics) = (crate::Sources::default(), Vec::new());
        let config = crate::Config::default();
        let skill =
            crate::validate::skill(files, &config, &mut sources, &mut diagnostics).expect("valid");
        long_body(&skill, &SourceFile::new("skills/a/SKILL.md", text)).map(|d| d.message)
    }

    #[test]
    fn a_body_passes_500_lines_at_its_501st_with_or_without_a_last_break() {
        assert_eq!(long_body_of(&"line\n".repeat(500)), None);
        assert_eq!(long_body_of(&format!("{}line", "line\n".repeat(499))), None);
        let over = long_body_of(&format!("{}line", "line\n".repeat(500))).expect("W010");
        assert!(
            over.starts_with("the body is 501 lines and about 626 tokens"),
            "{over}"
        );
        let over = long_body_of(&"line\n".repeat(501)).expect("W010");
        assert!(over.starts_with("the body is 501 lines"), "{over}");
        // Blank lines count as lines (leading ones are not part of the body).
        let over = long_body_of(&format!("text{}", "\n".repeat(501))).expect("W010");
        assert!(over.starts_with("the body is 501 lines"), "{over}");
    }

    #[test]
    fn placeholders_are_the_scaffold_and_todo_markers() {
        assert!(is_placeholder(
            "TODO: say what deploy does and when a model should use it."
        ));
        assert!(is_placeholder(
            "say what deploy does and when a model should use it."
        ));
        assert!(is_placeholder("todo"));
        assert!(is_placeholder("  FIXME - write me"));
        assert!(is_placeholder(
            "Replace with description of the skill and when Claude should use it."
        ));
        assert!(!is_placeholder(
            "Todoist tasks: list and add. Use when asked."
        ));
        assert!(!is_placeholder("Deploys the app."));
    }

    #[test]
    fn when_clauses_are_found_in_several_phrasings() {
        for text in [
            "Deploys the app. Use when the user asks to ship.",
            "Formats SQL; use this for queries.",
            "Runs before every release.",
            "Apply to any task requiring full output.",
            "Trigger on deploy requests.",
            "分析睡眠数据。当用户询问睡眠时使用。",
        ] {
            assert!(says_when(text), "{text}");
        }
        for text in [
            "Deploys the app.",
            "Code quality dashboard. (gstack)",
            "Whence? Usefulness.",
        ] {
            assert!(!says_when(text), "{text}");
        }
    }

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
