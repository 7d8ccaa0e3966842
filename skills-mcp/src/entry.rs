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
pub(crate) fn entry(skill: &Skill) -> McpSkill {
    let uri = uri::skill(skill);
    let skill_md = SkillResource::new(
        uri.clone(),
        format!("sha256:{}", skill.sha256_hex()),
        skill.source_len() as u64,
    );
    let files = skill.files().iter().map(|file| {
        SkillResource::new(
            uri::file(skill, file.path()),
            format!("sha256:{}", file.sha256_hex()),
            file.len() as u64,
        )
    });
    let resources = SkillResources::Files(std::iter::once(skill_md).chain(files).collect());
    McpSkill::new(uri, frontmatter(skill), resources)
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
/// `None` when `path` is not a folder of the skill. A folder is known by
/// the files under it: one that holds none is not served.
pub(crate) fn directory(skill: &Skill, path: &str) -> Option<Vec<Resource>> {
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{path}/")
    };
    let mut children = Vec::new();
    let mut folders = std::collections::BTreeSet::new();
    if path.is_empty() {
        children.push(
            Resource::new(uri::skill(skill), uri::SKILL_MD)
                .with_mime_type("text/markdown")
                .with_size(skill.source_len() as u64),
        );
    }
    for file in skill.files() {
        let Some(rest) = file.path().strip_prefix(prefix.as_str()) else {
            continue;
        };
        match rest.split_once('/') {
            Some((folder, _)) => {
                folders.insert(folder);
            }
            None => children.push(
                Resource::new(uri::file(skill, file.path()), rest)
                    .with_size(file.len() as u64)
                    .with_mime_type(mime_of(file)),
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

/// A file's MIME type, the same in `resources/list` and `resources/read`:
/// by its extension, else plain text or bytes by what it holds.
pub(crate) fn mime_of(file: &skills::File) -> &str {
    match file.mime() {
        Some(mime) => mime,
        None if file.text().is_some() => "text/plain",
        None => "application/octet-stream",
    }
}
