//! Test helpers: skill trees written to real directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use skills_compiler::{Code, Compilation, Config, Diagnostic, compile};

/// A directory of real files under cargo's per-target temporary directory,
/// removed when dropped.
pub struct Tree {
    pub dir: PathBuf,
}

impl Tree {
    pub fn new(files: &[(&str, &[u8])]) -> Tree {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "tree-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let tree = Tree { dir };
        for (path, bytes) in files {
            tree.write(path, bytes);
        }
        tree
    }

    pub fn write(&self, path: &str, bytes: &[u8]) {
        let full = self.dir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }

    pub fn compile(&self, config: &Config) -> Compilation {
        compile(&self.dir, config)
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The description of test skills: it says when to use the skill, so that
/// no lint (W008) adds to what a test expects.
pub const DESCRIPTION: &str = "Does a. Use when testing.";

/// A SKILL.md for directory `a` with `extra` frontmatter lines from line 4 on.
pub fn with(extra: &str) -> String {
    format!("---\nname: a\ndescription: {DESCRIPTION}\n{extra}---\nBody\n")
}

/// `count` skills in memory, `s0` to `s{count - 1}`, all with one description.
pub fn copies(count: usize) -> Vec<skills_compiler::SkillFiles> {
    (0..count)
        .map(|i| skills_compiler::SkillFiles {
            dir: None,
            path: format!("skills/s{i}/SKILL.md"),
            directory: format!("s{i}"),
            bytes: format!(
                "---\nname: s{i}\ndescription: Merge PDF files. Use when asked.\n---\nB\n"
            )
            .into_bytes(),
            tools_yaml: None,
        })
        .collect()
}

/// Compiles one skill at `skills/a/SKILL.md`.
pub fn one(text: &str, config: &Config) -> Compilation {
    Tree::new(&[("skills/a/SKILL.md", text.as_bytes())]).compile(config)
}

/// The diagnostics of `compilation` as `(code, line, column)`.
pub fn located(compilation: &Compilation) -> Vec<(Code, Option<u32>, Option<u32>)> {
    compilation
        .diagnostics
        .iter()
        .map(|d| (d.code, d.line(), d.column()))
        .collect()
}

/// The first diagnostic with `code`, or a panic listing what was found.
pub fn find(compilation: &Compilation, code: Code) -> &Diagnostic {
    compilation
        .diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code}; found {:#?}", located(compilation)))
}

pub fn portable() -> Config {
    Config {
        profile: skills_compiler::Profile::Portable,
        ..Config::default()
    }
}

pub fn lenient() -> Config {
    Config {
        profile: skills_compiler::Profile::Lenient,
        ..Config::default()
    }
}

/// Every `.rs` file under `dir`, in sorted order: what the layering tests
/// read.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The root `config.dir` (relative to `base`) as `discover` reads it whole
/// and `compile_files` checks it: the order `compile` had before it
/// checked each entry as it read it, held against it by tests.
pub fn discovered_then_checked(base: &Path, config: &Config) -> Compilation {
    let mut problems = Vec::new();
    let files = skills_compiler::discover(base, config, &mut problems);
    let mut compilation = skills_compiler::compile_files(files, config);
    compilation.diagnostics.extend(problems);
    skills_compiler::diagnostics::sort(&mut compilation.diagnostics);
    compilation
}
