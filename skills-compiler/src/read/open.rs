//! Opening a file of a skill to read it, without ever blocking on it.

use std::fs;
use std::path::Path;

/// Opens `path` to read it, refusing what is not a regular file before any
/// read: opening a named pipe blocks until a writer comes (forever, in
/// `check`, the macro or the loader), and a device can stream without end.
/// On Unix the file is opened without blocking, then `fstat` says what it is
/// (through a link too); a regular file reads the same either way.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if file.metadata()?.is_file() {
        Ok(file)
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a named pipe, socket or device), so it is not read",
        ))
    }
}
