//! Links from the body to the skill's files, checked at build time: a model
//! that follows a link to a file the skill does not ship gets nothing.
//!
//! - S516: a relative link or image whose target the skill does not have
//!   (a warning in `lenient`), with a fix-it when exactly one file of that
//!   name is elsewhere in the skill;
//! - S517: a link that leaves the skills root;
//! - W014: a link into another skill of the root;
//! - W015: a `#fragment` that matches no heading of its target;
//! - W016: a backticked `scripts/`, `references/` or `assets/` path the
//!   skill does not have;
//! - W017 (optional): a file under `references/` that nothing names.

mod headings;
mod inline;
mod syntax;
mod targets;

use std::ops::Range;
use std::path::Path;

use syntax::{Target, TargetKind};
use targets::targets;

use crate::config::{Config, Profile};
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::{Skill, SkillFile, SkipReason};
use crate::read::layout::SKILL_FILE;

/// Where the skill sits, for links that leave its directory.
pub(crate) struct Place<'a> {
    /// The skills root as shown (`skills`) and on disk.
    pub root: &'a str,
    pub root_on_disk: Option<&'a Path>,
}

/// Checks every link, image and backticked path of `skill`'s body.
pub(crate) fn check(
    skill: &Skill,
    source: &SourceFile,
    place: &Place<'_>,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let lints_unlinked = config.lints_unlinked_references();
    // Most bodies link only URLs, if anything: they are not parsed again.
    let found = targets::used(skill.body(), targets(skill.body()));
    if found.is_empty() && !lints_unlinked {
        return;
    }
    let text = source.text();
    let body_start = text.len().saturating_sub(skill.body().len());
    let checker = Checker {
        skill,
        source,
        place,
        profile: config.profile,
        body_start,
        max_text_bytes: (config.max_document_chars as u64).saturating_mul(4),
        body_anchors: std::cell::OnceCell::new(),
        file_anchors: Default::default(),
    };
    let mut named = Vec::new();
    for target in found {
        if let Some(path) = checker.target(&target, diagnostics) {
            named.push(path);
        }
    }
    if lints_unlinked {
        checker.unlinked_references(&named, diagnostics);
    }
}

/// Whether a skill file's text names a path outside the skill's own
/// directory but inside the root, which [`check`] looks for on disk: the
/// skill's diagnostics then depend on other entries of the root. `dir` is
/// the skill's folder as diagnostics show it (`None` for a flat skill,
/// whose every link starts at the root). Errs towards yes: the whole text
/// is scanned, frontmatter too, and every target counts, used or not.
pub(crate) fn may_look_outside(text: &str, dir: Option<&str>) -> bool {
    let Some(dir) = dir else {
        return true;
    };
    let name = dir.rsplit('/').next().unwrap_or(dir);
    targets(text)
        .iter()
        .any(|target| matches!(resolve(&target.text, Some(name)), Resolved::InRoot { .. }))
}

/// A target resolved against the skills root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// Not a relative path: a URL, `mailto:`, an absolute path, empty.
    NotRelative,
    /// Only a `#fragment`: a heading of the body itself.
    Fragment(String),
    /// Inside the skill directory: a path relative to it (empty for the
    /// directory itself), and the fragment.
    InSkill {
        path: String,
        fragment: Option<String>,
    },
    /// Elsewhere in the root: a path relative to the root.
    InRoot { path: String },
    /// Above the root.
    OutsideRoot,
    /// Percent-encoding that is not UTF-8: no file can have that name.
    Undecodable,
}

/// Resolves `target` as written in the skill `dir` (its name in the root;
/// `None` for a flat skill, whose links start at the root). Only `/`
/// separates; `.` and empty components are dropped, `..` goes up, and a
/// path never goes above the root without saying so.
pub(crate) fn resolve(target: &str, dir: Option<&str>) -> Resolved {
    let target = target.trim();
    if target.is_empty() || target.starts_with('/') || has_scheme(target) || target.contains('\\') {
        return Resolved::NotRelative;
    }
    let (path, fragment) = match target.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (target, None),
    };
    // A query means nothing to a file on disk.
    let path = path.split_once('?').map_or(path, |(path, _)| path);
    let fragment = fragment.map(decode_lossy);
    if path.is_empty() {
        return match fragment {
            Some(fragment) => Resolved::Fragment(fragment),
            None => Resolved::NotRelative,
        };
    }
    // Borrowed where nothing is percent-encoded: most targets.
    let mut parts: Vec<std::borrow::Cow<'_, str>> = dir.into_iter().map(Into::into).collect();
    // Each component is decoded on its own: `%2e%2e` is `..`, as URL
    // parsers read it, but an encoded separator is part of a name.
    // An empty component is a segment, as URLs read it (`a//..` is `a/`),
    // and no file has an empty name; only a trailing one is dropped (`dir/`).
    let last = path.bytes().filter(|&b| b == b'/').count();
    for (i, raw) in path.split('/').enumerate() {
        let Some(part) = decode(raw) else {
            return Resolved::Undecodable;
        };
        match part.as_ref() {
            "" if i < last && i > 0 => parts.push("".into()),
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Resolved::OutsideRoot;
                }
            }
            // No file name holds a separator or NUL.
            part if part.contains(['/', '\\', '\0']) => return Resolved::Undecodable,
            _ => parts.push(part),
        }
    }
    match (dir, parts.split_first()) {
        (Some(dir), Some((first, rest))) if first == dir => Resolved::InSkill {
            path: rest.join("/"),
            fragment,
        },
        _ => Resolved::InRoot {
            path: parts.join("/"),
        },
    }
}

/// `raw` percent-decoded, `None` when that is not UTF-8. Most components
/// have no `%`, and are not looked at twice.
fn decode(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !raw.bytes().any(|b| b == b'%') {
        return Some(raw.into());
    }
    percent_encoding::percent_decode_str(raw).decode_utf8().ok()
}

fn decode_lossy(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// `http:`, `mailto:`, `data:`: a URL scheme as RFC 3986 spells it (a
/// letter, then letters, digits, `+`, `-` and `.`), then a `:`.
fn has_scheme(target: &str) -> bool {
    let bytes = target.as_bytes();
    let scheme = bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        .count();
    bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(scheme) == Some(&b':')
}

/// The anchor a heading gets on GitHub and in most renderers: lower case,
/// spaces as `-`, punctuation other than `-` and `_` dropped.
pub(crate) fn slug(title: &str) -> String {
    title
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of a markdown text: each heading's slug, a repeated one
/// numbered as GitHub numbers it (`slug-1`, `slug-2`, skipping a number
/// that a heading already took). Linear in the headings: each slug's next
/// number is remembered, not counted again (45,000 headings took seconds).
fn anchors(text: &str) -> std::collections::HashSet<String> {
    numbered_anchors(headings::titles(text))
        .into_iter()
        .collect()
}

/// Each title's anchor, in order: its slug, a repeated one numbered as
/// GitHub numbers it.
pub(crate) fn numbered_anchors<I>(titles: I) -> Vec<String>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut next: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut anchors = Vec::new();
    for title in titles {
        let base = slug(title.as_ref());
        let mut anchor = base.clone();
        if taken.contains(&anchor) {
            let counter = next.entry(base.clone()).or_insert(0);
            loop {
                *counter += 1;
                anchor = format!("{base}-{counter}");
                if !taken.contains(&anchor) {
                    break;
                }
            }
        }
        taken.insert(anchor.clone());
        anchors.push(anchor);
    }
    anchors
}

/// Each link and image of a body (backticked paths aside), with its
/// destination's bytes in the body and where it leads: what an editor
/// shows as a link and follows. `dir` is as [`resolve`] takes it.
#[cfg(any(feature = "ops", test))]
pub(crate) fn written(body: &str, dir: Option<&str>) -> Vec<(Range<usize>, String, Resolved)> {
    targets::used(body, targets(body))
        .into_iter()
        .filter(|target| target.kind != TargetKind::Code)
        .map(|target| {
            let resolved = resolve(&target.text, dir);
            (target.span, target.text, resolved)
        })
        .collect()
}

/// [`has_anchor`] with `text`'s heading anchors already made.
fn has_anchor_in(anchors: &std::collections::HashSet<String>, text: &str, fragment: &str) -> bool {
    let wanted = fragment.to_lowercase();
    anchors.contains(wanted.as_str())
        || text.contains(&format!("id=\"{fragment}\""))
        || text.contains(&format!("name=\"{fragment}\""))
}

/// `path`, `/`-separated, under `dir` on disk (pushed a component at a
/// time: a Windows verbatim path takes no `/`).
fn on_disk(mut dir: std::path::PathBuf, path: &str) -> std::path::PathBuf {
    for component in path.split('/') {
        dir.push(component);
    }
    dir
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}

struct Checker<'a> {
    skill: &'a Skill,
    source: &'a SourceFile,
    place: &'a Place<'a>,
    profile: Profile,
    body_start: usize,
    /// Markdown targets larger than a skill file may be are not read.
    max_text_bytes: u64,
    /// The body's own anchors, made on the first `#fragment` link.
    body_anchors: std::cell::OnceCell<std::collections::HashSet<String>>,
    /// Each markdown file a `#fragment` link points into, read once: its
    /// text and anchors (`None`: not read, too large or not text).
    file_anchors: std::cell::RefCell<std::collections::HashMap<String, Option<Anchored<'a>>>>,
}

/// A file's text and the anchors of its headings.
struct Anchored<'a> {
    text: &'a str,
    anchors: std::collections::HashSet<String>,
}

impl<'a> Checker<'a> {
    fn body_has_anchor(&self, fragment: &str) -> bool {
        let anchors = self.body_anchors.get_or_init(|| anchors(self.skill.body()));
        has_anchor_in(anchors, self.skill.body(), fragment)
    }

    /// The skill directory's name in the root; `None` for a flat skill.
    fn dir_name(&self) -> Option<&str> {
        let dir = self.skill.dir.as_deref()?;
        Some(dir.rsplit('/').next().unwrap_or(dir))
    }

    fn span(&self, target: &Target) -> Range<usize> {
        self.body_start + target.span.start..self.body_start + target.span.end
    }

    /// Checks one target; returns the skill file it names, if any.
    fn target(&self, target: &Target, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
        let resolved = resolve(&target.text, self.dir_name());
        if target.kind == TargetKind::Code {
            return self.code_path(target, resolved, diagnostics);
        }
        match resolved {
            Resolved::NotRelative => None,
            Resolved::Fragment(fragment) => {
                if !self.body_has_anchor(&fragment) {
                    diagnostics.push(self.unknown_fragment(target, &fragment, "the body"));
                }
                None
            }
            Resolved::InSkill { path, fragment } => {
                self.in_skill(target, &path, fragment.as_deref(), diagnostics);
                Some(path)
            }
            Resolved::InRoot { path } => {
                self.in_root(target, &path, diagnostics);
                None
            }
            Resolved::OutsideRoot => {
                let mut diagnostic = Diagnostic::at(
                    Code::LinkOutsideRoot,
                    self.source,
                    self.span(target),
                    format!("`{}` leads outside the skills root `{}`", target.text, self.place.root),
                )
                .with_help("copy the file into the skill and link it there: nothing outside the root is compiled in or installed");
                // Hosts load such a skill (the link is simply broken there):
                // `lenient`, the rules of vendored skills, does too.
                if self.profile == Profile::Lenient {
                    diagnostic = diagnostic.with_severity(Severity::Warning);
                    diagnostic.message.push_str("; the file is not embedded, and the link is broken wherever the skill is installed");
                }
                diagnostics.push(diagnostic);
                None
            }
            Resolved::Undecodable => {
                diagnostics.push(self.missing(target, "its percent-encoding names no file", None));
                None
            }
        }
    }

    fn in_skill(
        &self,
        target: &Target,
        path: &str,
        fragment: Option<&str>,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        if path == SKILL_FILE {
            if let Some(fragment) = fragment
                && !self.body_has_anchor(fragment)
            {
                diagnostics.push(self.unknown_fragment(target, fragment, "the body"));
            }
            return;
        }
        let Some(file) = self.file(path) else {
            if self.is_folder(path) {
                return;
            }
            let why = match self.skipped(path) {
                Some(reason) => format!("it is not part of the skill: {reason}"),
                None => format!("the skill has no file `{path}`"),
            };
            diagnostics.push(self.missing(target, &why, self.only_file_named(path)));
            return;
        };
        // Only a markdown target with a fragment is read, once a skill.
        if let Some(fragment) = fragment
            && is_markdown(path)
            && self.file_has_anchor(file, fragment) == Some(false)
        {
            diagnostics.push(self.unknown_fragment(target, fragment, &format!("`{path}`")));
        }
    }

    /// Whether `file` has the anchor `fragment`; `None` when it is not read.
    fn file_has_anchor(&self, file: &'a SkillFile, fragment: &str) -> Option<bool> {
        let mut cache = self.file_anchors.borrow_mut();
        let anchored = cache.entry(file.path.clone()).or_insert_with(|| {
            let text = self.text_of(file)?;
            Some(Anchored {
                anchors: anchors(text),
                text,
            })
        });
        anchored
            .as_ref()
            .map(|a| has_anchor_in(&a.anchors, a.text, fragment))
    }

    /// A file's text, read from the skill directory, when it is text of at
    /// most a document's size (a markdown file a link points into).
    fn text_of(&self, file: &'a SkillFile) -> Option<&'a str> {
        let dir = self.skill.dir_on_disk.as_deref()?;
        if file.len > self.max_text_bytes {
            return None;
        }
        file.text(dir)
    }

    fn in_root(&self, target: &Target, path: &str, diagnostics: &mut Vec<Diagnostic>) {
        // Skills held in memory have no root to look in.
        let Some(root) = self.place.root_on_disk else {
            return;
        };
        let on_disk = on_disk(root.to_path_buf(), path);
        if std::fs::symlink_metadata(&on_disk).is_err() {
            let why = format!("`{}/{path}` does not exist", self.place.root);
            diagnostics.push(self.missing(target, &why, self.only_file_named(path)));
            return;
        }
        let skill = path.split('/').next().unwrap_or(path);
        diagnostics.push(
            Diagnostic::at(
                Code::LinkIntoOtherSkill,
                self.source,
                self.span(target),
                format!("`{}` points into `{skill}`, outside this skill's directory", target.text),
            )
            .with_severity(Severity::Warning)
            .with_help("copy the file into this skill: a host that installs this skill alone will not have it"),
        );
    }

    fn code_path(
        &self,
        target: &Target,
        resolved: Resolved,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let Resolved::InSkill { path, .. } = resolved else {
            return None;
        };
        if self.file(&path).is_none() && !self.is_folder(&path) {
            let diagnostic = Diagnostic::at(
                Code::MissingCodePath,
                self.source,
                self.span(target),
                format!("the skill has no `{}`", target.text),
            )
            .with_severity(Severity::Warning);
            diagnostics.push(match self.nearest_file(&path) {
                Some(near) => diagnostic
                    .with_suggestion(
                        self.source,
                        self.span(target),
                        near.to_owned(),
                        format!("name the skill's `{near}`"),
                    )
                    .with_help(format!("did you mean `{near}`? (ignore this if it names a path of the user's project)")),
                None => diagnostic.with_help(
                    "fix the path or add the file (ignore this if it names a path of the user's project)",
                ),
            });
        }
        Some(path)
    }

    fn file(&self, path: &str) -> Option<&'a SkillFile> {
        let files = &self.skill.files;
        let index = files.binary_search_by(|f| f.path.as_str().cmp(path)).ok()?;
        files.get(index)
    }

    /// Whether `path` is a folder of the skill (or the skill directory):
    /// one the file walk went through. Only inside a folder the walk
    /// skipped (hidden, excluded) is the disk asked.
    fn is_folder(&self, path: &str) -> bool {
        let folder = path.trim_end_matches('/');
        if folder.is_empty()
            || self
                .skill
                .folders
                .binary_search_by(|f| f.as_str().cmp(folder))
                .is_ok()
        {
            return true;
        }
        let in_skipped = self.skill.skipped.iter().any(|s| {
            s.path.ends_with('/')
                && (folder == s.path.trim_end_matches('/') || folder.starts_with(&s.path))
        });
        in_skipped
            && self
                .skill
                .dir_on_disk
                .as_deref()
                .is_some_and(|dir| on_disk(dir.to_path_buf(), folder).is_dir())
    }

    fn skipped(&self, path: &str) -> Option<&SkipReason> {
        self.skill
            .skipped
            .iter()
            .find(|s| {
                let skipped = s.path.trim_end_matches('/');
                path == skipped
                    || (s.path.ends_with('/')
                        && path
                            .strip_prefix(skipped)
                            .is_some_and(|r| r.starts_with('/')))
            })
            .map(|s| &s.reason)
    }

    /// The one file of the skill with `path`'s file name, when there is exactly one.
    fn only_file_named(&self, path: &str) -> Option<&str> {
        let name = path.rsplit('/').next()?;
        let mut named = self
            .skill
            .files
            .iter()
            .filter(|f| f.path.rsplit('/').next() == Some(name));
        let only = named.next()?;
        named.next().is_none().then_some(only.path.as_ref())
    }

    fn missing(&self, target: &Target, why: &str, replacement: Option<&str>) -> Diagnostic {
        let severity = if self.profile == Profile::Lenient {
            Severity::Warning
        } else {
            Severity::Error
        };
        let diagnostic = Diagnostic::at(
            Code::BrokenLink,
            self.source,
            self.span(target),
            format!("the link target `{}` does not exist: {why}", target.text),
        )
        .with_severity(severity);
        match replacement {
            Some(path) => {
                let fragment = target
                    .text
                    .split_once('#')
                    .map(|(_, f)| format!("#{f}"))
                    .unwrap_or_default();
                let replacement = format!("{}{fragment}", encode(path));
                diagnostic
                    .with_fix(
                        self.source,
                        self.span(target),
                        replacement.clone(),
                        format!("link the skill's `{path}`"),
                    )
                    .with_help(format!(
                        "the skill has one file of that name: `{replacement}`"
                    ))
            }
            None => match target
                .text
                .split('#')
                .next()
                .and_then(|path| self.nearest_file(path.trim_start_matches("./")))
            {
                // A near miss (`schema.md` for `schemas.md`): a guess, shown
                // and never applied (issue 40, item 6).
                Some(near) => diagnostic
                    .with_suggestion(
                        self.source,
                        self.span(target),
                        encode(near),
                        format!("link the skill's `{near}`"),
                    )
                    .with_help(format!("did you mean `{near}`?")),
                None => diagnostic
                    .with_help("fix the path (relative to the skill directory), or add the file"),
            },
        }
    }

    /// The skill's file whose path is nearest to `path` (a typo, a missing
    /// or extra letter), when one is near enough to suggest. Never when
    /// files of the same name are elsewhere: which one was meant is not a
    /// typo's question ([`Checker::only_file_named`] answers when one is).
    fn nearest_file(&self, path: &str) -> Option<&str> {
        let name = path.rsplit('/').next()?;
        let files = &self.skill.files;
        if files
            .iter()
            .any(|f| f.path.rsplit('/').next() == Some(name))
        {
            return None;
        }
        crate::diagnostics::closest(path, files.iter().map(|f| f.path.as_str()))
    }

    fn unknown_fragment(&self, target: &Target, fragment: &str, of: &str) -> Diagnostic {
        Diagnostic::at(
            Code::UnknownFragment,
            self.source,
            self.span(target),
            format!("`#{fragment}` matches no heading of {of}"),
        )
        .with_severity(Severity::Warning)
        .with_help("link a heading that exists: `## Set up` is `#set-up`")
    }

    /// W017: files under `references/` that no link, backticked path or
    /// mention in the body or in another markdown file of the skill names.
    /// Each markdown file is read once, for every reference still
    /// unmentioned (once per reference, it was 4,119 reads for the 162
    /// files of one real skill).
    fn unlinked_references(&self, named: &[String], diagnostics: &mut Vec<Diagnostic>) {
        let Some(dir) = &self.skill.dir else {
            return;
        };
        let name = |file: &SkillFile| {
            let path = file.path.as_str();
            path.rsplit('/').next().unwrap_or(path).to_owned()
        };
        let mut unmentioned: Vec<(&SkillFile, String)> = (self.skill.files.iter())
            .filter(|file| file.path.starts_with("references/"))
            .filter(|file| !named.contains(&file.path))
            .map(|file| (file, name(file)))
            .filter(|(_, name)| !self.skill.body().contains(name.as_str()))
            .collect();
        for other in self.skill.files.iter().filter(|f| is_markdown(&f.path)) {
            if unmentioned.is_empty() {
                return;
            }
            let Some(text) = self.text_of(other) else {
                continue;
            };
            unmentioned
                .retain(|(file, name)| file.path == other.path || !text.contains(name.as_str()));
        }
        for (file, _) in unmentioned {
            let path = file.path.as_str();
            diagnostics.push(
                Diagnostic::warning(
                    Code::UnlinkedReference,
                    format!("{dir}/{path}"),
                    format!(
                        "`{path}` is not linked from the skill, so a model never learns to read it"
                    ),
                )
                .with_help(format!(
                    "link it from the body (`[what it holds]({path})`), or remove it"
                )),
            );
        }
    }
}

/// `path` as a link target: spaces and the characters markdown reads
/// specially percent-encoded.
fn encode(path: &str) -> String {
    const SPECIAL: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
        .add(b' ')
        .add(b'(')
        .add(b')')
        .add(b'<')
        .add(b'>')
        .add(b'#')
        .add(b'%');
    percent_encoding::utf8_percent_encode(path, SPECIAL).to_string()
}

/// Calls `visit` with the path and text of every markdown file of the
/// corpus (`../shared/corpus`); `false`, saying so, when there is none (a
/// fresh clone has no `../shared`).
#[cfg(test)]
fn each_corpus_markdown_file(mut visit: impl FnMut(&Path, &str)) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !root.is_dir() {
        eprintln!(
            "skipped: no corpus at {} (a fresh clone has no ../shared)",
            root.display()
        );
        return false;
    }
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                visit(&path, &text);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_resolved_against_the_skill_directory() {
        let dir = Some("pdf");
        let in_skill = |path: &str| Resolved::InSkill {
            path: path.to_owned(),
            fragment: None,
        };
        assert_eq!(resolve("reference.md", dir), in_skill("reference.md"));
        assert_eq!(resolve("./a/../b%20c.md", dir), in_skill("b c.md"));
        assert_eq!(resolve("../pdf/x.md", dir), in_skill("x.md"));
        assert_eq!(
            resolve("../docx/x.md", dir),
            Resolved::InRoot {
                path: "docx/x.md".into()
            }
        );
        assert_eq!(resolve("../../x.md", dir), Resolved::OutsideRoot);
        assert_eq!(resolve("%2e%2e/%2e%2e/x", dir), Resolved::OutsideRoot);
        assert_eq!(resolve("https://x.dev/a.md", dir), Resolved::NotRelative);
        assert_eq!(resolve("/etc/passwd", dir), Resolved::NotRelative);
        assert_eq!(resolve("#usage", dir), Resolved::Fragment("usage".into()));
        assert_eq!(resolve("a%ff.md", dir), Resolved::Undecodable);
        assert_eq!(resolve("a%2fb%5c..", dir), Resolved::Undecodable);
    }

    proptest::proptest! {
        /// Wherever a generated target leads, `resolve` says what the `url`
        /// crate (the WHATWG parser behind reqwest and browsers) says, read
        /// from the skill file: inside the skill, elsewhere in the root, or
        /// outside it. It never panics.
        #[test]
        fn resolution_agrees_with_a_url_parser(
            parts in proptest::collection::vec(
                "\\.\\.|\\.|a|b c|%2e%2e|%2E|%2e|é|%C3%A9|SKILL\\.md|pdf|x\\.md|",
                1..7,
            ),
            fragment in proptest::option::of("[a-z-]{0,5}"),
        ) {
            let mut target = parts.join("/");
            if let Some(fragment) = &fragment {
                target.push('#');
                target.push_str(fragment);
            }
            let resolved = resolve(&target, Some("pdf"));
            if matches!(resolved, Resolved::NotRelative | Resolved::Undecodable) {
                // `//host/...` and `/...` are not relative: nothing to check.
                proptest::prop_assert!(target.is_empty() || target.starts_with('/') || resolved == Resolved::Undecodable);
                return Ok(());
            }
            let base = url::Url::parse("file:///r/skills/pdf/SKILL.md").unwrap();
            let joined = base.join(&target).unwrap();
            let path = percent_encoding::percent_decode_str(joined.path())
                .decode_utf8()
                .unwrap();
            let path = path.trim_end_matches('/');
            match resolved {
                Resolved::InSkill { path: inside, .. } => {
                    let expected = format!("/r/skills/pdf/{inside}");
                    proptest::prop_assert_eq!(path, expected.trim_end_matches('/'));
                }
                Resolved::InRoot { path: in_root } => {
                    proptest::prop_assert!(!in_root.starts_with("pdf/") && in_root != "pdf");
                    let expected = format!("/r/skills/{in_root}");
                    proptest::prop_assert_eq!(path, expected.trim_end_matches('/'));
                }
                Resolved::OutsideRoot => {
                    proptest::prop_assert!(!path.starts_with("/r/skills/"), "{}", path);
                }
                Resolved::Fragment(_) => proptest::prop_assert_eq!(path, "/r/skills/pdf/SKILL.md"),
                Resolved::NotRelative | Resolved::Undecodable => {}
            }
        }
    }

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slug("Set up: the `CLI`!"), "set-up-the-cli");
        assert_eq!(slug("Übersicht"), "übersicht");
        let set = |items: &[&str]| items.iter().map(|s| s.to_string()).collect();
        assert_eq!(anchors("# A\n## A\n## A\n"), set(&["a", "a-1", "a-2"]));
        // A number a heading took is skipped, as GitHub skips it.
        assert_eq!(anchors("# A 1\n# A\n# A\n"), set(&["a-1", "a", "a-2"]));
    }
}
