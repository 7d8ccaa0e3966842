//! Code generation: the IR becomes the items `include_skills!` and
//! `skills-build` emit. Strings are precomputed here, so nothing is parsed or
//! allocated at run time; paths are relative to `CARGO_MANIFEST_DIR`, so the
//! output is the same from any checkout.

mod calls;
mod include;
mod names;
mod tables;
mod types;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::present;
use crate::ir::{Skill, SkillSet};
use include::{included, included_copy, included_text};
use names::Namespace;

/// Names the generated code uses itself, never handed to a skill's types.
const RESERVED: &[&str] = &["ToolCall", "SKILL", "FILES", "__p", "__skills"];

/// The lints generated code is shielded from: `include!` (the build-script
/// path) does not shield it from the user's lints the way a macro expansion
/// is shielded.
fn allowed() -> TokenStream {
    quote! {
        #[allow(
            dead_code,
            missing_docs,
            non_camel_case_types,
            non_upper_case_globals,
            unreachable_pub,
            unused_imports,
            unused_mut,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
    }
}

/// The items for a valid skill set: `SKILLS`, every skill's tables in one
/// module (`__skills`), and one module per skill that names its table and
/// holds its typed tool calls.
///
/// The tables share one module because rustc compiles each module as a
/// codegen unit of its own, at a fixed cost each: 64 modules of statics
/// cost more than the data in them (BENCHMARKS.md, issue 21). A skill
/// without tools gets no tool code at all.
/// `krate` is the path of the `skills` runtime crate (`::skills`, or `$crate`
/// when called through `skills::include_skills!`).
pub fn expand(set: &SkillSet, krate: &TokenStream) -> TokenStream {
    with_runtime_import(krate, items(set))
}

/// An expansion: `items` behind the one item that names the runtime crate.
/// Everything else goes through this import, so [`items`] is the same text
/// whatever the runtime's path, and can be stored as text (`$crate` cannot
/// be spelled in text; `expansion_cache`), and the macro puts a stored
/// expansion together here too.
pub fn with_runtime_import(krate: &TokenStream, items: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(unused_imports)]
        use #krate::__private as __skills_runtime;
        #items
    }
}

/// Everything [`expand`] gives but the import of the runtime.
pub fn items(set: &SkillSet) -> TokenStream {
    let names: Vec<proc_macro2::Ident> = module_names(set)
        .iter()
        .map(|name| names::ident(name))
        .collect();
    let tables: Vec<proc_macro2::Ident> = (0..set.skills.len()).map(table_name).collect();
    let data = set
        .skills
        .iter()
        .enumerate()
        .map(|(i, skill)| skill_table(skill, i));
    let skill_modules = set
        .skills
        .iter()
        .zip(&names)
        .zip(&tables)
        .map(|((skill, name), table)| skill_module(skill, name, table));
    let allowed = allowed();
    quote! {
        /// Every skill, sorted by name.
        #[allow(dead_code)]
        pub static SKILLS: __skills_runtime::SkillSet = __skills_runtime::SkillSet::compiled(&[#(&__skills::#tables),*]);

        /// Every skill's tables, in the set's order.
        #[doc(hidden)]
        #allowed
        mod __skills {
            use super::__skills_runtime as __p;

            #(#data)*
        }

        #(#skill_modules)*
    }
}

/// The Rust module of each skill, in the set's order (`r#` left out):
/// `github-issues` is `github_issues`, `self` is `self_`, `3d` is `_3d`.
pub fn module_names(set: &SkillSet) -> Vec<String> {
    let mut modules = Namespace::default();
    set.skills
        .iter()
        .map(|skill| modules.snake(skill.name(), "skill"))
        .collect()
}

/// What an invalid set expands to besides its `compile_error!`: `SKILLS` and
/// the modules of the skills that are valid, so that user code does not
/// cascade into secondary errors.
pub fn stub(valid: &SkillSet, krate: &TokenStream) -> TokenStream {
    expand(valid, krate)
}

/// The name in `__skills` of the table of the skill at `index`.
fn table_name(index: usize) -> proc_macro2::Ident {
    format_ident!("SKILL_{index}")
}

/// A skill's `static` table, its text and its files' table, named after
/// `index` in `__skills`.
fn skill_table(skill: &Skill, index: usize) -> TokenStream {
    let table = table_name(index);
    let files = format_ident!("FILES_{index}");
    let source = format_ident!("SOURCE_{index}");
    // The text is the file itself, which rustc reads and tracks: an edit
    // re-expands the macro. The length check catches an edit made while
    // the macro ran, which rustc would otherwise take for the file compiled.
    let text = match &skill.snapshot {
        Some(name) => included_copy(format_ident!("include_str"), name),
        None => included_text(skill.path()),
    };
    let lowered = crate::emit::lower::skill(skill, Default::default());
    let length = lowered.source_len();
    let changed = format!(
        "{} changed while it was compiled: build again",
        skill.path()
    );
    let tracked = skill.tools_path.iter().map(|path| {
        let bytes = included(path);
        quote!(const _: &[u8] = #bytes;)
    });
    // The bytes are `include_bytes!` of each file, printed by `tables::files`.
    // A skill's trigger cases are for `cargo skills test`, not for an agent.
    let embedded: Vec<_> = skill
        .files
        .iter()
        .filter(|file| skill.embed_evals || !file.path.starts_with("evals/"))
        .cloned()
        .collect();
    let file_values = tables::files(&embedded, skill.dir.as_deref().unwrap_or_default());
    let count = file_values.len();
    let (files_static, files_ref) = if count == 0 {
        (quote!(), quote!([]))
    } else {
        (
            quote!(static #files: [__p::File; #count] = [#(#file_values),*];),
            quote!(#files),
        )
    };
    let value = tables::skill(&lowered, &quote!(#source), &files_ref);
    quote! {
        const #source: &str = #text;
        const _: () = ::core::assert!(#source.len() == #length, #changed);
        #(#tracked)*
        pub(super) static #table: __p::CompiledSkill = #value;
        #files_static
    }
}

fn skill_module(
    skill: &Skill,
    module: &proc_macro2::Ident,
    table: &proc_macro2::Ident,
) -> TokenStream {
    let doc = format!(
        " `{}`: {}",
        skill.name(),
        present::one_line(skill.description(), present::CATALOG_DESCRIPTION_CHARS)
    );
    let skill_const = quote! {
        /// This skill: a `CompiledSkill`, which dereferences to its `Skill`.
        pub const SKILL: &super::__skills_runtime::CompiledSkill = &super::__skills::#table;
    };
    if skill.tools.is_empty() {
        // No code: only the name of the skill's table.
        return quote! {
            #[doc = #doc]
            #[allow(dead_code, unreachable_pub)]
            pub mod #module {
                #skill_const
            }
        };
    }
    let allowed = allowed();
    let tool_code = tool_code(skill);
    quote! {
        #[doc = #doc]
        #allowed
        pub mod #module {
            use super::__skills_runtime as __p;

            #skill_const

            #tool_code
        }
    }
}

/// The typed arguments of each tool and the skill's `ToolCall`.
fn tool_code(skill: &Skill) -> TokenStream {
    let mut types = Namespace::reserving(RESERVED);
    let args: Vec<types::Args> = skill
        .tools
        .iter()
        .map(|tool| types::args(tool, &mut types))
        .collect();
    let mut variants = Namespace::default();
    let calls: Vec<calls::Call<'_>> = skill
        .tools
        .iter()
        .zip(&args)
        .map(|(tool, args)| calls::Call {
            tool,
            variant: format_ident!("{}", variants.pascal(tool.name(), "Tool")),
            args: args.ident.clone(),
        })
        .collect();
    let tool_call = calls::tool_call(&calls);
    let items = args.iter().flat_map(|a| a.items.iter());
    quote! {
        #(#items)*

        #tool_call
    }
}
