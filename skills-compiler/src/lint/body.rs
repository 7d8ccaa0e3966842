//! W010: a body over the Agent Skills client guide's recommended size.

use crate::budget;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;

/// The client guide's recommended most lines of a body.
pub(super) const MAX_BODY_LINES: usize = 500;
/// The client guide's recommended most tokens of a body (estimated, 4 characters each).
pub(super) const MAX_BODY_TOKENS: usize = 5_000;

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
pub(super) fn long_body(skill: &Skill, source: &SourceFile) -> Option<Diagnostic> {
    let body_start = source.text().len().checked_sub(skill.body().len())?;
    // Cheap bounds first: this runs on every body of every check. A byte
    // count of newlines vectorises; characters are counted only when the
    // bytes could pass the token limit.
    let newlines = crate::diagnostics::source::count_newlines(skill.body());
    let may_pass_tokens = skill.body().len() > MAX_BODY_TOKENS * 4;
    if newlines < MAX_BODY_LINES && !may_pass_tokens {
        return None;
    }
    // `str::lines` would count them again: a last line without a break is one more.
    let lines = newlines + usize::from(!skill.body().is_empty() && !skill.body().ends_with('\n'));
    let tokens = budget::estimated_tokens(skill.body());
    if lines <= MAX_BODY_LINES && tokens <= MAX_BODY_TOKENS {
        return None;
    }
    // Where the body crosses the first limit it passes.
    let by_lines = skill
        .body()
        .match_indices('\n')
        .nth(MAX_BODY_LINES - 1)
        .map(|(at, _)| at + 1);
    let by_tokens = nth_char_at(skill.body(), MAX_BODY_TOKENS * 4);
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
        let files = crate::read::discover::SkillFiles {
            dir: None,
            path: "skills/a/SKILL.md".into(),
            directory: "a".into(),
            bytes: text.clone().into_bytes(),
            tools_yaml: None,
        };
        let skill = crate::pipeline::compile_one(files, &crate::Config::default())
            .0
            .expect("valid");
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
}
