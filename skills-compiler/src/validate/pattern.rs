//! `pattern`: an ECMA-262 regular expression (JSON Schema's dialect),
//! translated into the syntax of the checker's engine (`regex-lite`), or
//! refused (S320) when the engine cannot match exactly the strings that
//! ECMA-262 matches.
//!
//! The translation spells out every place where the two read the same text
//! differently, and refuses the constructs the engine lacks:
//! - `.` leaves out every ECMA line terminator (`\r`, U+2028, U+2029), not
//!   only `\n`;
//! - `\s` is ECMA's white space (Unicode spaces, the BOM) and line
//!   terminators, not ASCII's;
//! - `\d`, `\w` and `\b` are ASCII in both, and stay so;
//! - every other literal is written as `\x{..}` unless it is an ASCII
//!   letter or digit, so no escaping rule of one dialect leaks into the
//!   other;
//! - lookaround, backreferences, `\p{..}` classes, inline flags and escapes
//!   that ECMA and the engine read differently (`\a`, `\z`, ...) are
//!   refused, with what to write instead.

/// ECMA-262's `\s`: WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP and every
/// `Zs`) and LineTerminator (LF, CR, LS, PS), as inclusive ranges.
const WHITE_SPACE: &[(u32, u32)] = &[
    (0x09, 0x0d),
    (0x20, 0x20),
    (0xa0, 0xa0),
    (0x1680, 0x1680),
    (0x2000, 0x200a),
    (0x2028, 0x2029),
    (0x202f, 0x202f),
    (0x205f, 0x205f),
    (0x3000, 0x3000),
    (0xfeff, 0xfeff),
];

/// ECMA-262's `.`: anything but a line terminator.
const DOT: &str = r"[^\x{a}\x{d}\x{2028}\x{2029}]";

/// The largest repetition count accepted: the engine compiles `a{n}` into
/// `n` copies, and a skill file must not make the build or a check slow.
const MAX_REPEAT: u32 = 1000;

/// The pattern in the engine's syntax, or why it cannot be.
pub(crate) fn translate(ecma: &str) -> Result<String, String> {
    let chars: Vec<char> = ecma.chars().collect();
    let mut out = String::with_capacity(ecma.len() * 2);
    // Whether the last item may take a quantifier.
    let mut quantifiable = false;
    let mut groups = 0usize;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let (text, next, assertion) = escape(&chars, i)?;
                out.push_str(&text);
                quantifiable = !assertion;
                i = next;
            }
            '[' => {
                let (text, next) = class(&chars, i)?;
                out.push_str(&text);
                quantifiable = true;
                i = next;
            }
            '(' => {
                let (text, next) = group_open(&chars, i)?;
                out.push_str(text);
                groups += 1;
                quantifiable = false;
                i = next;
            }
            ')' => {
                if groups == 0 {
                    return Err("an unmatched `)`".to_owned());
                }
                groups -= 1;
                out.push(')');
                quantifiable = true;
                i += 1;
            }
            '|' | '^' | '$' => {
                out.push(chars[i]);
                quantifiable = false;
                i += 1;
            }
            '.' => {
                out.push_str(DOT);
                quantifiable = true;
                i += 1;
            }
            c @ ('*' | '+' | '?') => {
                if !quantifiable {
                    return Err(format!("`{c}` has nothing to repeat"));
                }
                out.push(c);
                i = lazy(&chars, i + 1, &mut out);
                quantifiable = false;
            }
            '{' => match repeat(&chars, i)? {
                Some((text, next)) => {
                    if !quantifiable {
                        return Err(format!("`{text}` has nothing to repeat"));
                    }
                    out.push_str(&text);
                    i = lazy(&chars, next, &mut out);
                    quantifiable = false;
                }
                // Annex B: a `{` that starts no repetition is itself.
                None => {
                    out.push_str(&literal('{'));
                    quantifiable = true;
                    i += 1;
                }
            },
            c => {
                out.push_str(&literal(c));
                quantifiable = true;
                i += 1;
            }
        }
    }
    if groups > 0 {
        return Err("an unclosed `(`".to_owned());
    }
    Ok(out)
}

/// A lazy quantifier's `?`, kept (it changes no match, only which).
fn lazy(chars: &[char], at: usize, out: &mut String) -> usize {
    if chars.get(at) == Some(&'?') {
        out.push('?');
        at + 1
    } else {
        at
    }
}

/// A character as the engine reads it literally.
fn literal(c: char) -> String {
    if c.is_ascii_alphanumeric() {
        c.to_string()
    } else {
        format!("\\x{{{:x}}}", c as u32)
    }
}

fn ranges(ranges: &[(u32, u32)]) -> String {
    ranges
        .iter()
        .map(|&(from, to)| format!("\\x{{{from:x}}}-\\x{{{to:x}}}"))
        .collect()
}

/// `(`, `(?:` and `(?<name>`; lookaround and flags are refused.
fn group_open(chars: &[char], at: usize) -> Result<(&'static str, usize), String> {
    if chars.get(at + 1) != Some(&'?') {
        return Ok(("(", at + 1));
    }
    match (chars.get(at + 2), chars.get(at + 3)) {
        (Some(':'), _) => Ok(("(?:", at + 3)),
        (Some('=' | '!'), _) => Err(
            "a lookahead (`(?=` or `(?!`): the checker's engine has no lookaround; match the text itself, or check it in the tool's handler".to_owned(),
        ),
        (Some('<'), Some('=' | '!')) => Err(
            "a lookbehind (`(?<=` or `(?<!`): the checker's engine has no lookaround; match the text itself, or check it in the tool's handler".to_owned(),
        ),
        (Some('<'), _) => {
            // A named group matches as any group does; the name is not kept.
            let name_end = chars[at + 3..]
                .iter()
                .position(|&c| c == '>')
                .ok_or("an unclosed group name `(?<`")?;
            let name = &chars[at + 3..at + 3 + name_end];
            let valid = name.first().is_some_and(|c| c.is_alphabetic() || *c == '_' || *c == '$')
                && name.iter().all(|c| c.is_alphanumeric() || *c == '_' || *c == '$');
            if !valid {
                return Err("a group name that is not an identifier".to_owned());
            }
            Ok(("(?:", at + 4 + name_end))
        }
        _ => Err(
            "`(?` followed by a flag or other syntax that ECMA-262 does not have (inline flags such as `(?i)` are the engine's, not JSON Schema's)".to_owned(),
        ),
    }
}

/// `{n}`, `{n,}` or `{n,m}` at `at`; `None` when the brace starts none.
fn repeat(chars: &[char], at: usize) -> Result<Option<(String, usize)>, String> {
    let Some(close) = chars[at..].iter().position(|&c| c == '}') else {
        return Ok(None);
    };
    let inside: String = chars[at + 1..at + close].iter().collect();
    let (low, high) = match inside.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (inside.as_str(), None),
    };
    let number = |text: &str| -> Option<u32> {
        (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().unwrap_or(u32::MAX))
    };
    let Some(low) = number(low) else {
        return Ok(None);
    };
    let high = match high {
        None => Some(low),
        Some("") => None,
        Some(text) => match number(text) {
            Some(high) => Some(high),
            None => return Ok(None),
        },
    };
    if high.is_some_and(|high| high < low) {
        return Err(format!("`{{{inside}}}`: the numbers are out of order"));
    }
    if low.max(high.unwrap_or(0)) > MAX_REPEAT {
        return Err(format!(
            "`{{{inside}}}`: a repetition count above {MAX_REPEAT}; use `+` or `*` with `maxLength`"
        ));
    }
    Ok(Some((format!("{{{inside}}}"), at + close + 1)))
}

/// What an escape outside a class means: (its text for the engine, the
/// index after it, whether it is an assertion).
fn escape(chars: &[char], at: usize) -> Result<(String, usize, bool), String> {
    let Some(&c) = chars.get(at + 1) else {
        return Err("a `\\` at the end of the pattern".to_owned());
    };
    let next = at + 2;
    Ok(match c {
        'b' => (r"\b".to_owned(), next, true),
        'B' => (r"\B".to_owned(), next, true),
        'd' => ("[0-9]".to_owned(), next, false),
        'D' => ("[^0-9]".to_owned(), next, false),
        'w' => ("[0-9A-Za-z_]".to_owned(), next, false),
        'W' => ("[^0-9A-Za-z_]".to_owned(), next, false),
        's' => (format!("[{}]", ranges(WHITE_SPACE)), next, false),
        'S' => (format!("[^{}]", ranges(WHITE_SPACE)), next, false),
        _ => {
            let (c, next) = character_escape(chars, at)?;
            (literal(c), next, false)
        }
    })
}

/// An escape that stands for one character, in or out of a class.
fn character_escape(chars: &[char], at: usize) -> Result<(char, usize), String> {
    let Some(&c) = chars.get(at + 1) else {
        return Err("a `\\` at the end of the pattern".to_owned());
    };
    let next = at + 2;
    let control = |code: u32| char::from_u32(code).ok_or("an invalid character code".to_owned());
    match c {
        't' => Ok(('\t', next)),
        'n' => Ok(('\n', next)),
        'v' => Ok(('\u{b}', next)),
        'f' => Ok(('\u{c}', next)),
        'r' => Ok(('\r', next)),
        '0' if !chars.get(next).is_some_and(char::is_ascii_digit) => Ok(('\0', next)),
        '0'..='9' => Err(format!(
            "a backreference (`\\{c}`): the checker's engine has none"
        )),
        'k' => Err("a named backreference (`\\k<..>`): the checker's engine has none".to_owned()),
        'p' | 'P' => Err(format!(
            "a Unicode property class (`\\{c}{{..}}`): the checker's engine has no Unicode tables; list the characters, as in `[a-zà-ÿ]`"
        )),
        'c' => match chars.get(next) {
            Some(letter) if letter.is_ascii_alphabetic() => {
                Ok((control(*letter as u32 % 32)?, next + 1))
            }
            _ => Err("`\\c` without a letter".to_owned()),
        },
        'x' => {
            let hex: String = chars
                .get(next..next + 2)
                .unwrap_or_default()
                .iter()
                .collect();
            match u32::from_str_radix(&hex, 16) {
                Ok(code) if hex.len() == 2 => Ok((control(code)?, next + 2)),
                _ => Err("`\\x` needs two hex digits".to_owned()),
            }
        }
        'u' => unicode_escape(chars, at),
        '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
        | '/' | '-' => Ok((c, next)),
        other => Err(format!(
            "the escape `\\{other}`, which ECMA-262 and the checker's engine read differently; write the character itself, or `\\x..`"
        )),
    }
}

/// `\uXXXX` (a surrogate pair as one character) or `\u{X...}`.
fn unicode_escape(chars: &[char], at: usize) -> Result<(char, usize), String> {
    let next = at + 2;
    let hex = |from: usize, to: usize| -> Option<u32> {
        let text: String = chars.get(from..to)?.iter().collect();
        (text.len() == to - from && text.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(&text, 16).ok())
            .flatten()
    };
    if chars.get(next) == Some(&'{') {
        let close = chars[next..]
            .iter()
            .position(|&c| c == '}')
            .ok_or("an unclosed `\\u{`")?;
        let code = hex(next + 1, next + close).ok_or("`\\u{..}` needs hex digits")?;
        let c = char::from_u32(code).ok_or("`\\u{..}` names no character")?;
        return Ok((c, next + close + 1));
    }
    let code = hex(next, next + 4).ok_or("`\\u` needs four hex digits")?;
    if (0xd800..0xdc00).contains(&code)
        && chars.get(next + 4) == Some(&'\\')
        && chars.get(next + 5) == Some(&'u')
        && let Some(low) = hex(next + 6, next + 10).filter(|low| (0xdc00..0xe000).contains(low))
    {
        let combined = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        let c = char::from_u32(combined).ok_or("an invalid surrogate pair")?;
        return Ok((c, next + 10));
    }
    char::from_u32(code)
        .map(|c| (c, next + 4))
        .ok_or_else(|| "a lone surrogate (`\\uD800`-`\\uDFFF`), which no string holds".to_owned())
}

/// A class `[...]` at `at`: (its text for the engine, the index after it).
fn class(chars: &[char], at: usize) -> Result<(String, usize), String> {
    let mut i = at + 1;
    let negated = chars.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        // `[]` matches nothing and `[^]` anything, in ECMA-262.
        return if negated {
            Ok((r"[\x{0}-\x{10ffff}]".to_owned(), i + 1))
        } else {
            Err("an empty class `[]`, which matches nothing".to_owned())
        };
    }
    let mut items = String::new();
    loop {
        let Some(&c) = chars.get(i) else {
            return Err("an unterminated class `[`".to_owned());
        };
        if c == ']' {
            break;
        }
        let (first, next) = class_atom(chars, i)?;
        i = next;
        // A range `a-b`, unless the `-` ends the class.
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&c| c != ']') {
            let (last, after) = class_atom(chars, i + 1)?;
            match (first, last) {
                (ClassAtom::Char(from), ClassAtom::Char(to)) if from <= to => {
                    items.push_str(&format!("{}-{}", literal(from), literal(to)));
                }
                (ClassAtom::Char(_), ClassAtom::Char(_)) => {
                    return Err("a class range out of order".to_owned());
                }
                _ => return Err("a class range with a class (`\\d`...) at one end".to_owned()),
            }
            i = after;
            continue;
        }
        match first {
            ClassAtom::Char(c) => items.push_str(&literal(c)),
            ClassAtom::Set(set) => items.push_str(&set),
        }
    }
    let caret = if negated { "^" } else { "" };
    Ok((format!("[{caret}{items}]"), i + 1))
}

enum ClassAtom {
    Char(char),
    /// The ranges of `\d`, `\w` or `\s`, without brackets.
    Set(String),
}

fn class_atom(chars: &[char], at: usize) -> Result<(ClassAtom, usize), String> {
    if chars[at] != '\\' {
        return Ok((ClassAtom::Char(chars[at]), at + 1));
    }
    let next = at + 2;
    Ok(match chars.get(at + 1) {
        Some('d') => (ClassAtom::Set("0-9".to_owned()), next),
        Some('w') => (ClassAtom::Set("0-9A-Za-z_".to_owned()), next),
        Some('s') => (ClassAtom::Set(ranges(WHITE_SPACE)), next),
        Some(c @ ('D' | 'W' | 'S')) => {
            return Err(format!(
                "`\\{c}` inside a class: the checker's engine cannot spell it; write the class out"
            ));
        }
        // Inside a class, `\b` is a backspace and `-` may be escaped.
        Some('b') => (ClassAtom::Char('\u{8}'), next),
        Some('B') => return Err("`\\B` inside a class".to_owned()),
        _ => {
            let (c, next) = character_escape(chars, at)?;
            (ClassAtom::Char(c), next)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::translate;

    fn matches(ecma: &str, text: &str) -> bool {
        let regex = translate(ecma).unwrap();
        skills_core::Pattern {
            source: ecma.to_owned().into(),
            regex: regex.clone().into(),
        }
        .is_match(text)
        .unwrap_or_else(|e| panic!("{ecma} -> {regex}: {e}"))
    }

    #[test]
    fn the_places_where_the_dialects_differ_read_as_ecma_reads_them() {
        // `.` leaves out every line terminator.
        assert!(!matches("^.$", "\r") && !matches("^.$", "\u{2028}") && matches("^.$", "é"));
        // `\s` is Unicode white space; `\d` and `\w` are ASCII.
        assert!(matches("^\\s$", "\u{a0}") && matches("^\\s$", "\u{feff}"));
        assert!(!matches("^\\d$", "٣") && !matches("^\\w$", "é"));
        // `\b` is ASCII: `é` is not a word character.
        assert!(matches("a\\b", "aé"));
        // Escapes of syntax characters, hex, Unicode and control escapes.
        assert!(matches("^\\.\\-\\/$", ".-/") && !matches("^\\.$", "a"));
        assert!(matches(
            "^\\x41\\u00e9\\u{1F600}\\uD83D\\uDE00\\cJ$",
            "Aé😀😀\n"
        ));
        // Annex B: a brace that starts no repetition is a brace.
        assert!(matches("^a{b}$", "a{b}") && matches("^a{2}$", "aa"));
        // Classes: negation, ranges, shorthands, `[^]`, a trailing `-`.
        assert!(matches("^[^a-c]$", "d") && !matches("^[^a-c]$", "b"));
        assert!(matches("^[\\d_-]+$", "1_-") && matches("^[^]$", "\n"));
        assert!(matches("^[\\b]$", "\u{8}"));
        // Named groups match as groups; lazy quantifiers stay.
        assert!(matches("^(?<year>\\d{4})-(\\d+?)$", "2026-12"));
        // The pattern is searched, not anchored.
        assert!(matches("[a-z]", "ABCd"));
    }

    #[test]
    fn what_the_engine_cannot_match_exactly_is_refused() {
        for (pattern, why) in [
            ("(?=a)", "lookahead"),
            ("(?!a)", "lookahead"),
            ("(?<=a)b", "lookbehind"),
            ("(a)\\1", "backreference"),
            ("(?<n>a)\\k<n>", "backreference"),
            ("\\p{L}", "Unicode property"),
            ("(?i)a", "flag"),
            ("\\a", "escape"),
            ("\\z", "escape"),
            ("[\\D]", "inside a class"),
            ("[z-a]", "out of order"),
            ("[]", "empty class"),
            ("[abc", "unterminated"),
            ("(a", "unclosed"),
            ("a)", "unmatched"),
            ("*a", "nothing to repeat"),
            ("a**", "nothing to repeat"),
            ("^*", "nothing to repeat"),
            ("a{3,2}", "out of order"),
            ("a{5000}", "above 1000"),
            ("\\uD800", "lone surrogate"),
            ("\\", "end of the pattern"),
            ("\\x4", "two hex digits"),
        ] {
            let error = translate(pattern).unwrap_err();
            assert!(error.contains(why), "{pattern}: {error}");
        }
    }
}
