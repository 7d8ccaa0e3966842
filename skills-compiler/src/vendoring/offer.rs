//! Which skills a fetched source offers, found where the hosts look: the
//! folder itself when it has a SKILL.md, else `skills/*/`, `*/`,
//! `.claude/skills/*/` and `plugins/*/skills/*/`.

use std::path::{Path, PathBuf};

use crate::config::{Config, Profile};
use crate::read::layout::SKILL_FILE;
pub(crate) use crate::validate::provenance::GitHubOrigin;

/// One skill of a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    /// The name it is added under: its frontmatter's `name` when that is
    /// a folder name (as Vercel's CLI installs it), else its folder's.
    pub name: String,
    /// Its folder on disk.
    pub dir: PathBuf,
    /// Its SKILL.md relative to the source's root, `/`-separated (the
    /// lock's `skillPath`).
    pub skill_path: String,
    /// Where `gh skill` installed it from, when its metadata says.
    pub origin: Option<GitHubOrigin>,
}

/// Why a source offers nothing usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OfferError(pub String);

impl std::fmt::Display for OfferError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The layouts looked in, each a list of path segments (`*` is any folder).
const LAYOUTS: &[&[&str]] = &[
    &["skills", "*"],
    &["*"],
    &[".claude", "skills", "*"],
    &["plugins", "*", "skills", "*"],
];

/// The skills under `root/sub_path`, sorted by name. Two of one name are
/// an error naming both; none is an error saying where it looked.
pub(crate) fn offered(
    root: &Path,
    sub_path: Option<&str>,
    shown: &str,
) -> Result<Vec<Offered>, OfferError> {
    let start = match sub_path {
        Some(sub) => root.join(sub),
        None => root.to_path_buf(),
    };
    let prefix = sub_path.map(|s| format!("{s}/")).unwrap_or_default();
    let where_ = format!(
        "{shown}{}",
        sub_path.map(|s| format!(" at `{s}`")).unwrap_or_default()
    );
    if !start.is_dir() {
        return Err(OfferError(format!("{where_}: there is no such folder")));
    }
    // A layout folder is never a symlink: `skills -> /home/me/private` in
    // a repository would vendor (and lock as the repository's) whatever
    // it points at.
    if let Some(sub) = sub_path {
        let mut folder = root.to_path_buf();
        for part in sub.split('/').filter(|p| !p.is_empty()) {
            folder.push(part);
            if !is_real_dir(&folder) {
                return Err(OfferError(format!(
                    "{where_}: `{part}` is a symlink or not a folder; a source's folders are read as they are, never through links"
                )));
            }
        }
    }
    let mut found: Vec<(PathBuf, String)> = Vec::new();
    if start.join(SKILL_FILE).is_file() {
        found.push((start.clone(), format!("{prefix}{SKILL_FILE}")));
    } else {
        for layout in LAYOUTS {
            for (dir, relative) in expand(&start, layout) {
                if dir.join(SKILL_FILE).is_file() && !found.iter().any(|(d, _)| *d == dir) {
                    found.push((dir, format!("{prefix}{relative}/{SKILL_FILE}")));
                }
            }
        }
    }
    if found.is_empty() {
        return Err(OfferError(format!(
            "{where_} has no skill: no SKILL.md in it, nor in `skills/*/`, `*/`, `.claude/skills/*/` or `plugins/*/skills/*/`"
        )));
    }
    let mut offered: Vec<Offered> = found
        .into_iter()
        .map(|(dir, skill_path)| {
            let (name, origin) = read_offered(&dir);
            Offered {
                name,
                dir,
                skill_path,
                origin,
            }
        })
        .collect();
    offered.sort_by(|a, b| a.name.cmp(&b.name).then(a.skill_path.cmp(&b.skill_path)));
    if let Some(pair) = offered.windows(2).find(|pair| pair[0].name == pair[1].name) {
        return Err(OfferError(format!(
            "{where_} has two skills named `{}`: `{}` and `{}`; name the one to add with its path",
            pair[0].name, pair[0].skill_path, pair[1].skill_path
        )));
    }
    Ok(offered)
}

/// Whether `path` is a folder itself, not a symlink to one.
fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// The folders matching `layout` under `start`, with their paths relative
/// to it; hidden folders match only a literal segment; no symlink is
/// followed (a `*` takes folders only, a literal segment a real folder).
fn expand(start: &Path, layout: &[&str]) -> Vec<(PathBuf, String)> {
    let mut current = vec![(start.to_path_buf(), String::new())];
    for segment in layout {
        let mut next = Vec::new();
        for (dir, relative) in current {
            let join = |name: &str| {
                if relative.is_empty() {
                    name.to_owned()
                } else {
                    format!("{relative}/{name}")
                }
            };
            if *segment == "*" {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut names: Vec<String> = entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|name| !name.starts_with('.'))
                    .collect();
                names.sort();
                next.extend(names.into_iter().map(|name| (dir.join(&name), join(&name))));
            } else if is_real_dir(&dir.join(segment)) {
                next.push((dir.join(segment), join(segment)));
            }
        }
        current = next;
    }
    current
}

/// The skill's frontmatter name (read leniently, as its slug when it
/// breaks the rules), else its folder's name; and the origin `gh skill`
/// recorded in its metadata.
fn read_offered(dir: &Path) -> (String, Option<GitHubOrigin>) {
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let config = Config {
        profile: Profile::Lenient,
        check_links: false,
        ..Config::default()
    };
    let compilation = crate::pipeline::compile_skill(Path::new(""), dir, &config);
    let Some(skill) = compilation.valid.skills.first() else {
        return (folder, None);
    };
    let name = skill.name();
    let is_folder_name = crate::lock::folder_name_problem(name).is_none();
    let origin =
        GitHubOrigin::from_metadata((skill.table.metadata.iter()).map(|(k, v)| (&**k, &**v)));
    (
        if is_folder_name {
            name.to_owned()
        } else {
            folder
        },
        origin,
    )
}
