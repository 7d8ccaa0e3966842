//! Install provenance that other tools write into a skill's frontmatter:
//! `gh skill` puts where it came from under `metadata`, skill-embed adds
//! top-level `x-embedded-*` keys. Recognised here (the portable profile's
//! error says what they are), read by `cargo skills add` as a local
//! skill's origin, and taken out by `write::provenance`.

/// The `metadata` keys `gh skill` writes.
#[cfg(feature = "ops")]
pub(crate) const METADATA_KEYS: &[&str] = &[
    "github-repo",
    "github-ref",
    "github-tree-sha",
    "github-path",
    "github-pinned",
    "local-path",
];

/// The prefix of skill-embed's top-level keys.
pub(crate) const EXTRA_PREFIX: &str = "x-embedded-";

/// Whether a top-level frontmatter key is install provenance.
pub(crate) fn is_extra_provenance(key: &str) -> bool {
    key.starts_with(EXTRA_PREFIX)
}

/// Where a skill that `gh skill install` wrote came from, read from its
/// metadata (`None` without `github-repo`).
#[cfg(feature = "ops")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitHubOrigin {
    /// The repository's owner.
    pub owner: String,
    /// The repository.
    pub repo: String,
    /// The ref it was installed from, when recorded.
    pub reference: Option<String>,
    /// The skill's folder in the repository.
    pub path: Option<String>,
}

#[cfg(feature = "ops")]
impl GitHubOrigin {
    /// Reads `metadata` pairs; `github-repo` may be `owner/repo` or a URL.
    pub fn from_metadata<'a>(
        pairs: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    ) -> Option<GitHubOrigin> {
        let get = |key: &str| {
            pairs
                .clone()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_owned())
        };
        let repo = get("github-repo")?;
        let repo = repo
            .trim_start_matches("https://")
            .trim_start_matches("http://")
            .trim_start_matches("github.com/")
            .trim_end_matches('/')
            .trim_end_matches(".git")
            .to_owned();
        let (owner, name) = repo.split_once('/')?;
        let valid = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        if !valid(owner) || !valid(name) {
            return None;
        }
        let reference = get("github-ref").map(|r| {
            r.trim_start_matches("refs/heads/")
                .trim_start_matches("refs/tags/")
                .to_owned()
        });
        Some(GitHubOrigin {
            owner: owner.to_owned(),
            repo: name.to_owned(),
            reference: reference.filter(|r| !r.is_empty()),
            path: get("github-path").filter(|p| !p.is_empty()),
        })
    }
}

// `GitHubOrigin` is read only by vendoring, built with `ops`.
#[cfg(test)]
#[cfg(feature = "ops")]
mod tests {
    use super::*;

    #[test]
    fn reads_where_gh_installed_it_from() {
        let pairs = [
            ("github-repo", "https://github.com/anthropics/skills"),
            ("github-ref", "refs/tags/v1"),
            ("github-path", "skills/pdf"),
        ];
        let origin = GitHubOrigin::from_metadata(pairs.iter().copied()).unwrap();
        assert_eq!(
            origin,
            GitHubOrigin {
                owner: "anthropics".into(),
                repo: "skills".into(),
                reference: Some("v1".into()),
                path: Some("skills/pdf".into()),
            }
        );
    }
}
