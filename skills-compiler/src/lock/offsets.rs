//! Where each entry of a lock's `skills` object starts in its text, found
//! in one pass: diagnostics about a locked skill point at its key, and a
//! search of the text per entry made a check of a large lock quadratic.

use std::collections::HashMap;

/// The byte offset of each key of the top-level `skills` object of `text`,
/// by the key's decoded name. `text` is JSON that has already parsed; on
/// anything else the offsets found so far are returned.
pub(crate) fn entry_offsets(text: &str) -> HashMap<String, usize> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut offsets = HashMap::new();
    scanner.skip_space();
    if !scanner.eat(b'{') {
        return offsets;
    }
    while let Some((key, _)) = scanner.member_key(text) {
        if key == "skills" {
            scanner.skip_space();
            if scanner.eat(b'{') {
                while let Some((name, start)) = scanner.member_key(text) {
                    offsets.entry(name).or_insert(start);
                    if !scanner.skip_value() {
                        return offsets;
                    }
                }
            }
            return offsets;
        }
        if !scanner.skip_value() {
            return offsets;
        }
    }
    offsets
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn skip_space(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// The next member's key (decoded) and where it starts, past its `:`;
    /// `None` at the object's end.
    fn member_key(&mut self, text: &str) -> Option<(String, usize)> {
        self.skip_space();
        self.eat(b',');
        self.skip_space();
        let start = self.at;
        if !self.skip_string() {
            return None;
        }
        let key = serde_json::from_str::<String>(text.get(start..self.at)?).ok()?;
        self.skip_space();
        self.eat(b':').then_some((key, start))
    }

    /// Past a string starting here; whether there was one.
    fn skip_string(&mut self) -> bool {
        if !self.eat(b'"') {
            return false;
        }
        while let Some(&byte) = self.bytes.get(self.at) {
            self.at += 1;
            match byte {
                b'\\' => self.at += 1,
                b'"' => return true,
                _ => {}
            }
        }
        false
    }

    /// Past one value (nested containers and strings within it).
    fn skip_value(&mut self) -> bool {
        self.skip_space();
        let mut depth = 0usize;
        loop {
            match self.bytes.get(self.at) {
                None => return false,
                Some(b'"') => {
                    if !self.skip_string() {
                        return false;
                    }
                }
                Some(b'{' | b'[') => {
                    depth += 1;
                    self.at += 1;
                }
                Some(b'}' | b']') if depth == 0 => return true,
                Some(b'}' | b']') => {
                    depth -= 1;
                    self.at += 1;
                }
                Some(b',') if depth == 0 => return true,
                Some(_) => self.at += 1,
            }
            if depth == 0 && self.ends_scalar_or_container() {
                return true;
            }
        }
    }

    /// After a byte of a value at depth 0: whether the value is over (the
    /// next non-space byte ends a member).
    fn ends_scalar_or_container(&self) -> bool {
        let rest = &self.bytes[self.at.min(self.bytes.len())..];
        let next = rest.iter().find(|b| !b.is_ascii_whitespace());
        matches!(next, None | Some(b',' | b'}' | b']'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_is_found_at_its_key_past_other_members_and_strings() {
        let text = "{\n  \"version\": 1,\n  \"note\": \"\\\"skills\\\": {\\\"a\\\"\",\n  \"x\": [{\"skills\": 1}, 2.5e3, true, null],\n  \"skills\": {\n    \"a\": {\"files\": [\"x\", \"}\"]},\n    \"b\\u0063\": {}\n  }\n}\n";
        let offsets = entry_offsets(text);
        assert_eq!(offsets.len(), 2, "{offsets:?}");
        assert_eq!(&text[offsets["a"]..offsets["a"] + 3], "\"a\"");
        assert!(text[offsets["bc"]..].starts_with("\"b\\u0063\""));
    }
}
