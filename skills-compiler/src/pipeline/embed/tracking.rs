//! Rebuild tracking shared by `skills-build` (which sets the marker) and
//! `include_skills!` (which checks it).
//!
//! A proc macro re-expands when a file it embeds with `include_bytes!` changes,
//! but on stable Rust nothing tells Cargo about a *new* or *deleted* file. A
//! build script that prints `cargo::rerun-if-changed=<root>` is re-run on any
//! change under the root; it then sets an environment variable whose value is
//! a stamp of the root's contents, and the changed value makes Cargo rebuild
//! the crate, which re-expands the macro.

use std::path::Path;

/// The variable that carries the stamp of the skills root `dir` (as written
/// in `include_skills!` / `track`, relative to the manifest directory).
pub fn env_name(dir: &Path) -> String {
    let normalized = crate::read::discover::display_path(dir);
    format!("SKILLS_TRACK_{:016X}", fnv1a(normalized.as_bytes()))
}

/// Whether `dir` or one of its ancestors (relative to the manifest directory)
/// is tracked, according to `is_set` (which says whether a variable is set).
pub fn is_tracked(dir: &Path, is_set: impl Fn(&str) -> bool) -> bool {
    dir.ancestors()
        .filter(|ancestor| !ancestor.as_os_str().is_empty() && *ancestor != Path::new("."))
        .any(|ancestor| is_set(&env_name(ancestor)))
}

/// How deep the stamp looks below the root: skills are immediate children,
/// and their resource folders rarely go deeper than a few levels.
pub const MAX_STAMP_DEPTH: usize = 16;

/// A stamp of every path, size and modification time under `root`, so that
/// any addition, removal or edit changes it. Symlinks are followed once: a
/// directory already on the way down (a loop) is stamped by name, not
/// entered, and nothing deeper than [`MAX_STAMP_DEPTH`] is read, so a hostile
/// tree cannot hang the build.
pub fn stamp(root: &Path) -> u64 {
    let mut entries = Vec::new();
    let mut walk = Walk {
        root,
        on_the_way: Vec::new(),
        entered: std::collections::HashSet::new(),
        out: &mut entries,
    };
    walk.directory(root, 0);
    entries.sort();
    entries.iter().fold(FNV_OFFSET, |hash, entry| {
        fnv1a_extend(hash, entry.as_bytes())
    })
}

/// The `skills-lock.json` that `locked = true` holds the root `dir`
/// (relative to `manifest_dir`) to, when there is one: the build script
/// tracks it, and its stamp is part of the root's.
pub fn lock_file(manifest_dir: &Path, dir: &Path) -> Option<std::path::PathBuf> {
    crate::lock::check::find(manifest_dir, dir)
}

/// The trust anchors (`trust`) the package's manifest names, relative to
/// `manifest_dir`: the build script tracks them, and their stamps are part
/// of the root's, so that a changed anchor verifies the skills again.
pub fn trust_files(manifest_dir: &Path) -> Vec<std::path::PathBuf> {
    crate::config::Config::load(manifest_dir, crate::config::Overrides::default())
        .map(|config| config.trust)
        .unwrap_or_default()
}

/// [`stamp`] of the root `dir`, extended with the size and modification
/// time of its lock file and of its trust anchors: an edited lock or
/// anchor rebuilds the crate as an edited skill does.
pub fn stamp_with_lock(manifest_dir: &Path, dir: &Path) -> u64 {
    let root = stamp(&manifest_dir.join(dir));
    let watched = lock_file(manifest_dir, dir)
        .into_iter()
        .chain(trust_files(manifest_dir));
    watched.fold(root, |stamp, file| {
        let Ok(metadata) = std::fs::metadata(manifest_dir.join(&file)) else {
            return fnv1a_extend(stamp, b"\0missing");
        };
        let modified = metadata
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        fnv1a_extend(
            stamp,
            format!("\0{}\0{}\0{modified}", file.display(), metadata.len()).as_bytes(),
        )
    })
}

/// The build.rs a crate using `include_skills!(dir)` needs.
pub fn build_rs_for(dir: &Path) -> String {
    format!(
        "fn main() {{\n    skills_build::track(\"{}\");\n}}\n",
        crate::read::discover::display_path(dir)
    )
}

struct Walk<'a> {
    root: &'a Path,
    /// Canonical paths of the directories being walked, root first.
    on_the_way: Vec<std::path::PathBuf>,
    /// Every directory entered: one reached again through another link is
    /// stamped by name, not walked again (links fanning out to the same
    /// folders made the walk exponential).
    entered: std::collections::HashSet<std::path::PathBuf>,
    out: &'a mut Vec<String>,
}

/// How many entries the stamp records at most: past that, a marker, and
/// the walk stops (a hostile tree cannot make the build script run long).
const MAX_STAMP_ENTRIES: usize = 200_000;

impl Walk<'_> {
    fn directory(&mut self, dir: &Path, depth: usize) {
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if self.out.len() >= MAX_STAMP_ENTRIES {
            return;
        }
        if self.on_the_way.contains(&canonical)
            || depth > MAX_STAMP_DEPTH
            || !self.entered.insert(canonical.clone())
        {
            let relative = self.relative(dir);
            self.out.push(format!("{relative}/\0not followed"));
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        self.on_the_way.push(canonical);
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(metadata) = std::fs::metadata(&path) else {
                continue;
            };
            let relative = self.relative(&path);
            if metadata.is_dir() {
                self.out.push(format!("{relative}/"));
                self.directory(&path, depth + 1);
            } else {
                let modified = metadata
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                self.out
                    .push(format!("{relative}\0{}\0{modified}", metadata.len()));
            }
        }
        self.on_the_way.pop();
    }

    fn relative(&self, path: &Path) -> String {
        path.strip_prefix(self.root)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_extend(FNV_OFFSET, bytes)
}

fn fnv1a_extend(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Where a package of this project comes from, as a dependency line of a
/// user's Cargo.toml: what `cargo skills new` writes and what the macro's
/// help suggests, so that both name a line that resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A checkout of this repository (a clone, or cargo's git checkout):
    /// the package's folder in it, absolute.
    Path(std::path::PathBuf),
    /// Published: this version, exactly as the caller was built.
    Version(String),
}

impl Source {
    /// The source of `package`, found from `own_dir`, the manifest
    /// directory of a member of this workspace as it was built (its
    /// `env!("CARGO_MANIFEST_DIR")`), and `version`, its version. In a
    /// checkout the members are siblings; unpacked from a registry, each
    /// crate has a folder of its own (`skills-build-0.1.0`), so there is no
    /// sibling and the version is the source.
    pub fn of(package: &str, own_dir: &Path, version: &str) -> Source {
        let folder = match package {
            "skills-runtime" => "skills",
            other => other,
        };
        let sibling = own_dir.parent().map(|parent| parent.join(folder));
        match sibling {
            Some(dir) if is_package_named(&dir, package) => Source::Path(dir),
            _ => Source::Version(version.to_owned()),
        }
    }

    /// The value of the dependency: `{ path = "..." }` or `"0.1.0"`.
    pub fn entry(&self) -> String {
        match self {
            Source::Path(dir) => format!(
                "{{ path = {:?} }}",
                dir.to_string_lossy().replace('\\', "/")
            ),
            Source::Version(version) => format!("{version:?}"),
        }
    }
}

fn is_package_named(dir: &Path, package: &str) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|text| text.contains(&format!("name = \"{package}\"")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symlink_loop_is_stamped_not_followed_forever() {
        let root = std::env::temp_dir().join(format!("skills-stamp-loop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a/deep")).unwrap();
        std::fs::write(root.join("a/SKILL.md"), "x").unwrap();
        // Two loops: to the parent and to the root.
        std::os::unix::fs::symlink("..", root.join("a/deep/up")).unwrap();
        std::os::unix::fs::symlink(&root, root.join("a/root")).unwrap();
        let first = stamp(&root);
        assert_eq!(first, stamp(&root), "deterministic");
        std::fs::write(root.join("a/deep/new.md"), "y").unwrap();
        assert_ne!(first, stamp(&root), "a new file still changes the stamp");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        // The runtime's copy (skills::SkillSet::get) is checked against the same vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn env_names_depend_on_the_normalised_directory_only() {
        assert_eq!(
            env_name(Path::new("skills")),
            env_name(Path::new("./skills"))
        );
        assert_ne!(env_name(Path::new("skills")), env_name(Path::new("other")));
    }

    #[test]
    fn a_tracked_ancestor_covers_its_subdirectories() {
        let tracked = env_name(Path::new("fixtures"));
        let is_set = |name: &str| name == tracked;
        assert!(is_tracked(Path::new("fixtures"), is_set));
        assert!(is_tracked(Path::new("fixtures/codegen"), is_set));
        assert!(!is_tracked(Path::new("skills"), is_set));
        assert!(!is_tracked(Path::new("../fixtures"), is_set));
    }

    #[test]
    fn the_stamp_changes_when_a_file_is_added_edited_or_removed() {
        let root = std::env::temp_dir().join(format!("skills-stamp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::write(root.join("a/SKILL.md"), "one").unwrap();
        let first = stamp(&root);
        assert_eq!(first, stamp(&root));
        std::fs::create_dir_all(root.join("b")).unwrap();
        std::fs::write(root.join("b/SKILL.md"), "two").unwrap();
        let added = stamp(&root);
        assert_ne!(added, first);
        std::fs::write(root.join("b/SKILL.md"), "three").unwrap();
        let edited = stamp(&root);
        assert_ne!(edited, added);
        std::fs::remove_dir_all(root.join("b")).unwrap();
        assert_ne!(stamp(&root), edited);
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[cfg(test)]
mod source_tests {
    use super::Source;

    #[test]
    fn a_checkout_names_the_sibling_folder_and_a_registry_the_version() {
        let root = std::env::temp_dir().join(format!("skills-source-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        // A checkout: members side by side.
        let checkout = root.join("clone");
        for (folder, name) in [
            ("skills", "skills-runtime"),
            ("skills-build", "skills-build"),
        ] {
            std::fs::create_dir_all(checkout.join(folder)).unwrap();
            std::fs::write(
                checkout.join(folder).join("Cargo.toml"),
                format!("[package]\nname = \"{name}\"\n"),
            )
            .unwrap();
        }
        let own = checkout.join("skills-macros");
        assert_eq!(
            Source::of("skills-build", &own, "0.1.0"),
            Source::Path(checkout.join("skills-build"))
        );
        assert_eq!(
            Source::of("skills-runtime", &own, "0.1.0"),
            Source::Path(checkout.join("skills"))
        );
        // A registry: one folder per crate and version, no sibling.
        let registry = root.join("index.crates.io-xyz");
        std::fs::create_dir_all(registry.join("skills-macros-0.1.0")).unwrap();
        let own = registry.join("skills-macros-0.1.0");
        let source = Source::of("skills-build", &own, "0.1.0");
        assert_eq!(source, Source::Version("0.1.0".into()));
        assert_eq!(source.entry(), "\"0.1.0\"");
        assert_eq!(
            Source::Path("/src/skills-build".into()).entry(),
            "{ path = \"/src/skills-build\" }"
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
