//! `include_skills!`: the proc-macro front end of the skills compiler.
//!
//! A thin shim: read the arguments (`skills_compiler::Invocation`, which
//! `cargo skills` reads too), load the configuration, call
//! `skills_compiler::compile`, and return the generated items, or a
//! `compile_error!` carrying every diagnostic plus the items of the valid
//! skills, so that user code does not cascade into secondary errors.
//! Use it through `skills::include_skills!`, which passes its own path.

#![deny(missing_docs)]

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::embed::{self, expansion_cache, tracking};
use skills_compiler::{Config, Invocation};
use syn::LitStr;

/// See `skills::include_skills!`.
///
/// Every failure (bad arguments, configuration, untracked root, invalid
/// skills) is one `compile_error!` beside `SKILLS` and the modules of the
/// skills that are valid, so user code that names them does not cascade into
/// secondary errors.
#[proc_macro]
pub fn include_skills(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match Invocation::parse(input.into()) {
        Ok(invocation) => expand(invocation).into(),
        Err((krate, error)) => {
            // Without a directory there is no skill to emit; `SKILLS` still exists.
            let stub = skills_compiler::emit::codegen::stub(&empty(), &krate);
            let error = error.to_compile_error();
            quote!(#error #stub).into()
        }
    }
}

fn empty() -> skills_compiler::ir::SkillSet {
    skills_compiler::ir::SkillSet { skills: Vec::new() }
}

fn expand(invocation: Invocation) -> TokenStream {
    let Invocation {
        krate,
        dir,
        overrides,
        track,
        error: argument_error,
    } = invocation;
    let mut errors: Vec<TokenStream> = argument_error
        .iter()
        .map(syn::Error::to_compile_error)
        .collect();
    let root = PathBuf::from(dir.value());
    let tracked = tracking::is_tracked(&root, |name| std::env::var_os(name).is_some());
    if track && !tracked {
        errors.push(error(dir.span(), &untracked(&root)));
    }
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        errors.push(error(
            dir.span(),
            "include_skills!: CARGO_MANIFEST_DIR is not set (is this built by cargo?)",
        ));
        let stub = skills_compiler::emit::codegen::stub(&empty(), &krate);
        return quote!(#(#errors)* #stub);
    };
    let embedding = embed::configure(&manifest_dir, overrides);
    if let Some(diagnostic) = &embedding.manifest_problem {
        errors.push(error(dir.span(), &render::short(diagnostic)));
    }
    if let Some(diagnostic) = &embedding.root_problem {
        errors.push(error(
            dir.span(),
            &format!(
                "include_skills!: {}
  = help: {}",
                diagnostic.message,
                diagnostic.help.as_deref().unwrap_or_default()
            ),
        ));
    }
    let config = &embedding.config;
    if errors.is_empty()
        && let Some(items) = stored_expansion(&manifest_dir, config, &krate)
    {
        return items;
    }
    // Embedded from copies made now, by identity, when a build script
    // tracks the root (which then re-runs the build on an edit, as rustc
    // would for the files themselves).
    let out_dir = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .filter(|_| errors.is_empty() && tracked);
    let embedded = embedding.compile(&manifest_dir, out_dir.as_deref());
    let compilation = embedded.compilation;
    if compilation.has_errors() {
        errors.push(error(dir.span(), &skill_errors(&dir, &compilation)));
    }
    if !embedded.copy_problems.is_empty() {
        let rendered: Vec<String> = embedded.copy_problems.iter().map(render::short).collect();
        errors.push(error(dir.span(), &rendered.join("\n")));
    }
    if errors.is_empty() {
        let warnings = warnings(&dir, &compilation);
        let items = skills_compiler::emit::codegen::expand(&compilation.valid, &krate);
        return quote!(#warnings #items);
    }
    // The error's text holds every diagnostic, warnings too: they are not
    // repeated as deprecations (issue 40, item 6).
    let stub = skills_compiler::emit::codegen::stub(&compilation.valid, &krate);
    quote!(#(#errors)* #stub)
}

/// The expansion `skills_build::track` stored in `OUT_DIR`, when it was
/// made from this configuration and the files the root holds now.
fn stored_expansion(
    manifest_dir: &std::path::Path,
    config: &Config,
    krate: &TokenStream,
) -> Option<TokenStream> {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR")?);
    let text = expansion_cache::load(&out_dir, manifest_dir, config)?;
    // rustc's lexer through `proc_macro`, not `proc_macro2`'s `parse`: that
    // one first runs its own lexer over the text to validate it, unoptimised
    // in a debug build (90 ms of a 1 s rebuild for 64 skills x 3 tools, a
    // 765 KB expansion). The text is this compiler's own output; a copy
    // edited by hand may not lex. rustc refuses unbalanced delimiters (then
    // the skills are compiled), and reports an unterminated literal at the
    // macro by itself, panicking out of `from_str` (rust-lang/rust#58736):
    // caught here, so that the report is rustc's and not a crash.
    let lexed = std::panic::catch_unwind(|| text.parse::<proc_macro::TokenStream>());
    let items = TokenStream::from(lexed.ok()?.ok()?);
    Some(skills_compiler::emit::codegen::with_runtime_import(
        krate, items,
    ))
}

/// Stable Rust has no warning API for proc macros, but using a
/// `#[deprecated]` item is a real rustc warning carrying our text, at the
/// span we choose: one per skill warning, at the path literal.
/// `#[allow(deprecated)]` on the enclosing module silences them.
fn warnings(dir: &LitStr, compilation: &skills_compiler::Compilation) -> TokenStream {
    let warnings = compilation
        .diagnostics
        .iter()
        .filter(|d| d.severity == skills_compiler::Severity::Warning)
        .map(|diagnostic| {
            let mut note = format!("skills: {}", render::short(diagnostic));
            if let Some(help) = &diagnostic.help {
                note.push_str(&format!("\n  = help: {help}"));
            }
            let use_site = quote_spanned!(dir.span()=> SKILLS_WARNING);
            quote! {
                const _: () = {
                    #[deprecated(note = #note)]
                    const SKILLS_WARNING: () = ();
                    #use_site
                };
            }
        });
    quote!(#(#warnings)*)
}

/// Every diagnostic, rustc-style, in one message.
fn skill_errors(dir: &LitStr, compilation: &skills_compiler::Compilation) -> String {
    let rendered: Vec<String> = compilation
        .diagnostics
        .iter()
        .map(|d| render::human(d, &compilation.sources, Color::Never))
        .collect();
    let errors = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .count();
    format!(
        "include_skills!(\"{}\"): {errors} error{} in the skills\n\n{}",
        dir.value(),
        if errors == 1 { "" } else { "s" },
        rendered.join("\n\n")
    )
}

/// Why a build script is needed, and the exact one to add.
fn untracked(root: &std::path::Path) -> String {
    format!(
        "include_skills!(\"{dir}\"): no build script tracks this directory, so Cargo would not notice a \
         new or deleted skill until something else changes.\n\n\
         Add build.rs next to Cargo.toml:\n\n{build_rs}\n\
         and to Cargo.toml:\n\n    [build-dependencies]\n    skills-build = {entry}\n\n\
         or opt out: include_skills!(\"{dir}\", track = false)",
        dir = root.display(),
        build_rs = tracking::build_rs_for(root)
            .lines()
            .map(|line| format!("    {line}\n"))
            .collect::<String>(),
        // From where this macro was built: a checkout's sibling folder, or
        // the published version. Either resolves.
        entry = tracking::Source::of(
            "skills-build",
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
            env!("CARGO_PKG_VERSION"),
        )
        .entry(),
    )
}

fn error(span: Span, message: &str) -> TokenStream {
    quote_spanned!(span=> ::core::compile_error!(#message);)
}
