//! One skill file as an editor holds it: checked with its package's
//! settings (the manifest's profile, lints, lock and trust), as `cargo
//! skills check DIR` checks it when the text is on disk. Only that skill is
//! compiled: a keystroke re-checks the skill it touches, not the root.
//!
//! ```no_run
//! use skills_compiler::ops;
//!
//! let checked = ops::document::check("skills/tracker/SKILL.md".as_ref(), "---\nname: tracker\n---\n")?;
//! for diagnostic in &checked.diagnostics {
//!     println!("{}:{}", diagnostic.code, diagnostic.message);
//! }
//! # Ok::<(), ops::Error>(())
//! ```

use std::ops::Range;
use std::path::{Path, PathBuf};

use super::error::Error;
use super::targets::{Selection, targets};
use crate::config::Overrides;
use crate::diagnostics::Diagnostic;
use crate::pipeline::Compilation;
pub use crate::pipeline::Unsaved;
pub use crate::pipeline::outline::{
    Entry, Heading, Link, LinkTo, MAX_OUTLINED_BODY, Outline, anchor, outline,
};
pub use crate::read::key_at::{KeyAt, key_at};

/// The skill a file belongs to: its folder for a `SKILL.md`, else the file
/// itself (a flat `name.md` skill).
pub fn skill_of(file: &Path) -> PathBuf {
    let is_skill_md = file
        .file_name()
        .is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md"));
    match file.parent() {
        Some(folder) if is_skill_md && !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => file.to_path_buf(),
    }
}

/// Where the skill [`check`] compiled was vendored from, when the lock
/// records it so: someone else's files, which an editor offers no edits.
pub fn upstream(checked: &Compilation) -> Option<&str> {
    checked
        .checked
        .iter()
        .find_map(|folder| checked.vendored.get(folder))
        .map(String::as_str)
}

/// A path as diagnostics and the IR show it (`/`-separated).
fn shown(path: &Path) -> String {
    crate::read::discover::display_path(path)
}

/// The skill's folder name in its root, which its links resolve against;
/// `None` for a flat `name.md` skill (its links start at the root).
fn dir_name(file: &Path) -> Option<String> {
    let skill = skill_of(file);
    if skill == file {
        return None;
    }
    skill
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
}

/// [`outline`] of skill file `file` (relative to the current directory)
/// holding `text`: its links resolved against the skill's folder.
pub fn outline_of(file: &Path, text: &str) -> Outline {
    outline(text, dir_name(file).as_deref())
}

/// Where `link`, a link of skill file `file`, leads: the file (relative to
/// the current directory, as `file` is) and the heading it names.
pub fn link_target(file: &Path, link: &Link) -> Option<(PathBuf, Option<String>)> {
    let skill = skill_of(file);
    match &link.to {
        LinkTo::Here(anchor) => Some((file.to_path_buf(), Some(anchor.clone()))),
        LinkTo::File { path, fragment } => Some((skill.join(path), fragment.clone())),
        LinkTo::Root(path) => {
            let root = skill.parent().map(Path::to_path_buf).unwrap_or_default();
            Some((root.join(path), None))
        }
        LinkTo::Away => None,
    }
}

/// Every link to `wanted` (a file relative to the current directory) from
/// the skill files of the workspace's roots, as `check` finds them: each
/// linking file and the link's bytes in it, in the files' order. `read`
/// gives a file's text where the editor holds it; else it is the disk's.
pub fn references(
    wanted: &Path,
    read: impl Fn(&Path) -> Option<String>,
) -> Result<Vec<(PathBuf, Range<usize>)>, Error> {
    let found = targets(&Selection::default(), &[], &Overrides::default())?;
    let mut linking = Vec::new();
    for target in &found {
        let mut problems = Vec::new();
        for files in target.files(&mut problems) {
            let file = PathBuf::from(&files.path);
            let Some(text) = read(&file).or_else(|| String::from_utf8(files.bytes).ok()) else {
                continue;
            };
            for link in outline_of(&file, &text).links {
                if link_target(&file, &link).is_some_and(|(to, _)| to == wanted) {
                    linking.push((file.clone(), link.span));
                }
            }
        }
    }
    Ok(linking)
}

/// Every diagnostic of the workspace's skills roots as they are on disk,
/// with the package's settings: what `cargo skills check` with no path
/// reports, set-level checks (a name two skills share) included. Each
/// diagnostic names its file relative to the current directory.
pub fn check_workspace() -> Result<Vec<Diagnostic>, Error> {
    let found = targets(&Selection::default(), &[], &Overrides::default())?;
    let mut diagnostics = Vec::new();
    for target in &found {
        diagnostics.extend(target.compile().diagnostics);
    }
    Ok(diagnostics)
}

/// One skill's place in one host's listing, as `cargo skills budget`
/// measures it.
#[derive(Debug, Clone, PartialEq)]
pub struct Share {
    /// The budget: a host's (`claude-code`, `codex`, …) or a plain one.
    pub budget: super::budget::Budget,
    /// The skill's entry against the budget, in percent.
    pub percent: f64,
    /// What the host does with it: shown in full, cut to so many
    /// characters, by name only, left out.
    pub fate: super::budget::Fate,
}

/// What an editor's lenses say of one skill: its trigger cases routed,
/// and its place in each host's listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Lensed {
    /// Its trigger cases with the offline router ([`routed_cases`]).
    pub routed: Option<Routed>,
    /// Its share of each host's listing budget.
    pub shares: Vec<Share>,
}

/// [`Lensed`] for the skill of `file`, the workspace's targets looked up
/// once for both.
pub fn lenses(file: &Path) -> Result<Lensed, Error> {
    let found = targets(&Selection::default(), &[], &Overrides::default())?;
    Ok(Lensed {
        routed: routed_in(&found, file),
        shares: listing_shares(found, file),
    })
}

/// The share of each host's listing budget the skill of `file` takes, and
/// where each host cuts it: the package's catalog as `cargo skills
/// budget` measures it (the package's `budget` hosts, else every host),
/// from disk. Empty when the skill is not valid (it is not listed).
fn listing_shares(found: Vec<super::targets::Target>, file: &Path) -> Vec<Share> {
    let own = shown(file);
    let catalog = super::budget::catalog(found, &super::budget::Request::default());
    let Some(index) = catalog.skills.iter().position(|skill| skill.path() == own) else {
        return Vec::new();
    };
    let entries = catalog.entries();
    catalog
        .reports(&entries)
        .iter()
        .filter_map(|report| {
            let line = report.lines.iter().find(|line| line.entry == Some(index))?;
            Some(Share {
                budget: report.budget,
                percent: report.share(line),
                fate: line.fate,
            })
        })
        .collect()
}

/// What the frontmatter says of the tool, or of the `{{placeholder}}`,
/// under an editor's cursor: from the skill as compiled, so a hover shows
/// the schema the runtime checks arguments against.
#[derive(Debug, Clone, PartialEq)]
pub enum Described {
    /// A tool, named where its `name:` is.
    Tool {
        /// Its name.
        name: String,
        /// What it says it does.
        description: String,
        /// `GET https://…/{{number}}`, when it has an endpoint.
        endpoint: Option<String>,
        /// Its parameters' JSON Schema.
        parameters: serde_json::Value,
    },
    /// A `{{name}}` of a tool's endpoint: the parameter it fills.
    Placeholder {
        /// The tool whose endpoint holds it.
        tool: String,
        /// The parameter's name.
        name: String,
        /// The parameter's schema (`null` when the tool declares none of
        /// that name: a diagnostic says so).
        schema: serde_json::Value,
        /// Whether the tool requires it.
        required: bool,
    },
}

/// The tool, or the placeholder, at byte `offset` of skill file `file`
/// (its text `text`), with `range` the bytes it covers; `None` elsewhere or
/// when the skill does not compile.
pub fn describe_at(file: &Path, text: &str, offset: usize) -> Option<(Range<usize>, Described)> {
    let entries = crate::read::key_at::entries(text);
    let tool = entries
        .iter()
        .rfind(|entry| entry.tool && entry.lines.start <= offset && offset < entry.lines.end)?;
    let placeholder = placeholder_at(text, offset);
    let on_name = tool.span.start <= offset && offset <= tool.span.end;
    if placeholder.is_none() && !on_name {
        return None;
    }
    let compilation = check(file, text).ok()?;
    let skill = compilation
        .valid
        .skills
        .iter()
        .find(|skill| skill.path() == shown(file))?;
    let compiled = skill.tools.iter().find(|t| t.name() == tool.name)?;
    let parameters = compiled.parameters_json();
    if let Some((span, name)) = placeholder {
        let schema = parameters["properties"][&name].clone();
        let required = parameters["required"]
            .as_array()
            .is_some_and(|required| required.iter().any(|r| r == name.as_str()));
        return Some((
            span,
            Described::Placeholder {
                tool: tool.name.clone(),
                name,
                schema,
                required,
            },
        ));
    }
    let endpoint = compiled
        .endpoint()
        .map(|endpoint| format!("{} {}", endpoint.method.as_str(), endpoint.url));
    Some((
        tool.span.clone(),
        Described::Tool {
            name: tool.name.clone(),
            description: compiled.description().to_owned(),
            endpoint,
            parameters,
        },
    ))
}

/// The `{{name}}` around byte `offset` on its line, and the name.
fn placeholder_at(text: &str, offset: usize) -> Option<(Range<usize>, String)> {
    if !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[offset..]
        .find('\n')
        .map_or(text.len(), |at| offset + at);
    let open = text[line_start..offset.min(line_end)]
        .rfind("{{")
        .map(|at| line_start + at)?;
    let close = text[open..line_end].find("}}").map(|at| open + at + 2)?;
    if offset > close {
        return None;
    }
    let name = text[open + 2..close - 2].trim();
    let is_name = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.');
    is_name.then(|| (open..close, name.to_owned()))
}

/// How a skill's trigger cases route with the offline router, as `cargo
/// skills test` judges them: of the cases that name the skill (to choose
/// it, or not to), how many pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Routed {
    /// Cases that pass.
    pub passed: usize,
    /// Cases that name the skill.
    pub cases: usize,
}

/// [`Routed`] for the skill of `file`, from the package's case files on
/// disk and its catalogue; `None` when no case names it, or the cases
/// cannot be run (a case file with errors: `cargo skills test` says why).
pub fn routed_cases(file: &Path) -> Result<Option<Routed>, Error> {
    let found = targets(&Selection::default(), &[], &Overrides::default())?;
    Ok(routed_in(&found, file))
}

/// [`routed_cases`] over targets already looked up.
fn routed_in(found: &[super::targets::Target], file: &Path) -> Option<Routed> {
    use super::trigger;
    let own = shown(file);
    let set = trigger::catalogue(found, None);
    let skill = set.skills.iter().find(|skill| skill.path() == own)?;
    let name = skill.name().to_owned();
    let request = trigger::Request {
        router: Some(trigger::Router::Lexical),
        ..Default::default()
    };
    let ran = trigger::run(&set, &request, &mut Offline).ok()?;
    let naming: Vec<_> =
        ran.report
            .outcomes
            .iter()
            .filter(|outcome| match &outcome.case.expected {
                trigger::Expected::Skill { name: wanted, .. }
                | trigger::Expected::NotSkill(wanted) => *wanted == name,
                trigger::Expected::Nothing { .. } => false,
            })
            .collect();
    if naming.is_empty() {
        return None;
    }
    Some(Routed {
        passed: naming.iter().filter(|outcome| outcome.pass).count(),
        cases: naming.len(),
    })
}

/// The model of an offline run: there is none to ask.
struct Offline;

impl super::trigger::Model for Offline {
    fn can_ask(&self, _: &str) -> Result<bool, String> {
        Ok(false)
    }

    fn ask(
        &mut self,
        model: &str,
        _: &super::trigger::Set,
        _: &[super::trigger::Case],
        _: usize,
    ) -> Result<Vec<Option<String>>, Error> {
        Err(Error::Usage(format!(
            "{model} is not asked from an editor: the offline router routes"
        )))
    }
}

/// What a markdown file is to the compiler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// A skill's own file: `SKILL.md` of the folder given, or a flat
    /// `name.md` skill (the file itself).
    Skill(PathBuf),
    /// Another file inside the skill folder given (`references/api.md`):
    /// compiled in with its skill, and not a skill of its own.
    FileOf(PathBuf),
}

/// What `file` (relative to the current directory) is: a `SKILL.md`, a
/// file below a folder that holds one, else a flat skill.
pub fn role(file: &Path) -> Role {
    let skill = skill_of(file);
    if skill != file {
        return Role::Skill(skill);
    }
    let mut folder = file.parent();
    while let Some(dir) = folder.filter(|dir| !dir.as_os_str().is_empty()) {
        if dir.join("SKILL.md").is_file() {
            return Role::FileOf(dir.to_path_buf());
        }
        folder = dir.parent();
    }
    Role::Skill(skill)
}

/// `file` (relative to the current directory, which a front end sets to
/// the workspace's root) compiled with `text` as its content (a skill
/// file, or a skill's `tools.yaml`): the
/// diagnostics name files as `check` does.
pub fn check(file: &Path, text: &str) -> Result<Compilation, Error> {
    let (skill, unsaved) = match file.file_name().and_then(|name| name.to_str()) {
        Some("tools.yaml") => (
            file.parent().map(Path::to_path_buf).unwrap_or_default(),
            Unsaved::ToolsYaml(text.as_bytes()),
        ),
        _ => (skill_of(file), Unsaved::SkillFile(text.as_bytes())),
    };
    let found = targets(&Selection::default(), &[skill], &Overrides::default())?;
    let mut compilations = found.iter().map(|target| target.compile_with_text(unsaved));
    let mut first = compilations
        .next()
        .ok_or_else(|| Error::Usage(format!("no skill at {}", file.display())))?;
    for more in compilations {
        first.diagnostics.extend(more.diagnostics);
    }
    Ok(first)
}

/// `file` with `text` as its content in the canonical frontmatter style,
/// as `cargo skills fmt` writes it, proven to compile to the same skill:
/// `Ok(None)` when it already is, `Err` with why `fmt` leaves it (a
/// comment it would lose, a skill with errors).
pub fn format(file: &Path, text: &str) -> Result<Option<String>, Error> {
    let skill = skill_of(file);
    let found = targets(&Selection::default(), &[skill], &Overrides::default())?;
    let target = found
        .first()
        .ok_or_else(|| Error::Usage(format!("no skill at {}", file.display())))?;
    let mut problems = Vec::new();
    let mut files = target.files(&mut problems);
    let Some(mut files) = files.pop() else {
        let why = problems.first().map_or_else(
            || format!("no skill at {}", file.display()),
            |problem| problem.message.clone(),
        );
        return Err(Error::Usage(why));
    };
    files.bytes = text.as_bytes().to_vec();
    match crate::write::format::skill(&files, &target.config) {
        crate::write::format::Outcome::Unchanged => Ok(None),
        crate::write::format::Outcome::Changed(formatted) => Ok(Some(formatted)),
        crate::write::format::Outcome::Skipped(why)
        | crate::write::format::Outcome::Unchecked(why) => Err(Error::Usage(why)),
    }
}

/// One replacement in one file, as an editor applies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Relative to the current directory, as `file` was given.
    pub file: PathBuf,
    /// The bytes replaced.
    pub bytes: Range<usize>,
    /// What replaces them.
    pub text: String,
}

/// The title of the heading whose line holds byte `offset` of `text`: its
/// bytes, the `#` markers and closing `#`s left out.
pub fn heading_title_at(text: &str, offset: usize) -> Option<Range<usize>> {
    let outline = outline(text, None);
    let heading = outline
        .headings
        .iter()
        .find(|heading| heading.line.start <= offset && offset <= heading.line.end)?;
    let line = &text[heading.line.clone()];
    let after_markers = line.trim_start_matches([' ', '#']);
    let start = heading.line.start + (line.len() - after_markers.len());
    let title = after_markers
        .trim_end()
        .trim_end_matches('#')
        .trim_end_matches([' ', '\t']);
    (!title.is_empty() || line.starts_with('#')).then(|| start..start + title.len())
}

/// Renames the heading whose line holds byte `offset` of `file` (whose
/// text is `text`) to `title`: its text, and every link to its anchor the
/// compiler checks (the skill's `SKILL.md` body: its own `#anchor` links
/// for a heading of the body, its `path#anchor` links for a heading of
/// another file of the skill). `read` gives another file's text, the
/// editor's where it is open. `None` when the offset is on no heading.
pub fn rename_heading(
    file: &Path,
    text: &str,
    offset: usize,
    title: &str,
    read: impl Fn(&Path) -> Option<String>,
) -> Option<Vec<Edit>> {
    let title_bytes = heading_title_at(text, offset)?;
    let before = outline(text, None);
    let index = before.headings.iter().position(|heading| {
        heading.line.contains(&title_bytes.start) || heading.line.end == title_bytes.start
    })?;
    let old = before.headings[index].anchor.clone();
    let mut renamed = text.to_owned();
    renamed.replace_range(title_bytes.clone(), title);
    let new = outline(&renamed, None).headings.get(index)?.anchor.clone();
    let mut edits = vec![Edit {
        file: file.to_path_buf(),
        bytes: title_bytes,
        text: title.to_owned(),
    }];
    // The links the compiler checks are its `SKILL.md` body's.
    let (linking, linking_text) = match role(file) {
        Role::Skill(_) => (file.to_path_buf(), text.to_owned()),
        Role::FileOf(skill) => {
            let skill_md = skill.join("SKILL.md");
            let linking_text = read(&skill_md)?;
            (skill_md, linking_text)
        }
    };
    let renamed_heading = (file.to_path_buf(), Some(old));
    for link in outline_of(&linking, &linking_text).links {
        let Some(hash) = link.written.rfind('#') else {
            continue;
        };
        if link_target(&linking, &link).as_ref() == Some(&renamed_heading) {
            edits.push(Edit {
                file: linking.clone(),
                bytes: link.span.start + hash + 1..link.span.end,
                text: new.clone(),
            });
        }
    }
    Some(edits)
}

/// One completion an editor offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// What is inserted.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// One line on it: a key's meaning, a heading's file.
    pub detail: String,
    /// The bytes it replaces: what is typed of it so far.
    pub replace: Range<usize>,
}

/// What a [`Completion`] completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    /// A frontmatter key.
    Key,
    /// A file of the skill, in a link.
    File,
    /// A heading's anchor, after `#` in a link.
    Heading,
}

/// The most files of a skill offered in a link.
const MAX_OFFERED_FILES: usize = 2_000;

/// What may be typed at byte `offset` of skill file `file` (text `text`):
/// a key the mapping there declares and does not have yet (the top level,
/// a tool, its endpoint, `permissions`); in a link's destination, a file
/// of the skill, or after `#` a heading of the file named (`read` gives
/// another file's text, the editor's where it is open).
pub fn complete(
    file: &Path,
    text: &str,
    offset: usize,
    read: impl Fn(&Path) -> Option<String>,
) -> Vec<Completion> {
    if let Some(slot) = crate::read::key_at::key_slot(text, offset) {
        return keys_for(text, slot);
    }
    let Some(typed) = destination_typed(text, offset) else {
        return Vec::new();
    };
    let written = &text[typed.clone()];
    let skill = skill_of(file);
    let in_folder = skill != file;
    match written.rfind('#') {
        Some(hash) => {
            let target = &written[..hash];
            let target_text = if target.is_empty() {
                Some(text.to_owned())
            } else if in_folder {
                read(&skill.join(target))
            } else {
                None
            };
            let Some(target_text) = target_text else {
                return Vec::new();
            };
            let shown = if target.is_empty() {
                "this file"
            } else {
                target
            };
            outline(&target_text, None)
                .headings
                .into_iter()
                .map(|heading| Completion {
                    label: heading.anchor,
                    kind: CompletionKind::Heading,
                    detail: format!(
                        "{} {} ({shown})",
                        "#".repeat(heading.level.into()),
                        heading.title
                    ),
                    replace: typed.start + hash + 1..typed.end,
                })
                .collect()
        }
        None if in_folder => files_of(&skill)
            .into_iter()
            .map(|path| Completion {
                detail: format!("a file of `{}`", skill.display()),
                label: path,
                kind: CompletionKind::File,
                replace: typed.clone(),
            })
            .collect(),
        None => Vec::new(),
    }
}

/// The keys declared for the mapping of `slot` that the text lacks.
fn keys_for(text: &str, slot: crate::read::key_at::KeySlot) -> Vec<Completion> {
    crate::pipeline::outline::missing_keys(text, slot.parent.as_deref())
        .into_iter()
        .map(|(name, doc)| Completion {
            label: name.to_owned(),
            kind: CompletionKind::Key,
            detail: doc.to_owned(),
            replace: slot.typed.clone(),
        })
        .collect()
}

/// The destination typed so far when byte `offset` is inside a link's
/// `](…` on one line, before its `)`.
fn destination_typed(text: &str, offset: usize) -> Option<Range<usize>> {
    if !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let before = &text[line_start..offset];
    let open = before.rfind("](")?;
    let typed = &before[open + 2..];
    (!typed.contains([')', ' ', '\t', '<'])).then(|| line_start + open + 2..offset)
}

/// The files the skill at `skill` compiles in (`SKILL.md` aside), as
/// discovery lists them (ignore rules and skipped files applied), sorted;
/// at most [`MAX_OFFERED_FILES`].
fn files_of(skill: &Path) -> Vec<String> {
    let Ok(found) = targets(
        &Selection::default(),
        &[skill.to_path_buf()],
        &Overrides::default(),
    ) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    found
        .iter()
        .flat_map(|target| target.files(&mut problems))
        .filter_map(|files| files.dir)
        .flat_map(|dir| dir.listing.files)
        .map(|file| file.path)
        .take(MAX_OFFERED_FILES)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "---\nname: a\n---\n# Use it ##\nSee [use](#use-it), [again](SKILL.md#use-it), [other](#other).\n# Other\n";

    #[test]
    fn a_heading_renamed_takes_its_anchors_links_with_it() {
        let file = Path::new("skills/a/SKILL.md");
        let offset = BODY.find("Use it").unwrap() + 2;
        let edits = rename_heading(file, BODY, offset, "Run it", |_| None).unwrap();
        let mut renamed = BODY.to_owned();
        let mut sorted = edits.clone();
        sorted.sort_by_key(|edit| std::cmp::Reverse(edit.bytes.start));
        for edit in sorted {
            assert_eq!(edit.file, file);
            renamed.replace_range(edit.bytes, &edit.text);
        }
        assert_eq!(
            renamed,
            "---\nname: a\n---\n# Run it ##\nSee [use](#run-it), [again](SKILL.md#run-it), [other](#other).\n# Other\n"
        );
        assert_eq!(heading_title_at(BODY, BODY.find("See").unwrap()), None);
        assert!(rename_heading(file, BODY, 2, "x", |_| None).is_none());
    }

    fn labels(text: &str, at: &str, by: usize) -> Vec<String> {
        let offset = text.find(at).unwrap() + by;
        complete(Path::new("skills/a/SKILL.md"), text, offset, |_| None)
            .into_iter()
            .map(|completion| completion.label)
            .collect()
    }

    #[test]
    fn keys_not_yet_written_and_anchors_are_offered() {
        let text = "---\nname: a\nde\ntools:\n  - name: t\n    endpoint:\n      me\n---\n# Use it\nSee [x](#u) and [y](#\n";
        let top = labels(text, "de\n", 2);
        assert!(top.contains(&"description".to_owned()), "{top:?}");
        assert!(!top.contains(&"name".to_owned()), "{top:?}");
        let endpoint = labels(text, "      me", 8);
        assert!(endpoint.contains(&"method".to_owned()), "{endpoint:?}");
        assert!(endpoint.contains(&"url".to_owned()), "{endpoint:?}");
        assert_eq!(labels(text, "(#u)", 3), ["use-it"]);
        assert_eq!(labels(text, "(#\n", 2), ["use-it"]);
        assert!(labels(text, "See", 1).is_empty());
    }
}
