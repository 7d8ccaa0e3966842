//! The `.well-known/agent-skills/index.json` discovery index (schema
//! 0.2.0) and the artifacts it points at, made from compiled or loaded
//! skills (feature `zip`).
//!
//! Each skill is one entry with one artifact, as the index's 0.2.0 format
//! has it: a skill that is only its `SKILL.md` is served as that file
//! (`"type": "skill-md"`, at `NAME/SKILL.md`); a skill with other files as
//! a zip of its directory, the files at the archive's root
//! (`"type": "archive"`, at `NAME.zip`). The `digest` is the SHA-256 of the
//! artifact's bytes. URLs are relative to the index, so the folder can be
//! served from any path of any origin (RFC 3986 resolution against the
//! index's URL is what clients do). The optional `version` is given when
//! the skill declares a semantic version.
//!
//! The format: <https://agentskills.io/well-known-uri> (from Cloudflare's
//! Agent Skills Discovery RFC, v0.2.0).
//!
//! ```
//! # fn demo(skills: &[skills_core::Skill]) -> Result<(), skills_core::bundle::UnsafePath> {
//! let index = skills_core::well_known::Index::of(skills)?;
//! let json = index.to_json();
//! for artifact in index.artifacts() {
//!     // Serve `artifact.bytes` at `artifact.path`, beside `index.json`.
//!     # let _ = (&artifact.path, &artifact.bytes);
//! }
//! # let _ = json;
//! # Ok(())
//! # }
//! ```

use crate::bundle::ZipLayout;
use crate::skill::{Skill, Version};

/// The `$schema` of the index this module writes: an identifier clients
/// match, not necessarily a URL that resolves.
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// Where the index is served from a site's root.
pub const INDEX_PATH: &str = ".well-known/agent-skills/index.json";

/// What an entry's artifact is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactType {
    /// The skill's `SKILL.md`, alone.
    SkillMd,
    /// A zip of the skill's directory, its files at the root.
    Archive,
}

impl ArtifactType {
    /// The `type` the index gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactType::SkillMd => "skill-md",
            ArtifactType::Archive => "archive",
        }
    }
}

/// One skill of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The skill's name.
    pub name: String,
    /// Its artifact's type.
    pub kind: ArtifactType,
    /// The skill's description, as in its frontmatter.
    pub description: String,
    /// The artifact, relative to the index (`pdf.zip`, `notes/SKILL.md`;
    /// a name that is not ASCII percent-encoded).
    pub url: String,
    /// `sha256:` and the 64 lowercase hex digits of the artifact's bytes.
    pub digest: String,
    /// The skill's semantic version, when it declares one.
    pub version: Option<String>,
}

/// The bytes an entry points at, to be served at `path` beside the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// Relative to the index's folder, `/`-separated: the entry's `url`,
    /// decoded.
    pub path: String,
    /// What is served there.
    pub bytes: Vec<u8>,
}

/// A discovery index and its artifacts, in the order of the skills given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Index {
    entries: Vec<Entry>,
    artifacts: Vec<Artifact>,
}

impl Index {
    /// The index of `skills`, with each skill's artifact made; an error
    /// when a skill's archive cannot be made ([`Skill::zip_as`]).
    pub fn of<'a>(
        skills: impl IntoIterator<Item = &'a Skill>,
    ) -> Result<Index, crate::bundle::UnsafePath> {
        let mut index = Index::default();
        for skill in skills {
            let (kind, suffix, bytes) = if skill.files().is_empty() {
                let suffix = format!("/{}", Skill::FILE);
                let bytes = skill.source().as_bytes().to_vec();
                (ArtifactType::SkillMd, suffix, bytes)
            } else {
                let bytes = skill.zip_as(ZipLayout::AtRoot)?;
                (ArtifactType::Archive, ".zip".to_owned(), bytes)
            };
            index.entries.push(Entry {
                name: skill.name().to_owned(),
                kind,
                description: skill.description().to_owned(),
                url: format!("{}{suffix}", percent_encoded(skill.name())),
                digest: format!("sha256:{}", crate::sha256_hex(&bytes)),
                version: match skill.version() {
                    Version::Semver(version) => Some(version.to_string()),
                    Version::Number(_) | Version::Text(_) => None,
                },
            });
            let path = format!("{}{suffix}", skill.name());
            index.artifacts.push(Artifact { path, bytes });
        }
        Ok(index)
    }

    /// The entries, one per skill.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The artifacts, one per entry, in the same order.
    pub fn artifacts(&self) -> &[Artifact] {
        &self.artifacts
    }

    /// `index.json`: the fields in the order the format lists them,
    /// indented by two spaces, with a final newline. The same skills give
    /// the same bytes.
    pub fn to_json(&self) -> String {
        let mut out = format!("{{\n  \"$schema\": {},\n  \"skills\": [", quoted(SCHEMA));
        for (at, entry) in self.entries.iter().enumerate() {
            out.push_str(if at == 0 { "\n" } else { ",\n" });
            let mut fields = vec![
                ("name", entry.name.as_str()),
                ("type", entry.kind.as_str()),
                ("description", entry.description.as_str()),
                ("url", entry.url.as_str()),
                ("digest", entry.digest.as_str()),
            ];
            if let Some(version) = &entry.version {
                fields.push(("version", version));
            }
            out.push_str("    {\n");
            let last = fields.len() - 1;
            for (at, (key, value)) in fields.into_iter().enumerate() {
                let comma = if at == last { "" } else { "," };
                out.push_str(&format!("      \"{key}\": {}{comma}\n", quoted(value)));
            }
            out.push_str("    }");
        }
        if !self.entries.is_empty() {
            out.push_str("\n  ");
        }
        out.push_str("]\n}\n");
        out
    }
}

/// `segment` as a URI path segment: every byte but RFC 3986's unreserved
/// characters percent-encoded (a skill's name may be any lowercase letter,
/// `навык` included, and a URL holds ASCII).
fn percent_encoded(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `text` as a JSON string.
fn quoted(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::percent_encoded;

    #[test]
    fn names_are_percent_encoded_only_where_a_uri_needs_it() {
        assert_eq!(percent_encoded("pdf-forms"), "pdf-forms");
        assert_eq!(percent_encoded("навык"), "%D0%BD%D0%B0%D0%B2%D1%8B%D0%BA");
        assert_eq!(percent_encoded("a b/c?"), "a%20b%2Fc%3F");
    }
}
