//! The compiler's folders follow its pipeline: each module imports only from
//! the modules its row below allows, so there is no cycle between them and no
//! import that runs back up the pipeline. A new `crate::` path in `src/`
//! that breaks the order fails here, with the file and the path.
//!
//! Read from the source text: every `crate::<module>` path outside a
//! `#[cfg(test)]` module (tests may reach anywhere).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use support::rust_files;

/// Each top-level module (a folder or a file of `src/`) and what it may
/// import; `root` is `lib.rs` itself (the crate's face), which declares
/// the wings but takes nothing from them. Rebuild tracking and the macro's
/// stored expansion are the pipeline's (`pipeline/embed/`).
const ALLOWED: &[(&str, &[&str])] = &[
    // Beside the pipeline, at the bottom: no stage below them.
    ("diagnostics", &[]),
    ("parallel", &[]),
    ("config", &["diagnostics"]),
    // The pipeline, in order.
    ("read", &["diagnostics", "config", "parallel"]),
    ("ir", &["read"]),
    // The budget's host figures say what S108's help says each host does.
    (
        "validate",
        &["read", "ir", "budget", "diagnostics", "config"],
    ),
    ("budget", &["ir", "config"]),
    (
        "lint",
        &["read", "ir", "validate", "budget", "diagnostics", "config"],
    ),
    (
        "emit",
        &[
            "read",
            "ir",
            "validate",
            "diagnostics",
            "config",
            "parallel",
        ],
    ),
    // Wings over the whole pipeline, which nothing in it imports.
    // The lock (`skills-lock.json`): what a skill folder holds, hashed as
    // Vercel's CLI does, and whether it still matches.
    ("lock", &["read", "diagnostics", "config"]),
    // Vendoring: skills fetched into a root, checked with the whole
    // pipeline before they are written, and locked.
    (
        "vendoring",
        &[
            "pipeline",
            "read",
            "validate",
            "lock",
            "write",
            "diagnostics",
            "config",
            "signing",
        ],
    ),
    // Trigger tests: valid skills as a host lists them, routed, judged.
    (
        "routing",
        &["read", "ir", "lint", "budget", "diagnostics", "config"],
    ),
    // Signed skills: a publisher's signature over a skill folder, its
    // files walked as the lock walks them.
    ("signing", &["read", "diagnostics", "lock"]),
    (
        "write",
        &[
            "pipeline",
            "read",
            "ir",
            "validate",
            "lint",
            "emit",
            "diagnostics",
            "config",
        ],
    ),
    // The pipeline that runs the stages: what `compile` and its siblings do.
    (
        "pipeline",
        &[
            "read",
            "ir",
            "validate",
            "lint",
            "emit",
            "budget",
            "config",
            "parallel",
            "diagnostics",
            "lock",
            "signing",
        ],
    ),
    // The operations front ends run, above the pipeline and every wing:
    // they pick targets, plan with the stages and the wings, and write.
    (
        "ops",
        &[
            "pipeline",
            "read",
            "ir",
            "emit",
            "budget",
            "routing",
            "vendoring",
            "lock",
            "signing",
            "write",
            "diagnostics",
            "config",
            "parallel",
        ],
    ),
    // `lib.rs`: the crate's face. It declares the modules and hands on their
    // items; it defines nothing.
    (
        "root",
        &[
            "pipeline",
            "read",
            "ir",
            "validate",
            "lint",
            "emit",
            "budget",
            "config",
            "parallel",
            "diagnostics",
            "lock",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level module a file of `src/` belongs to.
fn module_of(relative: &Path) -> String {
    let first = relative.components().next().unwrap();
    let name = first.as_os_str().to_string_lossy();
    match name.strip_suffix(".rs") {
        Some("lib") => "root".to_owned(),
        Some(stem) => stem.to_owned(),
        None => name.into_owned(),
    }
}

/// The modules named by `crate::<module>` paths (and `crate::{a, b}`), and
/// `root` for items of `lib.rs`, outside test modules and comments.
fn imports(text: &str, modules: &BTreeSet<&str>) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group
                    .split([',', '}'])
                    .map(|name| name.trim().split("::").next().unwrap_or_default())
                    .collect(),
                None => vec![
                    rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or_default(),
                ],
            };
            for name in names.into_iter().filter(|name| !name.is_empty()) {
                if modules.contains(name) {
                    found.insert(name.to_owned());
                } else if name.chars().next().is_some_and(char::is_lowercase)
                    || name.chars().next().is_some_and(char::is_uppercase)
                {
                    // `crate::compile_one`, `crate::Config`: an item of lib.rs.
                    found.insert("root".to_owned());
                }
            }
        }
    }
    found
}

#[test]
fn every_module_imports_only_from_the_stages_before_it() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let modules: BTreeSet<&str> = allowed.keys().copied().filter(|m| *m != "root").collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(src()).unwrap();
        let module = module_of(relative);
        let Some(may) = allowed.get(module.as_str()) else {
            broken.push(format!(
                "{}: module `{module}` has no row in ALLOWED: say where it sits in the pipeline",
                relative.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for import in imports(&text, &modules) {
            if import != module && !may.contains(&import.as_str()) {
                broken.push(format!(
                    "{}: `{module}` imports `crate::{import}`, which it may not (it may: {})",
                    relative.display(),
                    may.join(", ")
                ));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_allowed_imports_have_no_cycle() {
    // Depth-first over ALLOWED: a module on the current path seen again is a cycle.
    fn visit<'a>(
        module: &'a str,
        allowed: &BTreeMap<&'a str, &'a [&'a str]>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        assert!(!path.contains(&module), "cycle: {path:?} -> {module}");
        if done.contains(module) {
            return;
        }
        path.push(module);
        for next in allowed.get(module).copied().unwrap_or_default() {
            visit(next, allowed, path, done);
        }
        path.pop();
        done.insert(module);
    }
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut done = BTreeSet::new();
    for module in allowed.keys() {
        visit(module, &allowed, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_reader_sees_imports_as_written() {
    let modules: BTreeSet<&str> = ["read", "ir", "diagnostics"].into();
    let text = "use crate::read::discover::SkillFiles;\n\
                use crate::{ir, diagnostics::Code};\n\
                // crate::emit in a comment\n\
                fn f() { crate::compile_one(); }\n\
                #[cfg(test)]\nmod tests { use crate::emit; }\n";
    let found: Vec<String> = imports(text, &modules).into_iter().collect();
    assert_eq!(found, ["diagnostics", "ir", "read", "root"]);
}

/// `read` hands `validate` a parsed document (`read::document`), as
/// serde_derive's `ast` hands its `check` a tree: validation judges nodes
/// with spans and reads no file's text into one. It still parses the small
/// languages inside values it judges (URL templates, patterns); a call to
/// a file's reader (decoding, fences, YAML, `lenient`'s repair) fails here.
#[test]
fn validate_judges_a_read_document_and_parses_no_file() {
    const READERS: &[&str] = &[
        "yaml::parse(",
        "frontmatter::",
        "read::lenient",
        "saphyr",
        "read_to_string(",
        "fs::read(",
    ];
    let mut files = Vec::new();
    rust_files(&src().join("validate"), &mut files);
    assert!(files.len() > 10, "validate's files were not found");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for reader in READERS.iter().filter(|reader| line.contains(*reader)) {
                found.push(format!(
                    "{}:{}: calls `{reader}`",
                    file.strip_prefix(src()).unwrap().display(),
                    number + 1
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
