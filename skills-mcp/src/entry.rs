//! What the skills extension (SEP-2640) says of a skill besides its files'
//! bytes: its entry for `skills/list` and `skills/get` (the frontmatter
//! verbatim, every file with its digest and size), and the listing of each
//! of its directories for `resources/directory/read`.

use rmcp::model::{
    DIRECTORY_MIME_TYPE, JsonObject, Resource, Skill as McpSkill, SkillFrontmatter, SkillResource,
    SkillResources,
};
use skills::Skill;

use crate::uri;

/// The skill's entry: its `SKILL.md` URI, the frontmatter as the author
/// wrote it, and the complete manifest (`SKILL.md` first, then every file,
/// each once, with `sha256:` digests made at build time or on first use).
/// The files of the skills `nested` in its directory are files of its own
/// (SEP-2640: "nested content is supporting content"), at their own URIs.
pub(crate) fn entry<'a>(skill: &'a Skill, nested: impl Iterator<Item = &'a Skill>) -> McpSkill {
    let uri = uri::skill(skill);
    let resources = tree(skill, nested)
        .into_iter()
        .map(|file| SkillResource::new(file.uri(), file.digest(), file.size()))
        .collect();
    McpSkill::new(uri, frontmatter(skill), SkillResources::Files(resources))
}

/// The frontmatter, every key the author wrote. `name` and `description`
/// are the validated values, which the compiler keeps equal to what the
/// file says; only a skill the `lenient` profile accepted without them has
/// them from its directory and body.
fn frontmatter(skill: &Skill) -> SkillFrontmatter {
    let mut extra: JsonObject = serde_json::from_str(&skill.frontmatter_json()).unwrap_or_default();
    extra.remove("name");
    extra.remove("description");
    let mut frontmatter = SkillFrontmatter::new(skill.name(), skill.description());
    frontmatter.extra = extra;
    frontmatter
}

/// The direct children of the skill's directory at `path` (empty: the
/// skill's root), as `resources/directory/read` lists them: files with
/// their size and MIME type, folders as `inode/directory`, sorted by URI.
/// A nested skill's folder is a folder like any other. `None` when `path`
/// is not a folder of the skill. A folder is known by the files under it:
/// one that holds none is not served.
pub(crate) fn directory<'a>(
    skill: &'a Skill,
    nested: impl Iterator<Item = &'a Skill>,
    path: &str,
) -> Option<Vec<Resource>> {
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{path}/")
    };
    let mut children = Vec::new();
    let mut folders = std::collections::BTreeSet::new();
    for file in tree(skill, nested) {
        let Some(rest) = file.relative.strip_prefix(prefix.as_str()) else {
            continue;
        };
        match rest.split_once('/') {
            Some((folder, _)) => {
                folders.insert(folder.to_owned());
            }
            None => children.push(
                Resource::new(file.uri(), rest)
                    .with_size(file.size())
                    .with_mime_type(file.mime()),
            ),
        }
    }
    if children.is_empty() && folders.is_empty() {
        return None;
    }
    children.extend(folders.into_iter().map(|folder| {
        Resource::new(uri::directory(skill, &format!("{prefix}{folder}")), folder)
            .with_mime_type(DIRECTORY_MIME_TYPE)
    }));
    children.sort_by(|a, b| a.uri.cmp(&b.uri));
    Some(children)
}

/// Every file a skill's directory holds as served: its `SKILL.md` first,
/// then its files by path, then each nested skill's `SKILL.md` and files,
/// each with its path from the skill's directory.
fn tree<'a>(skill: &'a Skill, nested: impl Iterator<Item = &'a Skill>) -> Vec<ServedFile<'a>> {
    let base = skill.skill_path().into_owned();
    let mut files = Vec::new();
    for (owner, at) in std::iter::once((skill, String::new())).chain(nested.map(|inner| {
        let path = inner.skill_path();
        let at = path.strip_prefix(base.as_str()).unwrap_or(&path);
        (inner, format!("{}/", at.trim_start_matches('/')))
    })) {
        files.push(ServedFile {
            skill: owner,
            file: None,
            relative: format!("{at}{}", uri::SKILL_MD),
        });
        files.extend(owner.files().iter().map(|file| ServedFile {
            skill: owner,
            file: Some(file),
            relative: format!("{at}{}", file.path()),
        }));
    }
    files
}

/// A file of a skill's directory as served: the skill file of `skill`
/// (`file` is `None`) or one of its files, which may be a nested skill's.
struct ServedFile<'a> {
    skill: &'a Skill,
    file: Option<&'a skills::File>,
    /// Its path from the directory of the skill it is served for.
    relative: String,
}

impl ServedFile<'_> {
    fn uri(&self) -> String {
        match self.file {
            Some(file) => uri::file(self.skill, file.path()),
            None => uri::skill(self.skill),
        }
    }

    fn digest(&self) -> String {
        match self.file {
            Some(file) => format!("sha256:{}", file.sha256_hex()),
            None => format!("sha256:{}", self.skill.sha256_hex()),
        }
    }

    fn size(&self) -> u64 {
        match self.file {
            Some(file) => file.len() as u64,
            None => self.skill.source_len() as u64,
        }
    }

    fn mime(&self) -> &str {
        match self.file {
            Some(file) => mime_of(file),
            None => "text/markdown",
        }
    }
}

/// A file's MIME type, the same in `resources/list` and `resources/read`:
/// by its extension, else plain text or bytes by what it holds.
pub(crate) fn mime_of(file: &skills::File) -> &str {
    match file.mime() {
        Some(mime) => mime,
        None if file.text().is_some() => "text/plain",
        None => "application/octet-stream",
    }
}
