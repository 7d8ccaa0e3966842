//! The arguments of `include_skills!("dir", key = value, ...)`, read in one
//! place for the two readers that must agree: the macro, which compiles the
//! root with those options, and `cargo skills`, which finds the calls in a
//! package's sources and checks each root with the same options. A profile
//! given to the macro is the profile `check`, `show` and `budget` use, by
//! construction (issue 40, item 3).

use std::path::PathBuf;

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::ParseStream;
use syn::{Lit, LitStr, Token};

use crate::config::{OptionValue, Overrides};

/// One call's arguments.
pub struct Invocation {
    /// `krate = <path>;` as `skills::include_skills!` passes it; `::skills`
    /// when absent.
    pub krate: TokenStream,
    /// The skills root, as written (relative to the crate root).
    pub dir: LitStr,
    /// The options, `dir` included, read through `[package.metadata.skills]`'s
    /// own table.
    pub overrides: Overrides,
    /// `track = false` opts out of the check that a build script tracks the
    /// directory (the macro's own; not a compile option).
    pub track: bool,
    /// The first malformed option; the options before it still apply.
    pub error: Option<syn::Error>,
}

/// Why the call has no root to compile: the crate path (for the stub) and
/// the error.
pub type Unusable = (TokenStream, syn::Error);

impl Invocation {
    /// Reads the tokens between the parentheses. The crate path and the
    /// directory must parse; a bad option is kept as [`Invocation::error`]
    /// and the options before it apply, so that the skills are still
    /// compiled.
    pub fn parse(tokens: TokenStream) -> Result<Invocation, Unusable> {
        let parser = |input: ParseStream<'_>| Ok(Invocation::parse_lenient(input));
        match syn::parse::Parser::parse2(parser, tokens) {
            Ok(parsed) => parsed,
            Err(error) => Err((quote::quote!(::skills), error)),
        }
    }

    /// Every `include_skills!(...)` call in the Rust source `text` whose
    /// root parses, in order (`skills::include_skills!` and a bare
    /// `include_skills!` alike; calls in comments are not tokens).
    pub fn in_source(text: &str) -> Vec<Invocation> {
        let Ok(tokens) = text.parse::<TokenStream>() else {
            return Vec::new();
        };
        let mut found = Vec::new();
        calls_in(tokens, &mut found);
        found
    }

    fn parse_lenient(input: ParseStream<'_>) -> Result<Invocation, Unusable> {
        let krate = parse_krate(input).map_err(|e| (quote::quote!(::skills), e))?;
        let dir: LitStr = input.parse().map_err(|e| (krate.clone(), e))?;
        let mut invocation = Invocation {
            overrides: Overrides {
                dir: Some(PathBuf::from(dir.value())),
                ..Overrides::default()
            },
            krate,
            dir,
            track: true,
            error: None,
        };
        if let Err(error) = invocation.options(input) {
            invocation.error = Some(error);
            // The rest is not read; consume it so that the parser is content.
            let _ = input.step(|cursor| {
                let mut rest = *cursor;
                while let Some((_, next)) = rest.token_tree() {
                    rest = next;
                }
                Ok(((), rest))
            });
        }
        Ok(invocation)
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

/// The calls in `tokens`, looked for at every depth (a call sits in a
/// `mod`'s braces).
fn calls_in(tokens: TokenStream, found: &mut Vec<Invocation>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (at, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(group) => {
                let is_call = matches!(
                    (at.checked_sub(2).map(|i| &trees[i]), at.checked_sub(1).map(|i| &trees[i])),
                    (Some(TokenTree::Ident(name)), Some(TokenTree::Punct(bang)))
                        if name == "include_skills" && bang.as_char() == '!'
                );
                if is_call && group.delimiter() == Delimiter::Parenthesis {
                    if let Ok(invocation) = Invocation::parse(group.stream()) {
                        found.push(invocation);
                    }
                } else {
                    calls_in(group.stream(), found);
                }
            }
            TokenTree::Ident(_) | TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

/// `krate = <path>;` as the `skills` wrapper passes it; `::skills` otherwise.
fn parse_krate(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let fork = input.fork();
    let is_krate = fork.parse::<syn::Ident>().is_ok_and(|i| i == "krate") && fork.peek(Token![=]);
    if !is_krate {
        return Ok(quote::quote!(::skills));
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
/// own option table (`Overrides`), so that no option name is spelled here.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Profile;

    #[test]
    fn calls_are_found_at_any_depth_with_their_options() {
        let text = r#"
            // include_skills!("commented", profile = "lenient");
            mod agent { skills::include_skills!("skills", profile = "portable", deny_warnings = true); }
            include_skills!("other");
            fn f() { let s = "include_skills!(\"in a string\")"; }
        "#;
        let found = Invocation::in_source(text);
        let dirs: Vec<String> = found.iter().map(|i| i.dir.value()).collect();
        assert_eq!(dirs, ["skills", "other"]);
        assert_eq!(found[0].overrides.profile, Some(Profile::Portable));
        assert_eq!(found[0].overrides.deny_warnings, Some(true));
        assert_eq!(found[1].overrides.profile, None);
    }
}
