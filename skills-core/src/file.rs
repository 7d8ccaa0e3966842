//! The files of a skill besides SKILL.md (`references/`, `scripts/`,
//! `assets/`, ...), compiled in or loaded with it, and written back out.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::Str;

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
#[derive(Clone)]
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
    pub sha256: OnceLock<String>,
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
            sha256: OnceLock::new(),
        }
    }
}

/// Two files are equal when their path, bytes, execute bit and MIME type
/// are: whether a digest was made yet does not count.
impl PartialEq for File {
    fn eq(&self, other: &File) -> bool {
        self.path == other.path
            && self.executable == other.executable
            && self.mime == other.mime
            && self.bytes == other.bytes
    }
}

impl Eq for File {}

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

/// What [`Skill::write_to`](crate::Skill::write_to) does with a file that is
/// already there and differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Existing {
    /// Refuse: nothing of the host's is overwritten unless it asks.
    #[default]
    Keep,
    /// Write over it.
    Replace,
}

/// Writes `bytes` to `dir/path`, creating folders, after checking `path`
/// stays inside `dir`. An identical file is left alone; a different one is
/// replaced only when `existing` says so.
pub(crate) fn write_file(
    dir: &Path,
    path: &str,
    bytes: &[u8],
    executable: bool,
    existing: Existing,
) -> io::Result<()> {
    if !is_file_path(path) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{path}` is not a relative path inside the skill directory"),
        ));
    }
    let target: PathBuf = path.split('/').fold(dir.to_path_buf(), |p, c| p.join(c));
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
        refuse_links_out(dir, parent)?;
    }
    match std::fs::symlink_metadata(&target) {
        Ok(metadata) if metadata.file_type().is_symlink() || !metadata.is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("`{}` exists and is not a regular file", target.display()),
            ));
        }
        Ok(_) => {
            if std::fs::read(&target)? == bytes {
                return set_executable(&target, executable);
            }
            if existing == Existing::Keep {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "`{}` exists with other content; pass `Existing::Replace` to overwrite it",
                        target.display()
                    ),
                ));
            }
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    replace_atomically(&target, bytes, executable)
}

/// Writes `bytes` beside `target` and renames them over it: an interrupted
/// write (a full disk, a size limit, a crash) leaves the old file whole,
/// never a cut one; and the file is a new one, so another hard link to the
/// old file keeps the old bytes.
fn replace_atomically(target: &Path, bytes: &[u8], executable: bool) -> io::Result<()> {
    use std::io::Write;
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = target.with_file_name(format!(
        ".{name}.skills-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        set_executable(&temporary, executable)?;
        std::fs::rename(&temporary, target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// A folder on the way that is a link could lead the write anywhere.
fn refuse_links_out(dir: &Path, parent: &Path) -> io::Result<()> {
    let root = std::fs::canonicalize(dir)?;
    if std::fs::canonicalize(parent)?.starts_with(&root) {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "`{}` leads outside `{}` through a symlink",
                parent.display(),
                dir.display()
            ),
        ))
    }
}

#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path)?.permissions();
    let mode = permissions.mode();
    let wanted = if executable {
        // The reader's bits follow: whoever may read it may run it.
        mode | 0o100 | ((mode & 0o044) >> 2)
    } else {
        mode & !0o111
    };
    if wanted != mode {
        permissions.set_mode(wanted);
        std::fs::set_permissions(path, permissions)?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_executable(_: &Path, _: bool) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replaced file is a new file renamed into place, not the old one
    /// cut and rewritten: a hard link to the old one keeps its bytes, and
    /// no temporary file is left beside it.
    #[test]
    fn a_replaced_file_is_written_beside_and_renamed_over() {
        let dir = std::env::temp_dir().join(format!("skills-core-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.md"), "old").unwrap();
        std::fs::hard_link(dir.join("notes.md"), dir.join("link.md")).unwrap();
        write_file(&dir, "notes.md", b"new", false, Existing::Replace).unwrap();
        assert_eq!(std::fs::read(dir.join("notes.md")).unwrap(), b"new");
        assert_eq!(std::fs::read(dir.join("link.md")).unwrap(), b"old");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["link.md", "notes.md"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

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
