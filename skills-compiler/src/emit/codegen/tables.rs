//! A skill's tables as generated code: its `CompiledSkill` (name, text,
//! packed tables, files) and the `static` of its files. What goes in the
//! tables is decided in `crate::emit::lower`; how they are packed, in
//! `skills_core::pack`, which the runtime unpacks with.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::ir::SkillFile;

use skills_core::Skill;

/// `CompiledSkill::new(..)` of `skill`, whose text is `source` (an
/// `include_str!` of the skill file: its only copy) and whose files are the
/// `static` named by `files` (see [`files`]). The tables are one byte
/// string: rustc reads one literal, where a nested `static` literal was a
/// constructor to type-check per heading, schema node and template part.
pub(super) fn skill(skill: &Skill, source: &TokenStream, files: &TokenStream) -> TokenStream {
    let name = skill.name.as_ref();
    let packed = Literal::byte_string(&skills_core::pack(skill));
    quote!(__p::CompiledSkill::new(#name, #source, #packed, &#files))
}

/// The items of a skill's `static FILES: [File; N]`. A file holds a digest
/// made on first use (interior mutability), so the files are a `static` of
/// their own: a `static` may not borrow a temporary that has one. `dir`: the
/// skill directory relative to the crate root.
pub(super) fn files(files: &[SkillFile], dir: &str) -> Vec<TokenStream> {
    files.iter().map(|file| file_value(file, dir)).collect()
}

/// A file's bytes are `include_bytes!` of the file itself: rustc reads and
/// tracks it, and nothing of it goes through tokens.
fn file_value(file: &SkillFile, dir: &str) -> TokenStream {
    let bytes = match &file.snapshot {
        Some(name) => super::include::included_copy(quote::format_ident!("include_bytes"), name),
        None => super::include::included(&format!("{dir}/{}", file.path)),
    };
    let path = file.path.as_str();
    let mime = match crate::emit::lower::mime(file) {
        Some(mime) => {
            let mime = mime.as_ref();
            quote!(__p::Some(__p::B(#mime)))
        }
        None => quote!(__p::None),
    };
    let executable = file.executable;
    quote!(__p::File::new(__p::B(#path), __p::B(#bytes), #executable, #mime))
}
