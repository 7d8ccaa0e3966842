//! What a lock entry says of a skill's files, computed from the folder on
//! disk: Vercel's `computedHash`, and our per-file lines.
//!
//! Both read the same files, those Vercel's CLI hashes: every regular file
//! under the skill folder at any depth, and folders named `.git` or
//! `node_modules` skipped; and `install`'s record at the top
//! (`.skills-install.json`), which is not a file of the skill. Hidden files count: the lock is about what is on
//! disk, not what the compiler embeds. Symlinks are passed over by
//! `computedHash` (a directory listing's entry for a link is neither a file
//! nor a folder there) and recorded by our lines, as git records them (mode
//! `120000`, the digest of the target's text): the compiler follows a link
//! inside the skill, so a link added to a locked skill is a change.

use std::fs;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::lock::cache::HashCache;
use crate::lock::collate::locale_compare;
use crate::read::files::is_executable;

/// How many files and bytes a skill folder may hold for hashing: a folder
/// larger than that is refused rather than read without end.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most files.
    pub max_files: usize,
    /// The most bytes, all files together.
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
    /// A file, an executable or a link.
    pub mode: Mode,
    /// Lower-case hex SHA-256 of the bytes (of the target's text, for a link).
    pub sha256: String,
}

/// What a locked path is, with git's modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A file its owner may not run (`100644`).
    File,
    /// A file its owner may run (`100755`).
    Executable,
    /// A symlink (`120000`).
    Symlink,
}

impl Mode {
    /// Git's mode.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::File => "100644",
            Mode::Executable => "100755",
            Mode::Symlink => "120000",
        }
    }

    fn parse(text: &str) -> Option<Mode> {
        [Mode::File, Mode::Executable, Mode::Symlink]
            .into_iter()
            .find(|mode| mode.as_str() == text)
    }

    fn of_file(executable: bool) -> Mode {
        if executable {
            Mode::Executable
        } else {
            Mode::File
        }
    }
}

impl FileDigest {
    /// The lock's line for this file: `path mode sha256`, with git's modes
    /// (`100755` executable, `100644` not, `120000` a link). The path may
    /// hold spaces: the line is read from its end.
    pub fn line(&self) -> String {
        format!("{} {} {}", self.path, self.mode.as_str(), self.sha256)
    }

    /// Reads a line written by [`FileDigest::line`].
    pub fn parse(line: &str) -> Option<FileDigest> {
        let mut parts = line.rsplitn(3, ' ');
        let sha256 = parts.next()?;
        let mode = Mode::parse(parts.next()?)?;
        let path = parts.next()?;
        let is_hex = sha256.len() == 64 && sha256.bytes().all(|b| b.is_ascii_hexdigit());
        (is_hex && !path.is_empty()).then(|| FileDigest {
            path: path.to_owned(),
            mode,
            sha256: sha256.to_ascii_lowercase(),
        })
    }
}

/// A skill folder hashed: Vercel's `computedHash` and the file lines, sorted
/// by path bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderDigest {
    /// Vercel's `computedHash` of the folder.
    pub computed_hash: String,
    /// Each file, sorted by path bytes.
    pub files: Vec<FileDigest>,
}

/// Why a folder could not be hashed.
#[derive(Debug)]
pub enum HashError {
    /// A file or folder could not be read.
    Io {
        /// Which.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// More files than the limit.
    TooManyFiles {
        /// The limit.
        limit: usize,
    },
    /// More bytes than the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A name that is not UTF-8, which no lock line can hold.
    NameNotUtf8 {
        /// The path, lossily decoded.
        path: String,
    },
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

/// Hashes the skill folder `dir`: Vercel's `computedHash` (which reads
/// every byte) and each file's digest.
pub fn hash_folder(dir: &Path, limits: Limits) -> Result<FolderDigest, HashError> {
    let (mut listed, links) = list_files(dir, limits, &locked_away)?;
    // Vercel's order for its hash; ours (bytes) for the lines.
    listed.sort_by(|a, b| locale_compare(&a.path, &b.path));
    let mut hash = Sha256::new();
    let mut budget = limits.max_bytes;
    let mut files = Vec::with_capacity(listed.len());
    for file in listed {
        let content = read_within(&file, &mut budget, limits)?;
        hash.update(file.path.as_bytes());
        hash.update(&content);
        files.push(FileDigest {
            sha256: skills_core::sha256_hex(&content),
            path: file.path,
            mode: Mode::of_file(file.executable),
        });
    }
    files.extend(links);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(FolderDigest {
        computed_hash: skills_core::lower_hex(&hash.finalize()),
        files,
    })
}

/// Each file's digest, sorted by path bytes, without Vercel's hash: what
/// verifying an entry with per-file lines needs. A file whose size and
/// modification time `cache` has seen is not read again.
pub fn file_digests(
    dir: &Path,
    limits: Limits,
    cache: &mut HashCache,
) -> Result<Vec<FileDigest>, HashError> {
    file_digests_skipping(dir, limits, cache, &locked_away)
}

/// What the lock leaves out of a skill folder: folders named `.git` or
/// `node_modules` at any depth, and `install`'s record at the top.
fn locked_away(path: &str, is_dir: bool) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if is_dir {
        name == ".git" || name == "node_modules"
    } else {
        path == skills_core::install::MANIFEST
    }
}

/// [`file_digests`] with another rule for what is left out: `skip` gets
/// each path (relative, `/`-separated) and whether it is a folder, whose
/// whole tree is then left unread. The one walk of a skill folder that the
/// lock and signatures share.
pub(crate) fn file_digests_skipping(
    dir: &Path,
    limits: Limits,
    cache: &mut HashCache,
    skip: &dyn Fn(&str, bool) -> bool,
) -> Result<Vec<FileDigest>, HashError> {
    let (listed, links) = list_files(dir, limits, skip)?;
    let mut budget = limits.max_bytes;
    let mut files = Vec::with_capacity(listed.len());
    for file in listed {
        let sha256 = match cache.get(&file.full, file.len, file.modified) {
            Some(sha256) => sha256,
            None => {
                let content = read_within(&file, &mut budget, limits)?;
                let sha256 = skills_core::sha256_hex(&content);
                cache.insert(&file.full, file.len, file.modified, &sha256);
                sha256
            }
        };
        files.push(FileDigest {
            path: file.path,
            mode: Mode::of_file(file.executable),
            sha256,
        });
    }
    files.extend(links);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Depth at which a folder is refused: no tree Vercel's CLI would copy is
/// that deep, and a bound keeps the walk finite.
const MAX_DEPTH: usize = 64;

/// A file of a skill folder as listed, before it is read.
#[derive(Debug, Clone)]
pub(crate) struct ListedFile {
    /// Relative, `/`-separated.
    pub path: String,
    /// Where it is on disk.
    pub full: std::path::PathBuf,
    /// Its owner's execute bit.
    pub executable: bool,
    /// Its length when listed.
    pub len: u64,
    /// Nanoseconds since the epoch; 0 when the file system does not say.
    pub modified: u128,
    /// The file it was when listed: it is read only if it is still that one.
    pub(crate) identity: Option<crate::read::open::Identity>,
}

/// The files Vercel's CLI hashes, listed with their metadata (the sizes
/// held to `limits` before anything is read), and the symlinks beside
/// them, each already a line.
fn list_files(
    dir: &Path,
    limits: Limits,
    skip: &dyn Fn(&str, bool) -> bool,
) -> Result<(Vec<ListedFile>, Vec<FileDigest>), HashError> {
    let mut out = Listed::default();
    let mut bytes = 0u64;
    let mut walk = Walk {
        limits,
        skip,
        bytes: &mut bytes,
        out: &mut out,
    };
    walk.collect(dir, "", 0)?;
    Ok((out.files, out.links))
}

#[derive(Default)]
struct Listed {
    files: Vec<ListedFile>,
    links: Vec<FileDigest>,
}

/// One walk of a folder: its limits, what it leaves out, what it found.
struct Walk<'a> {
    limits: Limits,
    skip: &'a dyn Fn(&str, bool) -> bool,
    bytes: &'a mut u64,
    out: &'a mut Listed,
}

impl Walk<'_> {
    fn collect(&mut self, dir: &Path, prefix: &str, depth: usize) -> Result<(), HashError> {
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
            if (self.skip)(&path, kind.is_dir()) {
                continue;
            }
            if kind.is_dir() {
                self.collect(&entry.path(), &format!("{path}/"), depth + 1)?;
            } else if kind.is_symlink() {
                let target = fs::read_link(entry.path()).map_err(|error| HashError::Io {
                    path: path.clone(),
                    error,
                })?;
                self.out.links.push(FileDigest {
                    sha256: skills_core::sha256_hex(target.as_os_str().as_encoded_bytes()),
                    path,
                    mode: Mode::Symlink,
                });
            } else if kind.is_file() {
                self.push_file(&entry, path)?;
            }
        }
        Ok(())
    }

    fn push_file(&mut self, entry: &fs::DirEntry, path: String) -> Result<(), HashError> {
        if self.out.files.len() == self.limits.max_files {
            return Err(HashError::TooManyFiles {
                limit: self.limits.max_files,
            });
        }
        let metadata = entry.metadata().map_err(|error| HashError::Io {
            path: path.clone(),
            error,
        })?;
        *self.bytes = self.bytes.saturating_add(metadata.len());
        if *self.bytes > self.limits.max_bytes {
            return Err(HashError::TooLarge {
                limit: self.limits.max_bytes,
            });
        }
        let modified = metadata
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        self.out.files.push(ListedFile {
            full: entry.path(),
            executable: is_executable(&metadata),
            len: metadata.len(),
            modified,
            identity: crate::read::open::Identity::of(&metadata),
            path,
        });
        Ok(())
    }
}

/// The file's bytes, at most what is left of the folder's budget (a file
/// that grew since it was listed is cut off there, and refused).
fn read_within(file: &ListedFile, budget: &mut u64, limits: Limits) -> Result<Vec<u8>, HashError> {
    let io = |error| HashError::Io {
        path: file.path.clone(),
        error,
    };
    let (handle, _) = crate::read::open::open_listed(&file.full, file.identity).map_err(io)?;
    let mut content = Vec::with_capacity(file.len.min(*budget) as usize);
    handle
        .take(budget.saturating_add(1))
        .read_to_end(&mut content)
        .map_err(io)?;
    if content.len() as u64 > *budget {
        return Err(HashError::TooLarge {
            limit: limits.max_bytes,
        });
    }
    *budget -= content.len() as u64;
    Ok(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_whatever_the_path_holds() {
        let digest = FileDigest {
            path: "a b/c 100644 d.md".to_owned(),
            mode: Mode::Executable,
            sha256: "ab".repeat(32),
        };
        assert_eq!(FileDigest::parse(&digest.line()), Some(digest));
        assert_eq!(FileDigest::parse("x 100600 00"), None);
    }
}
