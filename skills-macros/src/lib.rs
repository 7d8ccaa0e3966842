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
use skills_compiler::{Config, Overrides, Profile, tracking};
use syn::parse::{Parse, ParseStream};
use syn::{Lit, LitStr, Token};

/// See `skills::include_skills!`.
#[proc_macro]
pub fn include_skills(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match syn::parse::<Args>(input) {
        Ok(args) => expand(args).into(),
        Err(error) => error.to_compile_error().into(),
    }
}

const KEYS: &str = "track, profile, max_skills, max_document_chars, max_frontmatter_bytes, max_yaml_depth, \
                    deny_warnings, tool_name_prefix_budget, areas";

struct Args {
    /// The path of the runtime crate (`$crate` from `skills::include_skills!`).
    krate: TokenStream,
    dir: LitStr,
    overrides: Overrides,
    /// `track = false` opts out of the check that a build script tracks the directory.
    track: bool,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let krate = parse_krate(input)?;
        let dir: LitStr = input.parse()?;
        let mut overrides = Overrides {
            dir: Some(PathBuf::from(dir.value())),
            ..Overrides::default()
        };
        let mut track = true;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            if key == "track" {
                track = input.parse::<syn::LitBool>()?.value;
            } else {
                set(&mut overrides, &key, input)?;
            }
        }
        Ok(Args {
            krate,
            dir,
            overrides,
            track,
        })
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

fn set(overrides: &mut Overrides, key: &syn::Ident, input: ParseStream<'_>) -> syn::Result<()> {
    let name = key.to_string();
    match name.as_str() {
        "profile" => {
            let value: LitStr = input.parse()?;
            let profile = value
                .value()
                .parse::<Profile>()
                .map_err(|e| syn::Error::new(value.span(), e))?;
            overrides.profile = Some(profile);
        }
        "deny_warnings" => overrides.deny_warnings = Some(input.parse::<syn::LitBool>()?.value),
        "areas" => {
            let content;
            syn::bracketed!(content in input);
            let items =
                content.parse_terminated(|s: ParseStream<'_>| s.parse::<LitStr>(), Token![,])?;
            overrides.areas = Some(items.iter().map(LitStr::value).collect());
        }
        "max_skills"
        | "max_document_chars"
        | "max_frontmatter_bytes"
        | "max_yaml_depth"
        | "tool_name_prefix_budget" => {
            let value = match input.parse::<Lit>()? {
                Lit::Int(int) => int.base10_parse::<usize>()?,
                other => {
                    return Err(syn::Error::new(
                        other.span(),
                        format!("`{name}` takes an integer"),
                    ));
                }
            };
            let slot = match name.as_str() {
                "max_skills" => &mut overrides.max_skills,
                "max_document_chars" => &mut overrides.max_document_chars,
                "max_frontmatter_bytes" => &mut overrides.max_frontmatter_bytes,
                "max_yaml_depth" => &mut overrides.max_yaml_depth,
                _ => &mut overrides.tool_name_prefix_budget,
            };
            *slot = Some(value);
        }
        _ => {
            return Err(syn::Error::new(
                key.span(),
                format!("unknown option `{name}`; expected one of: {KEYS}"),
            ));
        }
    }
    Ok(())
}

fn expand(args: Args) -> TokenStream {
    let Args {
        krate,
        dir,
        overrides,
        track,
    } = args;
    let root = PathBuf::from(dir.value());
    if track && !tracking::is_tracked(&root, |name| std::env::var_os(name).is_some()) {
        return error(dir.span(), &untracked(&root));
    }
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return error(
            dir.span(),
            "include_skills!: CARGO_MANIFEST_DIR is not set (is this built by cargo?)",
        );
    };
    let config = match Config::load(&manifest_dir, overrides) {
        Ok(config) => config,
        Err(diagnostic) => return error(dir.span(), &render::short(&diagnostic)),
    };
    let compilation = skills_compiler::compile(&manifest_dir, &config);
    if !compilation.has_errors() {
        return skills_compiler::codegen::expand(&compilation.valid, &krate);
    }
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
    let message = format!(
        "include_skills!(\"{}\"): {errors} error{} in the skills\n\n{}",
        dir.value(),
        if errors == 1 { "" } else { "s" },
        rendered.join("\n\n")
    );
    let failure = error(dir.span(), &message);
    let stub = skills_compiler::codegen::stub(&compilation.valid, &krate);
    quote!(#failure #stub)
}

/// Why a build script is needed, and the exact one to add.
fn untracked(root: &std::path::Path) -> String {
    format!(
        "include_skills!(\"{dir}\"): no build script tracks this directory, so Cargo would not notice a \
         new or deleted skill until something else changes.\n\n\
         Add build.rs next to Cargo.toml:\n\n{build_rs}\n\
         and to Cargo.toml:\n\n    [build-dependencies]\n    skills-build = \"{version}\"\n\n\
         or opt out: include_skills!(\"{dir}\", track = false)",
        dir = root.display(),
        build_rs = tracking::build_rs_for(root)
            .lines()
            .map(|line| format!("    {line}\n"))
            .collect::<String>(),
        version = env!("CARGO_PKG_VERSION"),
    )
}

fn error(span: Span, message: &str) -> TokenStream {
    quote_spanned!(span=> ::core::compile_error!(#message);)
}
