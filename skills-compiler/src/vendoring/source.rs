//! Where skills come from, as `cargo skills add SOURCE` reads it: a GitHub
//! `owner/repo` (with a sub-path), a GitHub `tree/<ref>/<path>` URL, any git
//! URL, or a path on this machine; a ref after `#` (or `@` on a shorthand).

use std::path::{Component, Path, PathBuf};

use crate::lock::file::source_type;

/// A parsed source: where to fetch, which ref, and the folder in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Where to fetch.
    pub location: Location,
    /// A branch, tag or commit; `None` for the default branch.
    pub reference: Option<String>,
    /// The folder inside the source to look in, `/`-separated, never `..`.
    pub sub_path: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// Where a source is.
pub enum Location {
    /// `owner/repo` on GitHub.
    GitHub {
        /// The owner.
        owner: String,
        /// The repository.
        repo: String,
    },
    /// Any other git URL (`https://`, `ssh://`, `file://`, `git@host:path`).
    Git {
        /// The URL, as written.
        url: String,
    },
    /// A folder on this machine (a repository or not).
    Local {
        /// The folder.
        path: PathBuf,
    },
}

impl Location {
    /// The URL git fetches; `None` for a local folder.
    pub fn git_url(&self) -> Option<String> {
        match self {
            Location::GitHub { owner, repo } => {
                Some(format!("https://github.com/{owner}/{repo}.git"))
            }
            Location::Git { url } => Some(url.clone()),
            Location::Local { .. } => None,
        }
    }

    /// The lock's `sourceType`.
    pub fn source_type(&self) -> &'static str {
        match self {
            Location::GitHub { .. } => source_type::GITHUB,
            Location::Git { .. } => source_type::GIT,
            Location::Local { .. } => source_type::LOCAL,
        }
    }
}

/// Why a source could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError(pub String);

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Source {
    /// Reads `text` as the command line gives it; `base` is where a
    /// relative path is looked up.
    pub fn parse(text: &str, base: &Path) -> Result<Source, SourceError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SourceError("the source is empty".to_owned()));
        }
        let (body, reference) = match text.rsplit_once('#') {
            Some((body, reference)) if !reference.is_empty() => (body, Some(reference.to_owned())),
            Some(_) => {
                return Err(SourceError(format!(
                    "`{text}` ends in `#` with no ref after it"
                )));
            }
            None => (text, None),
        };
        if let Some(rest) = body
            .strip_prefix("https://github.com/")
            .or_else(|| body.strip_prefix("http://github.com/"))
        {
            return github_url(rest, reference, text);
        }
        if body.contains("://") || is_scp_like(body) {
            return Ok(Source {
                location: Location::Git {
                    url: body.to_owned(),
                },
                reference,
                sub_path: None,
            });
        }
        let looks_like_path = body.starts_with("./")
            || body.starts_with("../")
            || body.starts_with('/')
            || body.starts_with('~')
            || body == "."
            || body == "..";
        if looks_like_path || base.join(body).exists() {
            return Ok(Source {
                location: Location::Local {
                    path: PathBuf::from(body),
                },
                reference,
                sub_path: None,
            });
        }
        shorthand(body, reference, text)
    }

    /// The source with a sub-path given apart (`--path`), checked as one
    /// given inside the source is.
    pub fn with_sub_path(mut self, sub_path: &str) -> Result<Source, SourceError> {
        let joined = match &self.sub_path {
            Some(own) => format!("{own}/{sub_path}"),
            None => sub_path.to_owned(),
        };
        self.sub_path = Some(checked_sub_path(&joined)?);
        Ok(self)
    }
}

/// `git@host:path` and `user@host:path`: git's scp-like syntax (a colon
/// before any slash, and an `@` before the colon).
fn is_scp_like(text: &str) -> bool {
    match (text.find(':'), text.find('/'), text.find('@')) {
        (Some(colon), slash, Some(at)) => at < colon && slash.is_none_or(|slash| colon < slash),
        _ => false,
    }
}

/// `owner/repo[/sub/path][@ref]`.
fn shorthand(body: &str, reference: Option<String>, text: &str) -> Result<Source, SourceError> {
    let (body, at_ref) = match body.rsplit_once('@') {
        Some((body, at)) if !at.is_empty() && !at.contains('/') => (body, Some(at.to_owned())),
        _ => (body, None),
    };
    let reference = match (reference, at_ref) {
        (Some(_), Some(_)) => {
            return Err(SourceError(format!(
                "`{text}` gives a ref twice (after `@` and after `#`)"
            )));
        }
        (one, other) => one.or(other),
    };
    let parts: Vec<&str> = body.split('/').collect();
    let is_name = |part: &str| {
        !part.is_empty()
            && part != "."
            && part != ".."
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    if parts.len() < 2 || !is_name(parts[0]) || !is_name(parts[1]) {
        return Err(SourceError(format!(
            "`{text}` is not a git URL, a GitHub `owner/repo`, or a path that exists"
        )));
    }
    let sub_path = match &parts[2..] {
        [] => None,
        rest => Some(checked_sub_path(&rest.join("/"))?),
    };
    Ok(Source {
        location: Location::GitHub {
            owner: parts[0].to_owned(),
            repo: parts[1].trim_end_matches(".git").to_owned(),
        },
        reference,
        sub_path,
    })
}

/// `owner/repo[.git][/tree/<ref>/<path>]` after `https://github.com/`.
fn github_url(rest: &str, reference: Option<String>, text: &str) -> Result<Source, SourceError> {
    let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let not_a_repo = || SourceError(format!("`{text}` names no GitHub repository"));
    let (owner, repo) = match parts.as_slice() {
        [owner, repo, ..] if !owner.is_empty() && !repo.is_empty() => (owner, repo),
        _ => return Err(not_a_repo()),
    };
    let (tree_ref, sub_path) = match &parts[2..] {
        [] => (None, None),
        ["tree" | "blob", reference, rest @ ..] => {
            let sub_path = match rest {
                [] => None,
                rest => Some(checked_sub_path(&rest.join("/"))?),
            };
            (Some((*reference).to_owned()), sub_path)
        }
        _ => return Err(not_a_repo()),
    };
    Ok(Source {
        location: Location::GitHub {
            owner: (*owner).to_owned(),
            repo: repo.trim_end_matches(".git").to_owned(),
        },
        reference: reference.or(tree_ref),
        sub_path,
    })
}

/// A folder inside a source: relative, `/`-separated, no `..` or `.`.
fn checked_sub_path(path: &str) -> Result<String, SourceError> {
    let trimmed = path.trim_matches('/');
    let escapes = Path::new(trimmed)
        .components()
        .any(|c| !matches!(c, Component::Normal(_)));
    if path.starts_with('/') || escapes || trimmed.contains('\\') {
        return Err(SourceError(format!(
            "the path `{path}` inside the source must stay inside it (no `..`, `.` or leading `/`)"
        )));
    }
    Ok(trimmed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Source, SourceError> {
        Source::parse(text, Path::new("/nonexistent-base"))
    }

    fn github(owner: &str, repo: &str) -> Location {
        Location::GitHub {
            owner: owner.into(),
            repo: repo.into(),
        }
    }

    #[test]
    fn reads_every_form_the_hosts_take() {
        let source = parse("anthropics/skills/skills/pdf@v1").unwrap();
        assert_eq!(source.location, github("anthropics", "skills"));
        assert_eq!(source.reference.as_deref(), Some("v1"));
        assert_eq!(source.sub_path.as_deref(), Some("skills/pdf"));

        let source = parse("https://github.com/anthropics/skills/tree/main/skills/pdf").unwrap();
        assert_eq!(source.location, github("anthropics", "skills"));
        assert_eq!(source.reference.as_deref(), Some("main"));
        assert_eq!(source.sub_path.as_deref(), Some("skills/pdf"));

        let source = parse("https://github.com/o/r.git#abc123").unwrap();
        assert_eq!(source.location, github("o", "r"));
        assert_eq!(source.reference.as_deref(), Some("abc123"));

        let source = parse("git@example.com:team/skills.git#v2").unwrap();
        assert_eq!(
            source.location,
            Location::Git {
                url: "git@example.com:team/skills.git".into()
            }
        );
        assert_eq!(source.reference.as_deref(), Some("v2"));

        let source = parse("file:///srv/skills.git").unwrap();
        assert_eq!(source.location.source_type(), "git");

        let source = parse("./vendor/skills").unwrap();
        assert_eq!(
            source.location,
            Location::Local {
                path: "./vendor/skills".into()
            }
        );
    }

    #[test]
    fn refuses_what_leaves_the_source_or_names_nothing() {
        for bad in [
            "o/r/../../etc",
            "https://github.com/o/r/tree/main/../x",
            "just-a-word",
            "o/r#",
            "o/r@v1#v2",
            "https://github.com/o",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let source = parse("o/r").unwrap();
        assert!(source.with_sub_path("../x").is_err());
    }
}
