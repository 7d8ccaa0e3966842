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

impl HashCache {
    /// A cache that keeps nothing.
    pub fn none() -> HashCache {
        HashCache::default()
    }

    /// The cache kept in `dir` (a build's `OUT_DIR`), as far as it reads.
    pub fn in_dir(dir: &Path) -> HashCache {
        let kept_at = dir.join(FILE);
        let mut known = HashMap::new();
        if let Ok(text) = std::fs::read_to_string(&kept_at) {
            for line in text.lines() {
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
        }
        HashCache {
            known,
            kept_at: Some(kept_at),
            changed: false,
        }
    }

    /// The cache of the build this runs in: `OUT_DIR`'s, when it is set.
    pub fn of_build() -> HashCache {
        match std::env::var_os("OUT_DIR") {
            Some(dir) => HashCache::in_dir(Path::new(&dir)),
            None => HashCache::none(),
        }
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
        let mut lines: Vec<String> = self
            .known
            .iter()
            .filter_map(|(file, (len, modified, sha))| {
                Some(format!("{len} {modified} {sha} {}", file.to_str()?))
            })
            .collect();
        lines.sort();
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => std::path::Path::new("."),
        };
        let Ok((temporary, mut file)) = skills_core::temporary_file(dir, "lock-hashes") else {
            return;
        };
        if std::io::Write::write_all(&mut file, lines.join("\n").as_bytes()).is_ok() {
            let _ = std::fs::rename(&temporary, path);
        } else {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}
