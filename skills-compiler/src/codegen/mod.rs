//! Code generation: the IR becomes the items `include_skills!` and
//! `skills-build` emit. Strings are precomputed here, so nothing is parsed or
//! allocated at run time; paths are relative to `CARGO_MANIFEST_DIR`, so the
//! output is the same from any checkout.

mod calls;
mod names;
mod tables;
mod types;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::{Kind, Skill, SkillSet, Version};
use crate::present;
use names::Namespace;

/// Names the generated code uses itself, never handed to a skill's types.
const RESERVED: &[&str] = &["ToolCall", "SKILL", "__p"];

/// The items for a valid skill set: `SKILLS` and one module per skill.
/// `krate` is the path of the `skills` runtime crate (`::skills`, or `$crate`
/// when called through `skills::include_skills!`).
pub fn expand(set: &SkillSet, krate: &TokenStream) -> TokenStream {
    let names: Vec<proc_macro2::Ident> = module_names(set)
        .iter()
        .map(|name| names::ident(name))
        .collect();
    let skill_modules = set
        .skills
        .iter()
        .zip(&names)
        .map(|(skill, name)| skill_module(skill, name, krate));
    let catalog = present::catalog(set);
    let catalog_xml = present::catalog_xml(set);
    let index = name_index(set);
    quote! {
        /// Every skill, sorted by name.
        #[allow(dead_code)]
        pub static SKILLS: #krate::SkillSet = #krate::SkillSet {
            skills: &[#(&#names::SKILL),*],
            catalog: #catalog,
            catalog_xml: #catalog_xml,
            index: &[#(#index),*],
        };

        #(#skill_modules)*
    }
}

/// The Rust module of each skill, in the set's order (`r#` left out):
/// `github-issues` is `github_issues`, `self` is `self_`, `3d` is `_3d`.
pub fn module_names(set: &SkillSet) -> Vec<String> {
    let mut modules = Namespace::default();
    set.skills
        .iter()
        .map(|skill| modules.snake(skill.name.as_str(), "skill"))
        .collect()
}

/// The open-addressing table `SkillSet::get` probes: a power of two at least
/// twice the number of skills, each skill at the first free slot from
/// `fnv1a(name) & mask`, stored as index + 1 (0 is empty).
fn name_index(set: &SkillSet) -> Vec<u32> {
    let size = (set.skills.len() * 2).max(1).next_power_of_two();
    let mask = size - 1;
    let mut table = vec![0u32; size];
    for (i, skill) in set.skills.iter().enumerate() {
        let mut slot = crate::tracking::fnv1a(skill.name.as_str().as_bytes()) as usize & mask;
        while table[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    table
}

/// What an invalid set expands to besides its `compile_error!`: `SKILLS` and
/// the modules of the skills that are valid, so that user code does not
/// cascade into secondary errors.
pub fn stub(valid: &SkillSet, krate: &TokenStream) -> TokenStream {
    expand(valid, krate)
}

fn skill_module(skill: &Skill, module: &proc_macro2::Ident, krate: &TokenStream) -> TokenStream {
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
            variant: format_ident!("{}", variants.pascal(tool.name.as_str(), "Tool")),
            args: args.ident.clone(),
        })
        .collect();
    let tool_call = calls::tool_call(&calls, krate);
    let items = args.iter().flat_map(|a| a.items.iter());
    let tracked = std::iter::once(&skill.path)
        .chain(skill.tools_path.as_ref())
        .map(|path| {
            // An absolute root is refused (S511) before code is used; its stub
            // must still name files that exist, so as not to add errors.
            if std::path::Path::new(path).is_absolute() {
                return quote!(
                    const _: &[u8] = ::core::include_bytes!(#path);
                );
            }
            let relative = format!("/{path}");
            quote!(
                const _: &[u8] = ::core::include_bytes!(
                    ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), #relative)
                );
            )
        });
    let value = skill_value(skill, krate);
    let doc = format!(
        " `{}`: {}",
        skill.name,
        present::one_line(&skill.description, present::CATALOG_DESCRIPTION_CHARS)
    );
    quote! {
        #[doc = #doc]
        // `include!` (the build-script path) does not shield generated code from the
        // user's lints the way a macro expansion is shielded.
        #[allow(
            dead_code,
            missing_docs,
            non_camel_case_types,
            unreachable_pub,
            unused_imports,
            unused_mut,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
        pub mod #module {
            use #krate::__private as __p;

            // An edit to these files re-expands the macro.
            #(#tracked)*

            /// This skill.
            pub static SKILL: #krate::Skill = #value;

            #(#items)*

            #tool_call
        }
    }
}

fn skill_value(skill: &Skill, krate: &TokenStream) -> TokenStream {
    let name = skill.name.as_str();
    let description = &skill.description;
    let path = &skill.path;
    let rendered = present::rendered(skill);
    // The body ends the rendered text; it is stored there only.
    let body_start = rendered.len() - skill.body.len();
    let kind = match &skill.kind {
        Kind::Skill => quote!(#krate::Kind::Skill),
        Kind::Protocol(protocol) => {
            let steps = &protocol.steps;
            let post_checks = &protocol.post_checks;
            let preconditions = &protocol.preconditions;
            let on_deviation = &protocol.on_deviation;
            let on_blocked = &protocol.on_blocked;
            let on_already_done = &protocol.on_already_done;
            quote!(#krate::Kind::Protocol(&#krate::Protocol {
                steps: &[#(#steps),*],
                post_checks: &[#(#post_checks),*],
                preconditions: &[#(#preconditions),*],
                on_deviation: #on_deviation,
                on_blocked: #on_blocked,
                on_already_done: #on_already_done,
            }))
        }
    };
    let version = match &skill.version {
        Version::Number(n) => quote!(#krate::Version::Number(#n)),
        Version::Semver(s) => quote!(#krate::Version::Semver(#s)),
    };
    let license = option(skill.license.as_deref());
    let compatibility = option(skill.compatibility.as_deref());
    let area = option(skill.area.as_deref());
    let app_slug = option(skill.app_slug.as_deref());
    let model_config = option(skill.model_config.as_deref());
    let metadata = pairs(skill.metadata.iter().map(|(k, v)| (k.as_str(), v.clone())));
    let extras = pairs(
        skill
            .extras
            .iter()
            .map(|(k, v)| (k.as_str(), v.to_string())),
    );
    let allowed_tools = &skill.allowed_tools;
    let triggers = &skill.triggers;
    let tags = &skill.tags;
    let sections = skill.sections();
    let sections = sections.iter().map(|section| {
        let title = &section.title;
        let level = section.level;
        let start = section.range.start;
        let end = section.range.end;
        quote!(#krate::Section { title: #title, level: #level, start: #start, end: #end })
    });
    let tools = skill.tools.iter().map(|tool| tool_value(tool, krate));
    let sha256 = skill.sha256_hex();
    quote!(#krate::Skill {
        name: #name,
        description: #description,
        path: #path,
        rendered: #rendered,
        body_start: #body_start,
        kind: #kind,
        version: #version,
        license: #license,
        compatibility: #compatibility,
        metadata: &[#(#metadata),*],
        allowed_tools: &[#(#allowed_tools),*],
        triggers: &[#(#triggers),*],
        tags: &[#(#tags),*],
        area: #area,
        app_slug: #app_slug,
        model_config: #model_config,
        extras: &[#(#extras),*],
        sections: &[#(#sections),*],
        tools: &[#(#tools),*],
        sha256_hex: #sha256,
    })
}

fn option(value: Option<&str>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn pairs<'a>(pairs: impl Iterator<Item = (&'a str, String)>) -> Vec<TokenStream> {
    pairs.map(|(key, value)| quote!((#key, #value))).collect()
}

fn tool_value(tool: &crate::ir::Tool, krate: &TokenStream) -> TokenStream {
    let name = tool.name.as_str();
    let description = &tool.description;
    let policy = policy(tool.policy, krate);
    let endpoint = match &tool.endpoint {
        Some(endpoint) => {
            let endpoint = tables::endpoint(endpoint, krate);
            quote!(::core::option::Option::Some(#endpoint))
        }
        None => quote!(::core::option::Option::None),
    };
    let hints = tool.hints();
    let (read_only, destructive, idempotent, open_world, consequential) = (
        hints.read_only,
        hints.destructive,
        hints.idempotent,
        hints.open_world,
        hints.consequential,
    );
    let schema = tables::schema(&tool.parameters);
    let parameters_json = tool.parameters_json.to_string();
    let strict = tool.strict;
    quote!(#krate::Tool {
        name: #name,
        description: #description,
        policy: #policy,
        hints: #krate::Hints {
            read_only: #read_only,
            destructive: #destructive,
            idempotent: #idempotent,
            open_world: #open_world,
            consequential: #consequential,
        },
        endpoint: #endpoint,
        schema: #krate::Schema { nodes: #schema },
        parameters_json: #parameters_json,
        strict: #strict,
    })
}

fn policy(policy: crate::ir::Policy, krate: &TokenStream) -> TokenStream {
    match policy {
        crate::ir::Policy::Allow => quote!(#krate::Policy::Allow),
        crate::ir::Policy::Confirm => quote!(#krate::Policy::Confirm),
        crate::ir::Policy::Deny => quote!(#krate::Policy::Deny),
    }
}
