//! What a lock entry says of a skill's files, computed from the folder on
//! disk: Vercel's `computedHash`, and our per-file lines.
//!
//! Both read the same files, those Vercel's CLI hashes: every regular file
//! under the skill folder at any depth, symlinks passed over (a directory
//! listing's entry for a link is neither a file nor a folder there), and
//! folders named `.git` or `node_modules` skipped. Hidden files count: the
//! lock is about what is on disk, not what the compiler embeds.

use std::fs;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::lock::collate::locale_compare;

/// How many files and bytes a skill folder may hold for hashing: a folder
/// larger than that is refused rather than read without end.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_files: usize,
    pub max_bytes: u64,
}

impl Default for Limits {
    /// Ten times the compiler's default per-skill limits: the lock must be
    /// able to name what made a skill too large to compile.
    fn default() -> Self {
        Limits {
            max_files: 5_120,
            max_bytes: 160 * 1024 * 1024,
        }
    }
}

/// One file of a skill folder, as the lock records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDigest {
    /// Relative, `/`-separated.
    pub path: String,
    pub executable: bool,
    /// Lower-case hex SHA-256 of the bytes.
    pub sha256: String,
}

impl FileDigest {
    /// The lock's line for this file: `path mode sha256`, with git's modes
    /// (`100755` executable, `100644` not). The path may hold spaces: the
    /// line is read from its end.
    pub fn line(&self) -> String {
        let mode = if self.executable { "100755" } else { "100644" };
        format!("{} {mode} {}", self.path, self.sha256)
    }

    /// Reads a line written by [`FileDigest::line`].
    pub fn parse(line: &str) -> Option<FileDigest> {
        let mut parts = line.rsplitn(3, ' ');
        let sha256 = parts.next()?;
        let mode = parts.next()?;
        let path = parts.next()?;
        let executable = match mode {
            "100755" => true,
            "100644" => false,
            _ => return None,
        };
        let is_hex = sha256.len() == 64 && sha256.bytes().all(|b| b.is_ascii_hexdigit());
        (is_hex && !path.is_empty()).then(|| FileDigest {
            path: path.to_owned(),
            executable,
            sha256: sha256.to_ascii_lowercase(),
        })
    }
}

/// A skill folder hashed: Vercel's `computedHash` and the file lines, sorted
/// by path bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderDigest {
    pub computed_hash: String,
    pub files: Vec<FileDigest>,
}

/// Why a folder could not be hashed.
#[derive(Debug)]
pub enum HashError {
    Io { path: String, error: std::io::Error },
    TooManyFiles { limit: usize },
    TooLarge { limit: u64 },
    NameNotUtf8 { path: String },
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HashError::Io { path, error } => write!(f, "cannot read `{path}`: {error}"),
            HashError::TooManyFiles { limit } => write!(f, "more than {limit} files"),
            HashError::TooLarge { limit } => write!(f, "more than {limit} bytes"),
            HashError::NameNotUtf8 { path } => {
                write!(f, "`{path}` has a name that is not UTF-8")
            }
        }
    }
}

/// Hashes the skill folder `dir`.
pub fn hash_folder(dir: &Path, limits: Limits) -> Result<FolderDigest, HashError> {
    let mut files = Vec::new();
    let mut bytes = 0u64;
    collect(dir, "", 0, limits, &mut bytes, &mut files)?;
    // Vercel's order for its hash; ours for the lines.
    files.sort_by(|a, b| locale_compare(&a.0.path, &b.0.path));
    let mut hash = Sha256::new();
    for (digest, content) in &files {
        hash.update(digest.path.as_bytes());
        hash.update(content);
    }
    let computed_hash = hex(&hash.finalize());
    let mut files: Vec<FileDigest> = files.into_iter().map(|(digest, _)| digest).collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(FolderDigest {
        computed_hash,
        files,
    })
}

/// Depth at which a folder is refused: no tree Vercel's CLI would copy is
/// that deep, and a bound keeps the walk finite.
const MAX_DEPTH: usize = 64;

fn collect(
    dir: &Path,
    prefix: &str,
    depth: usize,
    limits: Limits,
    bytes: &mut u64,
    out: &mut Vec<(FileDigest, Vec<u8>)>,
) -> Result<(), HashError> {
    let io = |error| HashError::Io {
        path: if prefix.is_empty() {
            ".".to_owned()
        } else {
            prefix.to_owned()
        },
        error,
    };
    if depth > MAX_DEPTH {
        return Err(io(std::io::Error::other("folders nest too deep")));
    }
    for entry in fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(HashError::NameNotUtf8 {
                path: format!("{prefix}{}", name.to_string_lossy()),
            });
        };
        let path = format!("{prefix}{name}");
        let kind = entry.file_type().map_err(io)?;
        if kind.is_dir() {
            if name != ".git" && name != "node_modules" {
                collect(
                    &entry.path(),
                    &format!("{path}/"),
                    depth + 1,
                    limits,
                    bytes,
                    out,
                )?;
            }
        } else if kind.is_file() {
            if out.len() == limits.max_files {
                return Err(HashError::TooManyFiles {
                    limit: limits.max_files,
                });
            }
            let (content, executable) = read(&entry.path(), limits.max_bytes - *bytes)
                .map_err(|error| HashError::Io {
                    path: path.clone(),
                    error,
                })?
                .ok_or(HashError::TooLarge {
                    limit: limits.max_bytes,
                })?;
            *bytes += content.len() as u64;
            let sha256 = hex(&Sha256::digest(&content));
            out.push((
                FileDigest {
                    path,
                    executable,
                    sha256,
                },
                content,
            ));
        }
    }
    Ok(())
}

/// The file's bytes and whether it is executable; `None` past `budget` bytes.
fn read(path: &Path, budget: u64) -> std::io::Result<Option<(Vec<u8>, bool)>> {
    let file = crate::read::open::open_regular(path)?;
    let metadata = file.metadata()?;
    let mut content = Vec::with_capacity(metadata.len().min(budget) as usize);
    file.take(budget.saturating_add(1))
        .read_to_end(&mut content)?;
    if content.len() as u64 > budget {
        return Ok(None);
    }
    Ok(Some((content, is_executable(&metadata))))
}

#[cfg(unix)]
fn is_executable(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &fs::Metadata) -> bool {
    false
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(DIGITS[usize::from(byte >> 4)] as char);
        text.push(DIGITS[usize::from(byte & 15)] as char);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_whatever_the_path_holds() {
        let digest = FileDigest {
            path: "a b/c 100644 d.md".to_owned(),
            executable: true,
            sha256: "ab".repeat(32),
        };
        assert_eq!(FileDigest::parse(&digest.line()), Some(digest));
        assert_eq!(FileDigest::parse("x 100600 00"), None);
    }
}
