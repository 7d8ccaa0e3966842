//! The signed payload: an in-toto Statement v1 whose predicate
//! (`https://model_signing/signature/v1.0`) lists every file of the skill
//! with its SHA-256, read with the reference's rules and checked for what
//! a hostile signer could write (paths out of the skill, duplicates, an
//! ignore list that hides everything).

use std::collections::BTreeSet;

use serde::Deserialize;
use sha2::Digest;

/// The statement type.
pub(crate) const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The predicate type OpenSSF Model Signing 1.x writes.
pub(crate) const PREDICATE_TYPE: &str = "https://model_signing/signature/v1.0";
/// What the reference leaves out of every signature by default: git's files.
pub(crate) const GIT_PATHS: [&str; 4] = [".git", ".gitattributes", ".github", ".gitignore"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Json {
    #[serde(rename = "_type")]
    kind: String,
    subject: Vec<JsonSubject>,
    #[serde(rename = "predicateType")]
    predicate_type: String,
    predicate: JsonPredicate,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonSubject {
    name: String,
    digest: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonPredicate {
    serialization: JsonSerialization,
    resources: Vec<JsonResource>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonSerialization {
    method: String,
    hash_type: String,
    allow_symlinks: bool,
    #[serde(default)]
    ignore_paths: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonResource {
    name: String,
    algorithm: String,
    digest: String,
}

/// What a statement says of the skill's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// The subject's name (the signed folder's name).
    pub(crate) name: String,
    /// Each file, relative and `/`-separated, with its lower-case hex
    /// SHA-256; sorted by name, each once.
    pub(crate) resources: Vec<(String, String)>,
    /// Paths the signature leaves out, relative to the skill.
    pub(crate) ignore_paths: Vec<String>,
    /// Whether a symlink is hashed as its target (else refused).
    pub(crate) allow_symlinks: bool,
}

/// Why a statement is refused, in words.
pub(crate) type Refusal = String;

/// Reads and checks the statement in `payload`.
pub(crate) fn read(payload: &[u8], max_resources: usize) -> Result<Manifest, Refusal> {
    // The reference writes five levels; a deeper payload is refused
    // before it is parsed, and unknown members when it is.
    if skills_core::json_nests_deeper_than(payload, 16).is_some() {
        return Err("the payload nests deeper than 16 levels: not an in-toto statement".to_owned());
    }
    let json: Json = serde_json::from_slice(payload)
        .map_err(|error| format!("the payload is not an in-toto statement: {error}"))?;
    if json.kind != STATEMENT_TYPE {
        return Err(format!(
            "the payload's `_type` is `{}`, not `{STATEMENT_TYPE}`",
            skills_core::printable(&json.kind)
        ));
    }
    if json.predicate_type != PREDICATE_TYPE {
        return Err(format!(
            "the predicate type is `{}`, not `{PREDICATE_TYPE}` (OpenSSF Model Signing 1.x)",
            skills_core::printable(&json.predicate_type)
        ));
    }
    let [subject] = json.subject.as_slice() else {
        return Err(format!(
            "the statement has {} subjects; the reference writes exactly one",
            json.subject.len()
        ));
    };
    let serialization = &json.predicate.serialization;
    if serialization.method != "files" || serialization.hash_type != "sha256" {
        return Err(format!(
            "the files were hashed by `{}` with `{}`; only `files` with `sha256` is verified",
            skills_core::printable(&serialization.method),
            skills_core::printable(&serialization.hash_type)
        ));
    }
    let resources = resources(&json.predicate.resources, max_resources)?;
    check_subject_digest(subject, &json.predicate.resources)?;
    let ignore_paths = serialization
        .ignore_paths
        .iter()
        .map(|path| ignore_path(path))
        .collect::<Result<_, _>>()?;
    Ok(Manifest {
        name: subject.name.clone(),
        resources,
        ignore_paths,
        allow_symlinks: serialization.allow_symlinks,
    })
}

/// The resources, each a safe relative path listed once with a SHA-256.
fn resources(listed: &[JsonResource], max: usize) -> Result<Vec<(String, String)>, Refusal> {
    if listed.len() > max {
        return Err(format!(
            "the signature lists {} files; a skill holds at most {max}",
            listed.len()
        ));
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(listed.len());
    for resource in listed {
        let name = skills_core::printable(&resource.name);
        if resource.algorithm != "sha256" {
            return Err(format!(
                "`{name}` is hashed with `{}`, not `sha256`",
                skills_core::printable(&resource.algorithm)
            ));
        }
        if !skills_core::is_file_path(&resource.name) {
            return Err(format!(
                "`{name}` is not a path inside the skill (relative, `/`-separated, without `.` or `..`)"
            ));
        }
        let digest = resource.digest.to_ascii_lowercase();
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("`{name}`'s digest is not 64 hexadecimal digits"));
        }
        if !seen.insert(resource.name.as_str()) {
            return Err(format!("`{name}` is listed twice"));
        }
        out.push((resource.name.clone(), digest));
    }
    out.sort();
    Ok(out)
}

/// The subject's digest must be the reference's: SHA-256 over the raw
/// digests in the order the resources are listed.
fn check_subject_digest(subject: &JsonSubject, listed: &[JsonResource]) -> Result<(), Refusal> {
    let Some(claimed) = subject.digest.get("sha256") else {
        return Err("the subject has no `sha256` digest".to_owned());
    };
    let mut hasher = sha2::Sha256::new();
    for resource in listed {
        hasher.update(hex_bytes(&resource.digest).unwrap_or_default());
    }
    let computed = skills_core::lower_hex(&hasher.finalize());
    if !claimed.eq_ignore_ascii_case(&computed) {
        return Err(format!(
            "the subject's digest `{}` is not the digest of the listed files ({computed})",
            skills_core::printable(claimed)
        ));
    }
    Ok(())
}

/// An ignore path of the statement: relative, inside the skill, and not
/// the whole skill (`.` or an empty path would leave every file unchecked).
fn ignore_path(path: &str) -> Result<String, Refusal> {
    let trimmed = path.trim_end_matches('/');
    if skills_core::is_file_path(trimmed) {
        Ok(trimmed.to_owned())
    } else {
        Err(format!(
            "the ignored path `{}` is not a path inside the skill; `.`, `..` and absolute paths would leave files unchecked",
            skills_core::printable(path)
        ))
    }
}

fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The statement the reference writes for `manifest` (resources sorted by
/// name), as bytes: pretty JSON with sorted keys, the same bytes for the
/// same files.
pub(crate) fn write(manifest: &Manifest) -> Vec<u8> {
    let mut hasher = sha2::Sha256::new();
    let resources: Vec<serde_json::Value> = manifest
        .resources
        .iter()
        .map(|(name, digest)| {
            hasher.update(hex_bytes(digest).unwrap_or_default());
            serde_json::json!({"algorithm": "sha256", "digest": digest, "name": name})
        })
        .collect();
    let root = skills_core::lower_hex(&hasher.finalize());
    let statement = serde_json::json!({
        "_type": STATEMENT_TYPE,
        "subject": [{"name": manifest.name, "digest": {"sha256": root}}],
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "serialization": {
                "method": "files",
                "hash_type": "sha256",
                "allow_symlinks": manifest.allow_symlinks,
                "ignore_paths": manifest.ignore_paths,
            },
            "resources": resources,
        },
    });
    serde_json::to_vec_pretty(&statement).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            name: "pdf".to_owned(),
            resources: vec![
                ("SKILL.md".to_owned(), "ab".repeat(32)),
                ("references/a.md".to_owned(), "cd".repeat(32)),
            ],
            ignore_paths: vec![".git".to_owned(), "skill.oms.sig".to_owned()],
            allow_symlinks: false,
        }
    }

    #[test]
    fn a_written_statement_reads_back() {
        assert_eq!(read(&write(&manifest()), 100), Ok(manifest()));
    }

    #[test]
    fn hostile_resources_are_refused() {
        for name in ["../x", "/etc/passwd", "a//b", "a/./b", "", "a\\b", "."] {
            let mut bad = manifest();
            bad.resources[0].0 = name.to_owned();
            let err = read(&write(&bad), 100).unwrap_err();
            assert!(err.contains("not a path inside"), "{name}: {err}");
        }
        let mut twice = manifest();
        twice.resources[1].0 = "SKILL.md".to_owned();
        assert!(
            read(&write(&twice), 100)
                .unwrap_err()
                .contains("listed twice")
        );
        for hidden in [".", "", "..", "/"] {
            let mut bad = manifest();
            bad.ignore_paths = vec![hidden.to_owned()];
            assert!(
                read(&write(&bad), 100)
                    .unwrap_err()
                    .contains("ignored path")
            );
        }
    }

    #[test]
    fn a_subject_digest_over_other_files_is_refused() {
        let text = String::from_utf8(write(&manifest())).unwrap();
        let other = text.replacen(&"cd".repeat(32), &"ef".repeat(32), 1);
        assert!(
            read(other.as_bytes(), 100)
                .unwrap_err()
                .contains("subject's digest")
        );
    }
}
