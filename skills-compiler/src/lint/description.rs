//! W007 and W008: what a description says.

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
pub(super) fn says_when(text: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::is_placeholder;

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
}
