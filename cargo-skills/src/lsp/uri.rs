//! The protocol's `file:` URIs and the paths diagnostics name.

use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// The path of a `file:` URI.
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The file's own path as diagnostics name it.
pub fn same_file(diagnostic_file: &str, path: &Path) -> bool {
    Path::new(diagnostic_file) == path
}
