//! A package's Rust sources read for the skills roots they name: one walk
//! of `src/` (and `build.rs`) for every front end that asks which roots a
//! package compiles (`cargo skills`'s target selection, `new`, vendoring).

use std::path::{Path, PathBuf};

use crate::config::Overrides;
use crate::read::invocation::Invocation;

/// How deep `src/` is walked: module trees are shallow, and a bound keeps
/// a symlink loop finite.
const MAX_DEPTH: usize = 16;

/// A skills root that a package's sources name, with the options the
/// call gives it (none for the build script's calls).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedRoot {
    /// The root, as the call writes it (relative to the package).
    pub(crate) dir: PathBuf,
    /// `include_skills!`'s options, read as the macro reads them
    /// ([`Invocation`]): a front end checks the root with the options the
    /// build compiles it with.
    pub(crate) overrides: Overrides,
}

/// The text of the package's `build.rs` and of every `.rs` file under its
/// `src/`, as far as they read.
fn source_texts(package_dir: &Path) -> Vec<String> {
    let mut files = vec![package_dir.join("build.rs")];
    rust_files(&package_dir.join("src"), &mut files, 0);
    files
        .iter()
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && depth < MAX_DEPTH {
            rust_files(&path, out, depth + 1);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether a file under the package's `src/` invokes `include_skills!`.
pub(crate) fn uses_the_macro(package_dir: &Path) -> bool {
    let mut files = Vec::new();
    rust_files(&package_dir.join("src"), &mut files, 0);
    files
        .iter()
        .any(|file| std::fs::read_to_string(file).is_ok_and(|t| t.contains("include_skills!")))
}

/// The skills roots that a package's sources name with a literal path:
/// `include_skills!("dir"...)` in `src/` (with its options), and
/// `skills_build::compile("dir")` or `skills_build::track("dir")` in
/// `build.rs`. Sorted, without duplicates (a root named twice with other
/// options is two roots).
pub(crate) fn roots_named_in_sources(package_dir: &Path) -> Vec<NamedRoot> {
    let texts = source_texts(package_dir);
    let mut roots: Vec<NamedRoot> = texts
        .iter()
        .flat_map(|text| Invocation::in_source(text))
        .map(|invocation| NamedRoot {
            dir: PathBuf::from(invocation.dir.value()),
            overrides: Overrides {
                dir: None,
                ..invocation.overrides
            },
        })
        .collect();
    roots.extend(
        texts
            .iter()
            .map(|text| without_line_comments(text))
            .flat_map(|text| {
                ["skills_build::compile(", "skills_build::track("]
                    .iter()
                    .flat_map(|call| literals_after(&text, call))
                    .collect::<Vec<_>>()
            })
            .map(|dir| NamedRoot {
                dir: PathBuf::from(dir),
                overrides: Overrides::default(),
            }),
    );
    roots.sort_by(|a, b| a.dir.cmp(&b.dir));
    // A build script's `track` of a root the macro compiles names the
    // same root: the macro's options are the ones it is compiled with.
    let mut kept: Vec<NamedRoot> = Vec::new();
    for root in roots {
        match kept.iter_mut().find(|k| k.dir == root.dir) {
            Some(same) if same.overrides == Overrides::default() => *same = root,
            Some(same)
                if root.overrides == Overrides::default() || same.overrides == root.overrides => {}
            _ => kept.push(root),
        }
    }
    kept
}

/// `text` without `//` comment lines (doc comments show calls that are not made).
fn without_line_comments(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The string literal that opens the arguments after each `call` in `text`.
fn literals_after(text: &str, call: &str) -> Vec<String> {
    text.match_indices(call)
        .filter_map(|(at, _)| {
            let rest = text[at + call.len()..].trim_start();
            let rest = rest.strip_prefix('"')?;
            let end = rest.find('"')?;
            let literal = &rest[..end];
            (!literal.contains('\\')).then(|| literal.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_macros_options_win_over_the_build_scripts_track_of_one_root() {
        let dir = std::env::temp_dir().join(format!("skills-sources-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/agent")).unwrap();
        std::fs::write(
            dir.join("build.rs"),
            "// skills_build::compile(\"commented\");\nfn main() { skills_build::track(\"skills\"); skills_build::compile(\"more\"); }\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("src/agent/mod.rs"),
            "skills::include_skills!(\"skills\", profile = \"portable\");\n",
        )
        .unwrap();
        let roots = roots_named_in_sources(&dir);
        let dirs: Vec<&Path> = roots.iter().map(|r| r.dir.as_path()).collect();
        assert_eq!(dirs, [Path::new("more"), Path::new("skills")]);
        assert_eq!(roots[1].overrides.profile, Some(crate::Profile::Portable));
        assert!(uses_the_macro(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
