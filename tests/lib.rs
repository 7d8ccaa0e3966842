//! Helpers for the workspace-level integration tests: small crates written to
//! a temporary directory and built by a real `cargo` against the
//! workspace's crates by path.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_path_buf()
}

/// A crate in a temporary directory, removed when dropped.
pub struct TempCrate {
    pub dir: PathBuf,
}

impl TempCrate {
    /// Writes `files` (paths relative to the crate) under a fresh directory.
    /// `{workspace}` in a file is replaced by the workspace root.
    pub fn new(name: &str, files: &[(&str, &str)]) -> TempCrate {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = workspace().join("target/temp-crates").join(format!(
            "{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let krate = TempCrate { dir };
        for (path, text) in files {
            krate.write(
                path,
                &text.replace("{workspace}", &workspace().to_string_lossy()),
            );
        }
        // Pin dependency versions to the workspace's: the crates the test
        // command already fetched, so no resolution needs the network.
        std::fs::copy(workspace().join("Cargo.lock"), krate.dir.join("Cargo.lock"))
            .expect("copy Cargo.lock");
        krate
    }

    pub fn write(&self, path: &str, text: &str) {
        let full = self.dir.join(path);
        std::fs::create_dir_all(full.parent().expect("a file has a parent"))
            .expect("create directories");
        std::fs::write(full, text).expect("write file");
    }

    pub fn remove(&self, path: &str) {
        let full = self.dir.join(path);
        if full.is_dir() {
            std::fs::remove_dir_all(full).expect("remove directory");
        } else {
            std::fs::remove_file(full).expect("remove file");
        }
    }

    /// Runs cargo in the crate, with a target directory shared by every
    /// temporary crate so that dependencies build once. Not `--offline`: on
    /// a fresh machine with an empty cargo cache, cargo fetches what the
    /// lock file names and an earlier command did not.
    pub fn cargo(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO"))
            .args(args)
            .current_dir(&self.dir)
            .env(
                "CARGO_TARGET_DIR",
                workspace().join("target/temp-crates/target"),
            )
            .env_remove("RUSTFLAGS")
            .output()
            .expect("run cargo")
    }
}

impl TempCrate {
    /// `cargo build`, timed; panics with cargo's output when it fails (benchmarks).
    pub fn timed_build(&self) -> std::time::Duration {
        let start = std::time::Instant::now();
        let output = self.cargo(&["build"]);
        let elapsed = start.elapsed();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        elapsed
    }
}

impl Drop for TempCrate {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A `Cargo.toml` for a temporary crate depending on the workspace's `skills`
/// (under the name `dependency`) and, optionally, `skills-build`.
pub fn manifest(name: &str, dependency: &str, build_dependency: bool) -> String {
    let build = if build_dependency {
        "\n[build-dependencies]\nskills-build = { path = \"{workspace}/skills-build\" }\n"
    } else {
        ""
    };
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{dependency} = {{ package = \"skills-runtime\", path = \"{{workspace}}/skills\" }}\n{build}\n[workspace]\n"
    )
}

/// Percent-decoding (`+` as space when `plus_is_space`), to check that values
/// arrive intact. Panics on malformed escapes: the tests feed it generated URLs.
pub fn percent_decode(text: &str, plus_is_space: bool) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).expect("a valid escape"));
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// Every skill directory (a directory with `SKILL.md`) under `dir`, at any
/// depth, sorted: how the corpus tests and benchmarks find real skills.
pub fn skill_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_skill_dirs(dir, &mut out);
    out
}

fn collect_skill_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries.into_iter().filter(|p| p.is_dir()) {
        if path.join("SKILL.md").is_file() {
            out.push(path.clone());
        }
        collect_skill_dirs(&path, out);
    }
}

/// The crates `cargo tree -p package -e edges` lists with `features`, by
/// name: which crates a package's build or binary pulls in. Not offline: a
/// feature's crates may be ones that `cargo test --workspace` never fetched
/// (on a fresh machine the exact-tokens crates are not there).
pub fn crates_in_tree(package: &str, edges: &str, features: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace())
        .args(["tree", "-p", package, "-e", edges])
        .args(["--prefix", "none", "--format", "{p}"]);
    for feature in features {
        command.args(["--features", feature]);
    }
    let output = command.output().expect("cargo tree runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}
