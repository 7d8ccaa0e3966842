//! The expansion of `include_skills!`, made ahead by the build script that
//! tracks the skills (`skills_build::track`) and read back by the macro.
//!
//! rustc expands a proc macro again on every build of its crate, even when
//! only `main.rs` changed, and in debug builds the macro's compiler runs
//! unoptimised: compiling 64 skills took 70 ms of a 500 ms rebuild, parsing
//! the stored tokens back 20 ms (BENCHMARKS.md). Cargo re-runs the build
//! script exactly when something under the skills root, the manifest or the
//! compiler itself changes, so the stored expansion is made once per change.
//!
//! The macro uses a stored expansion only when its header matches what the
//! macro has in hand: this compiler's version, the configuration (the
//! manifest's, with the macro's options over it) and the stamp of the root
//! (every path, size and modification time, with the lock's and the trust
//! anchors': [`tracking::stamp_with_lock`]). Anything
//! else, a missing file included, means compiling as before. Only an
//! expansion without any diagnostic is stored: a warning must point at the
//! macro's argument, which the build script cannot see.

use std::io;
use std::path::{Path, PathBuf};

use super::tracking;
use crate::config::Config;
use crate::emit::codegen;
use crate::pipeline::Compilation;

/// Where the expansion of the root `dir` is stored under `out_dir`.
pub fn path(out_dir: &Path, dir: &Path) -> PathBuf {
    out_dir
        .join("include_skills")
        .join(format!("{}.rs", tracking::env_name(dir)))
}

/// What a stored expansion was made from.
fn header(config: &Config, stamp: u64) -> String {
    format!(
        "// include_skills! expansion, stored by skills_build::track\n// skills-compiler {}\n// {config:?}\n// stamp {stamp:016x}\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// Stores the expansion of `compilation`, made from a root whose stamp was
/// `stamp` before it was read, or removes the stored one when the
/// compilation has any diagnostic.
pub fn store(
    out_dir: &Path,
    config: &Config,
    stamp: u64,
    compilation: &Compilation,
) -> io::Result<()> {
    let file = path(out_dir, &config.dir);
    if !compilation.diagnostics.is_empty() {
        return match std::fs::remove_file(&file) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        };
    }
    // All but the import of the runtime, which names it by a path (`$crate`
    // through `skills::include_skills!`) that text cannot spell: the macro
    // puts its own in front (`codegen::with_runtime_import`).
    let items = codegen::items(&compilation.valid);
    let text = format!("{}{items}\n", header(config, stamp));
    std::fs::create_dir_all(file.parent().unwrap_or(out_dir))?;
    // Written aside and renamed, so that a reader never sees half a file.
    let partial = file.with_extension("rs.partial");
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, &file)
}

/// The stored expansion's tokens, as text, when it was made from exactly
/// `config` and a root at `manifest_dir` that is unchanged since.
pub fn load(out_dir: &Path, manifest_dir: &Path, config: &Config) -> Option<String> {
    let text = std::fs::read_to_string(path(out_dir, &config.dir)).ok()?;
    // The stamp the build script stored with: the root's, the lock's and
    // the trust anchors' (a locked or signed crate compiled every time
    // when the root's alone was compared).
    let stamp = tracking::stamp_with_lock(manifest_dir, &config.dir);
    text.strip_prefix(&header(config, stamp)).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn example() -> (PathBuf, Config, Compilation) {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker");
        let config = Config {
            dir: PathBuf::from("skills"),
            ..Config::default()
        };
        let compilation = crate::pipeline::compile(&base, &config);
        assert!(compilation.diagnostics.is_empty(), "{compilation:?}");
        (base, config, compilation)
    }

    fn out_dir(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "skills-expansion-cache-{test}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_stored_expansion_reads_back_as_the_expansion_itself() {
        let (base, config, compilation) = example();
        let out = out_dir("same");
        let stamp = tracking::stamp(&base.join(&config.dir));
        store(&out, &config, stamp, &compilation).unwrap();
        let text = load(&out, &base, &config).expect("stored and unchanged");
        let krate = quote!(::skills);
        let stored: proc_macro2::TokenStream = text.parse().unwrap();
        let fresh = codegen::expand(&compilation.valid, &krate);
        assert_eq!(
            codegen::with_runtime_import(&krate, stored).to_string(),
            fresh.to_string()
        );
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn another_configuration_or_root_finds_nothing() {
        let (base, config, compilation) = example();
        let out = out_dir("other");
        // Stored before an edit: the stamp the root has now differs.
        store(&out, &config, 0, &compilation).unwrap();
        assert_eq!(load(&out, &base, &config), None);
        let stamp = tracking::stamp(&base.join(&config.dir));
        store(&out, &config, stamp, &compilation).unwrap();
        let strict = Config {
            deny_warnings: true,
            ..config.clone()
        };
        assert_eq!(load(&out, &base, &strict), None, "another configuration");
        let elsewhere = Config {
            dir: PathBuf::from("other"),
            ..config.clone()
        };
        assert_eq!(load(&out, &base, &elsewhere), None, "another root");
        assert!(load(&out, &base, &config).is_some());
        let _ = std::fs::remove_dir_all(&out);
    }

    /// Cargo's `rerun-if-changed` does not see an edit behind a symlink
    /// that leaves the root; the macro's own stamp follows it.
    #[cfg(unix)]
    #[test]
    fn an_edit_behind_a_symlink_out_of_the_root_is_a_miss() {
        let (_, config, compilation) = example();
        let base = out_dir("symlink-base");
        let outside = out_dir("symlink-outside");
        std::fs::create_dir_all(base.join("skills/alpha")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("notes.md"), "first").unwrap();
        std::os::unix::fs::symlink(outside.join("notes.md"), base.join("skills/alpha/notes.md"))
            .unwrap();
        let out = out_dir("symlink-out");
        let stamp = tracking::stamp(&base.join(&config.dir));
        store(&out, &config, stamp, &compilation).unwrap();
        assert!(load(&out, &base, &config).is_some());
        std::fs::write(outside.join("notes.md"), "edited, longer").unwrap();
        assert_eq!(load(&out, &base, &config), None);
        for dir in [base, outside, out] {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    #[test]
    fn a_compilation_with_diagnostics_removes_what_was_stored() {
        let (base, config, mut compilation) = example();
        let out = out_dir("diagnostics");
        let stamp = tracking::stamp(&base.join(&config.dir));
        store(&out, &config, stamp, &compilation).unwrap();
        compilation.diagnostics.push(crate::Diagnostic::warning(
            crate::Code::DirectoryWithoutSkill,
            "skills/empty",
            "a warning",
        ));
        store(&out, &config, stamp, &compilation).unwrap();
        assert!(!path(&out, &config.dir).exists());
        assert_eq!(load(&out, &base, &config), None);
        let _ = std::fs::remove_dir_all(&out);
    }
}
