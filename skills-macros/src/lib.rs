//! `include_skills!`: the proc-macro front end of the skills compiler.
//!
//! A thin shim: parse the arguments, load the configuration, call
//! `skills_compiler::compile`, and return the generated items, or a
//! `compile_error!` carrying every diagnostic plus the items of the valid
//! skills, so that user code does not cascade into secondary errors.
//! Use it through `skills::include_skills!`, which passes its own path.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::{Config, OptionValue, Overrides, expansion_cache, tracking};
use syn::parse::ParseStream;
use syn::{Lit, LitStr, Token};

/// See `skills::include_skills!`.
///
/// Every failure (bad arguments, configuration, untracked root, invalid
/// skills) is one `compile_error!` beside `SKILLS` and the modules of the
/// skills that are valid, so user code that names them does not cascade into
/// secondary errors.
#[proc_macro]
pub fn include_skills(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let parser = |input: ParseStream<'_>| Ok(Args::parse_lenient(input));
    match syn::parse::Parser::parse(parser, input) {
        Ok(Ok(args)) => expand(args).into(),
        Ok(Err((krate, error))) => {
            // Without a directory there is no skill to emit; `SKILLS` still exists.
            let stub = skills_compiler::codegen::stub(&empty(), &krate);
            let error = error.to_compile_error();
            quote!(#error #stub).into()
        }
        Err(error) => error.to_compile_error().into(),
    }
}

fn empty() -> skills_compiler::ir::SkillSet {
    skills_compiler::ir::SkillSet { skills: Vec::new() }
}

struct Args {
    /// The path of the runtime crate (`$crate` from `skills::include_skills!`).
    krate: TokenStream,
    dir: LitStr,
    overrides: Overrides,
    /// `track = false` opts out of the check that a build script tracks the directory.
    track: bool,
    /// The first malformed option; the options before it still apply.
    error: Option<syn::Error>,
}

impl Args {
    /// The crate path and directory must parse; a bad option is kept as an
    /// error and the skills are still compiled (with the options before it).
    fn parse_lenient(input: ParseStream<'_>) -> Result<Args, (TokenStream, syn::Error)> {
        let krate = parse_krate(input).map_err(|e| (quote!(::skills), e))?;
        let dir: LitStr = input.parse().map_err(|e| (krate.clone(), e))?;
        let mut args = Args {
            overrides: Overrides {
                dir: Some(PathBuf::from(dir.value())),
                ..Overrides::default()
            },
            krate,
            dir,
            track: true,
            error: None,
        };
        if let Err(error) = args.options(input) {
            args.error = Some(error);
            // The rest is not read; consume it so that the parser is content.
            let _ = input.step(|cursor| {
                let mut rest = *cursor;
                while let Some((_, next)) = rest.token_tree() {
                    rest = next;
                }
                Ok(((), rest))
            });
        }
        Ok(args)
    }

    fn options(&mut self, input: ParseStream<'_>) -> syn::Result<()> {
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            if key == "track" {
                self.track = input.parse::<syn::LitBool>()?.value;
            } else {
                set(&mut self.overrides, &key, input)?;
            }
        }
        Ok(())
    }
}

/// `krate = <path>;` as the `skills` wrapper passes it; `::skills` otherwise.
fn parse_krate(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let fork = input.fork();
    let is_krate = fork.parse::<syn::Ident>().is_ok_and(|i| i == "krate") && fork.peek(Token![=]);
    if !is_krate {
        return Ok(quote!(::skills));
    }
    input.parse::<syn::Ident>()?;
    input.parse::<Token![=]>()?;
    input.step(|cursor| {
        let mut tokens = TokenStream::new();
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ';') {
                return Ok((tokens, next));
            }
            tokens.extend([tree]);
            rest = next;
        }
        Err(cursor.error("expected `;` after the crate path"))
    })
}

/// One `key = value` option into `overrides`, read through the compiler's
/// own option table (`Overrides`), so that the macro spells no option name.
fn set(overrides: &mut Overrides, key: &syn::Ident, input: ParseStream<'_>) -> syn::Result<()> {
    let (value, value_span) = option_value(input)?;
    if key == "dir" {
        return Err(syn::Error::new(
            key.span(),
            "the skills directory is the macro's first argument, not an option",
        ));
    }
    match Overrides::option(&key.to_string(), value) {
        Ok(set) => {
            *overrides = set.over(std::mem::take(overrides));
            Ok(())
        }
        Err(error) if error.at_key => Err(syn::Error::new(
            key.span(),
            format!(
                "{} (or `track`)",
                error.message.replacen("unknown field", "unknown option", 1)
            ),
        )),
        Err(error) => Err(syn::Error::new(
            value_span,
            format!("`{key}`: {}", error.message),
        )),
    }
}

/// A literal (`"text"`, `3`, `true`) or a list of strings (`["a", "b"]`).
fn option_value(input: ParseStream<'_>) -> syn::Result<(OptionValue, Span)> {
    if input.peek(syn::token::Bracket) {
        let content;
        let brackets = syn::bracketed!(content in input);
        let items =
            content.parse_terminated(|s: ParseStream<'_>| s.parse::<LitStr>(), Token![,])?;
        let items = items.iter().map(LitStr::value).collect();
        return Ok((OptionValue::List(items), brackets.span.join()));
    }
    let literal: Lit = input.parse()?;
    let value = match &literal {
        Lit::Str(text) => OptionValue::Text(text.value()),
        Lit::Int(int) => OptionValue::Integer(int.base10_parse::<u64>()?),
        Lit::Bool(b) => OptionValue::Bool(b.value),
        other => {
            return Err(syn::Error::new(
                other.span(),
                "an option's value is a string, an integer, `true`/`false` or a list of strings",
            ));
        }
    };
    Ok((value, literal.span()))
}

fn expand(args: Args) -> TokenStream {
    let Args {
        krate,
        dir,
        overrides,
        track,
        error: argument_error,
    } = args;
    let mut errors: Vec<TokenStream> = argument_error
        .iter()
        .map(syn::Error::to_compile_error)
        .collect();
    let root = PathBuf::from(dir.value());
    if track && !tracking::is_tracked(&root, |name| std::env::var_os(name).is_some()) {
        errors.push(error(dir.span(), &untracked(&root)));
    }
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        errors.push(error(
            dir.span(),
            "include_skills!: CARGO_MANIFEST_DIR is not set (is this built by cargo?)",
        ));
        let stub = skills_compiler::codegen::stub(&empty(), &krate);
        return quote!(#(#errors)* #stub);
    };
    let config = match Config::load(&manifest_dir, overrides.clone()) {
        Ok(config) => config,
        Err(diagnostic) => {
            errors.push(error(dir.span(), &render::short(&diagnostic)));
            Config::from_overrides(overrides)
        }
    };
    if let Err(diagnostic) = config.check_relative_root(&manifest_dir) {
        errors.push(error(
            dir.span(),
            &format!(
                "include_skills!: {}
  = help: {}",
                diagnostic.message,
                diagnostic.help.unwrap_or_default()
            ),
        ));
    }
    if errors.is_empty()
        && let Some(items) = stored_expansion(&manifest_dir, &config, &krate)
    {
        return items;
    }
    let compilation = skills_compiler::compile(&manifest_dir, &config);
    if compilation.has_errors() {
        errors.push(error(dir.span(), &skill_errors(&dir, &compilation)));
    }
    if errors.is_empty() {
        let warnings = warnings(&dir, &compilation);
        let items = skills_compiler::codegen::expand(&compilation.valid, &krate);
        return quote!(#warnings #items);
    }
    // The error's text holds every diagnostic, warnings too: they are not
    // repeated as deprecations (issue 40, item 6).
    let stub = skills_compiler::codegen::stub(&compilation.valid, &krate);
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
    Some(skills_compiler::codegen::with_runtime_import(krate, items))
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
        entry = skills_compiler::tracking::Source::of(
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
