//! Install provenance that other tools write into a skill's frontmatter:
//! `gh skill` puts where it came from under `metadata` (`github-repo`,
//! `github-ref`, `github-tree-sha`, `github-path`, `github-pinned`,
//! `local-path`), skill-embed adds top-level `x-embedded-*` keys. It is
//! recognised (never warned about in `extended`), read by `cargo skills
//! add` as a local skill's origin, and removed line by line by
//! `cargo skills fix --strip-provenance`, as `gh skill publish --fix` does.

use std::ops::Range;

use crate::config::Config;
use crate::read::document;
use crate::read::yaml::Node;
use crate::validate::provenance::{METADATA_KEYS, is_extra_provenance};

/// The skill file `text` without its provenance keys (and without a
/// `metadata` that held only those); `Ok(None)` when it has none. Lines are
/// removed whole: everything else stays byte for byte.
pub(crate) fn strip(path: &str, text: &str, config: &Config) -> Result<Option<String>, String> {
    let written = document::written(path, text, false).map_err(|d| d.message)?;
    let root = written.root(config).map_err(|d| {
        d.first().map_or_else(
            || "the frontmatter does not parse".to_owned(),
            |d| d.message.clone(),
        )
    })?;
    let Some(root) = root else {
        return Ok(None);
    };
    let Some(entries) = root.as_map() else {
        return Ok(None);
    };
    let text = written.source.text();
    let mut cut: Vec<Range<usize>> = Vec::new();
    for entry in entries {
        if is_extra_provenance(&entry.key) {
            cut.push(lines_of(text, entry.key_span.start, &entry.value));
        }
        if entry.key != "metadata" {
            continue;
        }
        let Some(children) = entry.value.as_map() else {
            continue;
        };
        let provenance: Vec<_> = children
            .iter()
            .filter(|child| METADATA_KEYS.contains(&child.key.as_str()))
            .collect();
        if provenance.is_empty() {
            continue;
        }
        let inline = children.iter().any(|child| {
            line_start(text, child.key_span.start) == line_start(text, entry.key_span.start)
        });
        if provenance.len() == children.len() {
            cut.push(lines_of(text, entry.key_span.start, &entry.value));
        } else if inline {
            return Err(format!(
                "{path}: `metadata` is written on one line: remove its `github-*` and `local-path` keys by hand"
            ));
        } else {
            for child in provenance {
                cut.push(lines_of(text, child.key_span.start, &child.value));
            }
        }
    }
    if cut.is_empty() {
        return Ok(None);
    }
    cut.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in cut {
        if range.start >= at {
            out.push_str(&text[at..range.start]);
            at = range.end;
        }
    }
    out.push_str(&text[at..]);
    Ok(Some(out))
}

/// The whole lines from the one of `start` to the one where `value` ends.
fn lines_of(text: &str, start: usize, value: &Node) -> Range<usize> {
    let last = value.span.end.max(start + 1).min(text.len());
    // A block value's span may end after its line break: the line it ends
    // on is the one before.
    let last_byte = if last > start + 1 && text.as_bytes().get(last - 1) == Some(&b'\n') {
        last - 1
    } else {
        last
    };
    let end = match text[last_byte.min(text.len())..].find('\n') {
        Some(n) => last_byte + n + 1,
        None => text.len(),
    };
    line_start(text, start)..end
}

fn line_start(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |n| n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_gh_and_skill_embed_keys_and_nothing_else() {
        let text = "---\nname: pdf\ndescription: Reads PDFs.\nmetadata:\n  author: me\n  github-repo: https://github.com/anthropics/skills\n  github-ref: refs/heads/main\n  github-path: skills/pdf\nx-embedded-source: |\n  anthropics/skills\n  more\nlicense: MIT\n---\nBody.\n";
        let stripped = strip("SKILL.md", text, &Config::default())
            .unwrap()
            .unwrap();
        assert_eq!(
            stripped,
            "---\nname: pdf\ndescription: Reads PDFs.\nmetadata:\n  author: me\nlicense: MIT\n---\nBody.\n"
        );
        let only = "---\nname: a\ndescription: d\nmetadata:\n  local-path: /x\n---\n";
        assert_eq!(
            strip("SKILL.md", only, &Config::default())
                .unwrap()
                .unwrap(),
            "---\nname: a\ndescription: d\n---\n"
        );
        assert_eq!(
            strip(
                "SKILL.md",
                "---\nname: a\ndescription: d\n---\n",
                &Config::default()
            )
            .unwrap(),
            None
        );
    }
}
