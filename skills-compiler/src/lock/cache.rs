//! What a build already hashed: each file's SHA-256 by its path, size and
//! modification time, kept in `OUT_DIR` between builds, so that a rebuild
//! with `locked = true` reads only the files that changed (hashing 20 MB in
//! an unoptimised build script or proc macro takes seconds). The same
//! signal cargo itself rebuilds on; without `OUT_DIR` (the CLI, the loader)
//! nothing is kept and every file is read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The cache file's name in `OUT_DIR`.
const FILE: &str = "skills-lock-hashes.txt";

/// Known digests, and where they are kept.
#[derive(Debug, Default)]
pub struct HashCache {
    known: HashMap<PathBuf, (u64, u128, String)>,
    kept_at: Option<PathBuf>,
    changed: bool,
}

/// A file of lines a build keeps in its `OUT_DIR` between builds: what
/// the lock's digests and the signatures' verdicts share.
pub(crate) mod kept {
    use std::path::{Path, PathBuf};

    /// Where the file `name` is kept in this build: in `OUT_DIR`, when set.
    pub(crate) fn of_build(name: &str) -> Option<PathBuf> {
        std::env::var_os("OUT_DIR").map(|dir| Path::new(&dir).join(name))
    }

    /// The lines of the file at `path`, as far as it reads.
    pub(crate) fn lines(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .map(|text| text.lines().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// Writes `lines`, sorted, to `path` through a temporary file beside
    /// it (named after `stem`): a reader never sees half a file, and a
    /// failure only costs the next build the work again.
    pub(crate) fn write(path: &Path, stem: &str, mut lines: Vec<String>) {
        lines.sort();
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let Ok((temporary, mut file)) = skills_core::temporary_file(dir, stem) else {
            return;
        };
        if std::io::Write::write_all(&mut file, lines.join("\n").as_bytes()).is_ok() {
            let _ = std::fs::rename(&temporary, path);
        } else {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

impl HashCache {
    /// A cache that keeps nothing.
    pub fn none() -> HashCache {
        HashCache::default()
    }

    /// The cache kept in `dir` (a build's `OUT_DIR`), as far as it reads.
    pub fn in_dir(dir: &Path) -> HashCache {
        HashCache::kept_at(dir.join(FILE))
    }

    fn kept_at(kept_at: PathBuf) -> HashCache {
        let mut known = HashMap::new();
        for line in kept::lines(&kept_at) {
            // `len modified sha256 path`: the path last, as it may hold spaces.
            let mut parts = line.splitn(4, ' ');
            let (Some(len), Some(modified), Some(sha), Some(path)) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            if let (Ok(len), Ok(modified)) = (len.parse(), modified.parse()) {
                known.insert(PathBuf::from(path), (len, modified, sha.to_owned()));
            }
        }
        HashCache {
            known,
            kept_at: Some(kept_at),
            changed: false,
        }
    }

    /// The cache of the build this runs in: `OUT_DIR`'s, when it is set.
    pub fn of_build() -> HashCache {
        kept::of_build(FILE).map_or_else(HashCache::none, HashCache::kept_at)
    }

    /// The digest of the file at `full` when its size and modification
    /// time (nanoseconds since the epoch) are those seen.
    pub fn get(&self, full: &Path, len: u64, modified: u128) -> Option<String> {
        // A file whose time the file system does not give is read every time.
        if modified == 0 {
            return None;
        }
        let (known_len, known_modified, sha) = self.known.get(full)?;
        (*known_len == len && *known_modified == modified).then(|| sha.clone())
    }

    /// Remembers the digest of the file at `full`, with its size and time.
    pub fn insert(&mut self, full: &Path, len: u64, modified: u128, sha256: &str) {
        if self.kept_at.is_none() || modified == 0 || full.to_str().is_none_or(|p| p.contains('\n'))
        {
            return;
        }
        self.known
            .insert(full.to_path_buf(), (len, modified, sha256.to_owned()));
        self.changed = true;
    }

    /// Writes what was learnt; a failure only costs the next build a read.
    pub fn keep(&self) {
        let (Some(path), true) = (&self.kept_at, self.changed) else {
            return;
        };
        let lines = self
            .known
            .iter()
            .filter_map(|(file, (len, modified, sha))| {
                Some(format!("{len} {modified} {sha} {}", file.to_str()?))
            })
            .collect();
        kept::write(path, "lock-hashes", lines);
    }
}
