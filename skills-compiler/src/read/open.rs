//! Opening a file of a skill to read it, without ever blocking on it.

use std::fs;
use std::io::Read;
use std::path::Path;

/// Opens `path` to read it, refusing what is not a regular file before any
/// read: opening a named pipe blocks until a writer comes (forever, in
/// `check`, the macro or the loader), and a device can stream without end.
/// On Unix the file is opened without blocking, then `fstat` says what it is
/// (through a link too); a regular file reads the same either way.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<fs::File> {
    open_regular_with_metadata(path).map(|(file, _)| file)
}

/// [`open_regular`], with what the handle's one `fstat` said of the file.
pub(crate) fn open_regular_with_metadata(path: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if metadata.is_file() {
        Ok((file, metadata))
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a named pipe, socket or device), so it is not read",
        ))
    }
}

/// Fills `bytes` from `file`, whose length was `len` when it was looked
/// at: in one `read` for a regular file (`read_to_end` on a `take` has no
/// size hint: it reads 8 KiB, then doubles, five reads for a 137 KB file).
/// A file that ends sooner changed since it was looked at.
pub(crate) fn fill(file: &mut fs::File, bytes: &mut [u8], len: u64) -> std::io::Result<()> {
    file.read_exact(bytes).map_err(|error| match error.kind() {
        std::io::ErrorKind::UnexpectedEof => changed(len, "fewer now"),
        _ => error,
    })
}

/// The error for a file that was `len` bytes long when it was looked at,
/// and is `now`.
pub(crate) fn changed(len: u64, now: &str) -> std::io::Error {
    std::io::Error::other(format!(
        "it changed while being read ({len} bytes when listed, {now})"
    ))
}

/// What names one file on disk whatever path reaches it: the device and
/// inode on Unix. A file is listed with its identity and read only if the
/// handle opened has the same one, so that a name swapped for a symlink
/// (to a file outside the skill) between listing and reading reads
/// nothing (issue 40, item 16): the check holds for a swapped folder on
/// the way too, which `O_NOFOLLOW` on the last name would not catch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Identity {
    #[cfg(unix)]
    device: u64,
    #[cfg(unix)]
    inode: u64,
}

impl Identity {
    /// The identity of the file `metadata` describes (`None` where the
    /// system has none to give: then only the length is checked).
    pub(crate) fn of(metadata: &fs::Metadata) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Identity {
                device: metadata.dev(),
                inode: metadata.ino(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = metadata;
            None
        }
    }
}

/// [`open_regular`], refusing a file that is not the one listed as
/// `listed`: the handle's own identity is compared, not the path's. With
/// the handle, what its one `fstat` said of the file.
pub(crate) fn open_listed(
    path: &Path,
    listed: Option<Identity>,
) -> std::io::Result<(fs::File, fs::Metadata)> {
    let (file, metadata) = open_regular_with_metadata(path)?;
    if let Some(listed) = listed
        && Identity::of(&metadata) != Some(listed)
    {
        return Err(std::io::Error::other(
            "it was replaced since it was listed (by another file, or a symlink): it is not read",
        ));
    }
    Ok((file, metadata))
}

/// Why [`read_bounded`] read nothing.
#[derive(Debug)]
#[cfg(any(feature = "ops", feature = "signing"))]
pub(crate) enum BoundedError {
    /// It could not be opened or read, or is not a regular file.
    Io(std::io::Error),
    /// It holds more than the limit.
    TooLarge(u64),
}

#[cfg(any(feature = "ops", feature = "signing"))]
impl std::fmt::Display for BoundedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoundedError::Io(error) => write!(f, "{error}"),
            BoundedError::TooLarge(limit) => write!(f, "it holds more than {limit} bytes"),
        }
    }
}

/// Reads the regular file `path` (through a link: whoever named it chose
/// it) whole, refusing one over `limit` bytes. The bytes are counted as
/// they are read, not taken from `stat`: a `/proc` file says it is empty,
/// and a file may grow while it is read. Every path that comes from a
/// manifest, a flag or a skill is read through this or [`open_listed`].
#[cfg(any(feature = "ops", feature = "signing"))]
pub(crate) fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, BoundedError> {
    let (file, metadata) = open_regular_with_metadata(path).map_err(BoundedError::Io)?;
    if metadata.len() > limit {
        return Err(BoundedError::TooLarge(limit));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(BoundedError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(BoundedError::TooLarge(limit));
    }
    Ok(bytes)
}

// `read_bounded` is built for the operations and for signing.
#[cfg(test)]
#[cfg(any(feature = "ops", feature = "signing"))]
mod tests {
    use super::*;

    #[test]
    fn bounded_reads_count_bytes_not_what_stat_says() {
        let dir = std::env::temp_dir().join(format!("skills-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_bounded(&file, 5).unwrap(), b"12345");
        assert!(matches!(
            read_bounded(&file, 4),
            Err(BoundedError::TooLarge(4))
        ));
        #[cfg(target_os = "linux")]
        {
            // `/proc` files say they are empty, and are not: the bytes
            // read are what counts.
            let status = Path::new("/proc/self/status");
            assert_eq!(std::fs::metadata(status).unwrap().len(), 0);
            assert!(matches!(
                read_bounded(status, 10),
                Err(BoundedError::TooLarge(10))
            ));
            assert!(matches!(
                read_bounded(Path::new("/dev/zero"), 1 << 20),
                Err(BoundedError::Io(_))
            ));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
