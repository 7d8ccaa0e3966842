//! `build.rs` front end of the skills compiler.
//!
//! [`track`] is for crates that use `include_skills!`: a proc macro re-expands
//! when an embedded file changes, but on stable Rust it cannot see a *new* or
//! *deleted* file. `track` makes Cargo re-run the build script when anything
//! under the skills root changes, and hands the compiler a stamp of the
//! root's contents, so the crate (and the macro) is rebuilt.
//!
//! In `build.rs`:
//!
//! ```no_run
//! skills_build::track("skills");
//! ```

use std::path::{Path, PathBuf};

use skills_compiler::tracking;

/// Prints the `cargo::` lines that rebuild the crate when a skill is added,
/// edited or removed under `dir` (relative to the crate's manifest directory),
/// or when the manifest changes; `include_skills!(dir)` checks for them.
pub fn track(dir: impl AsRef<Path>) {
    for line in track_lines(&manifest_dir(), dir.as_ref()) {
        println!("{line}");
    }
}

fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from)
}

/// The lines [`track`] prints, for a crate at `manifest_dir`.
pub fn track_lines(manifest_dir: &Path, dir: &Path) -> Vec<String> {
    let stamp = tracking::stamp(&manifest_dir.join(dir));
    vec![
        format!("cargo::rerun-if-changed={}", dir.display()),
        "cargo::rerun-if-changed=Cargo.toml".to_owned(),
        format!("cargo::rustc-env={}={stamp:016x}", tracking::env_name(dir)),
    ]
}
