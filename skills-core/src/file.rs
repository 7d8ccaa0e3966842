//! The files of a skill besides SKILL.md (`references/`, `scripts/`,
//! `assets/`, ...), compiled in or loaded with it, and written back out.

use crate::tables::{Memo, Str};

/// Bytes in the tables: borrowed from the binary (`include_bytes!`) for
/// compiled skills, owned for loaded ones.
pub type Bytes = std::borrow::Cow<'static, [u8]>;

/// One file of a skill, as it is on disk: its path relative to the skill
/// directory (`/`-separated, never `..` or absolute), its bytes, its
/// execute bit and its MIME type (by extension, decided at build time).
///
/// ```
/// # use std::borrow::Cow::Borrowed as B;
/// let file = skills_core::File::new(
///     B("scripts/run.sh"),
///     B(b"#!/bin/sh\necho hi\n"),
///     true,
///     Some(B("application/x-sh")),
/// );
/// assert_eq!(file.text(), Some("#!/bin/sh\necho hi\n"));
/// assert!(file.is_executable());
/// assert_eq!(file.sha256_hex().len(), 64);
/// ```
/// Two files are equal when their path, bytes, execute bit and MIME type
/// are: whether a digest was made yet does not count ([`Memo`]).
#[derive(Clone, PartialEq, Eq)]
pub struct File {
    #[doc(hidden)]
    pub path: Str,
    #[doc(hidden)]
    pub bytes: Bytes,
    #[doc(hidden)]
    pub executable: bool,
    #[doc(hidden)]
    pub mime: Option<Str>,
    /// The digest, made on first use: hashing every file in the proc macro
    /// (unoptimised in debug builds) cost more than the rest of a rebuild.
    #[doc(hidden)]
    pub sha256: Memo<String>,
}

impl File {
    /// A file with its digest still to make (generated code builds the
    /// same value as a `static`).
    pub const fn new(path: Str, bytes: Bytes, executable: bool, mime: Option<Str>) -> File {
        File {
            path,
            bytes,
            executable,
            mime,
            sha256: Memo::new(),
        }
    }
}

/// The bytes are shown by length: a skill's Debug output stays readable
/// with a 16 MiB font in it.
impl std::fmt::Debug for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("File")
            .field("path", &self.path)
            .field("len", &self.bytes.len())
            .field("executable", &self.executable)
            .field("mime", &self.mime)
            .finish()
    }
}

impl File {
    /// The path relative to the skill directory: `references/api.md`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's bytes, exactly as they were on disk.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The file as text, when it is valid UTF-8 without NUL bytes.
    pub fn text(&self) -> Option<&str> {
        if self.bytes.contains(&0) {
            return None;
        }
        std::str::from_utf8(&self.bytes).ok()
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// SHA-256 of the bytes, lower-case hex; made on first use, then kept.
    pub fn sha256_hex(&self) -> &str {
        self.sha256.get_or_init(|| sha256_hex(&self.bytes))
    }

    /// Whether the owner's execute bit was set on disk (always `false` for
    /// files read where there are no such bits).
    pub fn is_executable(&self) -> bool {
        self.executable
    }

    /// The MIME type by extension (`text/markdown`, `font/ttf`), `None` when
    /// the extension is unknown.
    pub fn mime(&self) -> Option<&str> {
        self.mime.as_deref()
    }

    /// The bytes in standard base64 with padding (RFC 4648), as MCP
    /// resource blobs and model APIs carry binary files.
    pub fn to_base64(&self) -> String {
        base64(&self.bytes)
    }
}

/// SHA-256 of `bytes`, lower-case hex: the digest of every file and skill.
///
/// ```
/// assert_eq!(
///     skills_core::sha256_hex(b"abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    lower_hex(&Sha256::digest(bytes))
}

/// The SHA-256 of the file at `path` as lower-case hex, read in pieces:
/// memory stays the same whatever the file's size.
pub fn sha256_of_file(path: &std::path::Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buffer[..n]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(lower_hex(&hasher.finalize()))
}

/// Bytes as lower-case hex, two digits each: how every digest here is
/// written (sha2 0.11 has no hex of its own).
///
/// ```
/// assert_eq!(skills_core::lower_hex(&[0x0f, 0xa0]), "0fa0");
/// ```
pub fn lower_hex(bytes: &[u8]) -> String {
    let mut hex = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        hex.push(char::from(b"0123456789abcdef"[usize::from(byte >> 4)]));
        hex.push(char::from(b"0123456789abcdef"[usize::from(byte & 15)]));
    }
    hex
}

/// Standard base64 with padding (RFC 4648 section 4).
///
/// ```
/// assert_eq!(skills_core::base64(b"foob"), "Zm9vYg==");
/// ```
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether `path` is one a skill's file can have: relative, `/`-separated,
/// with no empty, `.` or `..` component and no backslash, so that joining it
/// to a directory stays inside that directory on every platform.
///
/// ```
/// use skills_core::is_file_path;
///
/// assert!(is_file_path("references/api.md"));
/// assert!(!is_file_path("../secret"));
/// assert!(!is_file_path("/etc/passwd"));
/// assert!(!is_file_path("a//b"));
/// assert!(!is_file_path("a\\..\\b"));
/// ```
pub fn is_file_path(path: &str) -> bool {
    // `C:` is a drive on Windows, and `a:b` a stream of `a`.
    let forbidden: &[char] = if cfg!(windows) {
        &['\\', '\0', ':']
    } else {
        &['\\', '\0']
    };
    !path.is_empty()
        && !path.contains(forbidden)
        && !path.starts_with('/')
        && path.split('/').all(|part| !matches!(part, "" | "." | ".."))
}

/// A path into a skill directory as a link or a model writes it, in the
/// form [`is_file_path`] accepts: a leading `./` and `.` segments inside
/// (`a/./b`) are dropped, as every host resolves them; `None` for a path
/// that [`is_file_path`] refuses even then (`..`, an absolute path, an
/// empty segment). Borrowed when the path needs nothing.
///
/// ```
/// use skills_core::file_path;
///
/// assert_eq!(file_path("./reference/x.md").as_deref(), Some("reference/x.md"));
/// assert_eq!(file_path("a/./b").as_deref(), Some("a/b"));
/// assert_eq!(file_path("references/api.md").as_deref(), Some("references/api.md"));
/// assert_eq!(file_path("./../secret"), None);
/// assert_eq!(file_path("/etc/passwd"), None);
/// assert_eq!(file_path("."), None);
/// assert_eq!(file_path("references/api.md/."), None);
/// ```
pub fn file_path(path: &str) -> Option<std::borrow::Cow<'_, str>> {
    if is_file_path(path) {
        return Some(std::borrow::Cow::Borrowed(path));
    }
    // `x/.` names a folder, never the file `x`.
    if path.starts_with('/') || path.ends_with("/.") || path.ends_with('/') {
        return None;
    }
    let kept: Vec<&str> = path.split('/').filter(|part| *part != ".").collect();
    let joined = kept.join("/");
    is_file_path(&joined).then_some(std::borrow::Cow::Owned(joined))
}

/// Whether the owner may run the file `metadata` describes: git's test for
/// mode `100755`, and so what [`File::is_executable`] records of a file
/// compiled or loaded. Always `false` where files have no mode.
#[cfg(unix)]
pub fn executable_on_disk(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o100 != 0
}

/// Whether the owner may run the file: never, where files have no mode.
#[cfg(not(unix))]
pub fn executable_on_disk(_: &std::fs::Metadata) -> bool {
    false
}

/// Whether [`Skill::write_to`](crate::Skill::write_to) may overwrite a file
/// that is already there with other bytes (an identical one is always left
/// as it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Overwrite {
    /// Refuse, and write nothing: nothing of the host's is overwritten
    /// unless it asks.
    #[default]
    Refuse,
    /// Write over it.
    Allow,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn file_paths_never_leave_the_directory() {
        for good in ["a", "a/b.md", "é/ü", "a..b", "...x"] {
            assert!(is_file_path(good), "{good}");
        }
        for bad in [
            "", "/a", "a/", "a//b", "./a", "a/./b", "..", "a/../b", "a\\b", "a\0",
        ] {
            assert!(!is_file_path(bad), "{bad:?}");
        }
    }
}
