//! The IR lowered to the runtime's own tables (`skills_core`): the one place
//! that decides what a compiled or loaded skill holds. Code generation prints
//! these values as `static`s; the run-time loader (`skills`, feature
//! `loader`) hands them over as they are. Neither adds a rule.

use crate::diagnostics::{Code, Diagnostic};
use crate::ir::{self, List, Str};

/// Lowers a valid skill, with its files: the front end gives their bytes
/// (the loader reads them with [`read_files`]; generated code includes each
/// file itself and gives none here). The validator filled the table key by
/// key; lowering adds what a check does not need: the sections, the tools'
/// tables and the files.
pub fn skill(skill: &ir::Skill, files: List<skills_core::File>) -> skills_core::Skill {
    skills_core::Skill {
        sections: List::Owned(skill.sections()),
        tools: skill.tools.iter().map(|tool| tool.table.clone()).collect(),
        files,
        ..skill.table.clone()
    }
}

/// The text a model reads when it loads the skill, as the runtime makes it.
pub fn rendered(skill: &ir::Skill) -> String {
    self::skill(skill, Default::default()).rendered().to_owned()
}

/// One file of a skill with its bytes: what the runtime holds of it.
pub fn file(file: &ir::SkillFile, bytes: skills_core::Bytes) -> skills_core::File {
    skills_core::File::new(text(&file.path), bytes, file.executable, mime(file))
}

/// The file's MIME type by its extension.
pub fn mime(file: &ir::SkillFile) -> Option<Str> {
    crate::read::files::mime(&file.path).map(Str::Owned)
}

/// Lowers every skill of a valid set with its files read as listed
/// ([`read_files`]), in the set's order: [`each`] of the whole set.
pub fn set(valid: &ir::SkillSet) -> Result<Vec<skills_core::Skill>, Vec<Diagnostic>> {
    each(valid.skills.iter().map(|skill| &**skill).collect())
}

/// Lowers each of `skills` with its files read as listed, in order; each
/// skill on a core of its own with the `parallel` feature, for collections
/// of thousands (a reload lowers only the skills it read again). Every
/// skill with a file that cannot be read is said (S508), none dropped.
pub fn each(skills: Vec<&ir::Skill>) -> Result<Vec<skills_core::Skill>, Vec<Diagnostic>> {
    let lowered = crate::parallel::map_in_order(skills, |skill| {
        read_files(skill).map(|files| self::skill(skill, files.into()))
    });
    let mut skills = Vec::with_capacity(lowered.len());
    let mut unreadable = Vec::new();
    for result in lowered {
        match result {
            Ok(skill) => skills.push(skill),
            Err(diagnostic) => unreadable.push(diagnostic),
        }
    }
    if unreadable.is_empty() {
        Ok(skills)
    } else {
        Err(unreadable)
    }
}

/// Reads a skill's files from its directory, each exactly as listed: a file
/// that changed length since is an error (S508), so that the bounds that
/// held for the listing hold for what is kept.
pub fn read_files(skill: &ir::Skill) -> Result<Vec<skills_core::File>, Diagnostic> {
    let Some(dir) = &skill.dir_on_disk else {
        return Ok(Vec::new());
    };
    let shown = skill.dir.as_deref().unwrap_or_default();
    let read = |listed: &ir::SkillFile| {
        let bytes = crate::read::files::read_listed(dir, listed).map_err(|error| {
            Diagnostic::error(
                Code::Io,
                format!("{shown}/{}", listed.path),
                format!("cannot read the file: {error}"),
            )
        })?;
        Ok(file(listed, skills_core::Bytes::Owned(bytes)))
    };
    let bytes: u64 = skill.files.iter().map(|listed| listed.len).sum();
    crate::parallel::map_heavy_in_order(skill.files.iter().collect(), bytes, read)
        .into_iter()
        .collect()
}

fn text(text: &str) -> Str {
    Str::Owned(text.to_owned())
}
