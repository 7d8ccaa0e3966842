//! No import circle and no import back up at the grain of files, in every
//! crate of the workspace (issue 41, item 3). `layers.rs` orders the
//! compiler's stages; this holds every file to two rules:
//!
//! - **No circle**: the files of a crate, linked by the `crate::`, `super::`
//!   and `self::` paths they use, form no loop.
//! - **No import from a hub**: a file never takes an item from a module that
//!   contains it (`lib.rs`, its folder's `mod.rs`, a parent's `x.rs`). A hub
//!   declares and dispatches; what its children share is a leaf of its own,
//!   so that the hub sits above them all.
//!
//! Read from the source text, outside `#[cfg(test)]` modules and comments.
//! The reader is small and strict: a test below proves it sees a circle and
//! a hub import when there is one.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use support::rust_files;

/// The crates held to the rules, relative to the workspace root.
const CRATES: &[&str] = &[
    "skills-core",
    "skills-compiler",
    "skills",
    "skills-mcp",
    "skills-build",
    "skills-macros",
    "cargo-skills",
    // A workspace of its own (rig's dependencies stay out of this one's
    // lock), held to the same rules by path.
    "rig/skills-rig",
];

/// One crate's files by module path (`[]` for the crate root).
struct Crate {
    modules: BTreeMap<Vec<String>, PathBuf>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        // A crate with both is a library and a binary that uses it: the
        // binary's `main.rs` is a crate of its own.
        let has_lib = src.join("lib.rs").is_file();
        let modules = files
            .into_iter()
            .filter(|file| !(has_lib && file == &src.join("main.rs")))
            .filter_map(|file| {
                let relative = file.strip_prefix(src).ok()?.to_path_buf();
                Some((module_path(&relative)?, file))
            })
            .collect();
        Crate { modules }
    }

    /// The file of the module a path leads to: the longest prefix of
    /// `path` that is a module, and whether the path goes on to an item
    /// of that module (rather than naming the module itself).
    fn resolve(&self, path: &[String]) -> Option<(&Vec<String>, bool)> {
        (0..=path.len()).rev().find_map(|end| {
            let (key, file) = self.modules.get_key_value(&path[..end])?;
            let _ = file;
            Some((key, end < path.len()))
        })
    }
}

/// `a/b.rs` and `a/b/mod.rs` are `[a, b]`; `lib.rs` and `main.rs` are `[]`.
/// Binaries under `src/bin` are crates of their own: left out.
fn module_path(relative: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if !(parts.is_empty() && matches!(stem, "lib" | "main") || stem == "mod") {
        parts.push(stem.to_owned());
    }
    Some(parts)
}

/// Every path a file uses, made absolute (from the crate root): each
/// `crate::a::b`, `super::x`, `self::y`, with one level of `{a, b::c}`
/// groups opened.
fn paths_used(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let bytes = line.as_bytes();
        for start in ["crate::", "super::", "self::"] {
            for (at, _) in line.match_indices(start) {
                // `a_crate::` or `my_self::` is not the keyword.
                if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                    continue;
                }
                let mut base: Vec<String> = match start {
                    "crate::" => Vec::new(),
                    _ => module.to_vec(),
                };
                let mut rest = &line[at..];
                // `super::super::` climbs once each.
                loop {
                    if let Some(after) = rest.strip_prefix("super::") {
                        base.pop();
                        rest = after;
                    } else if let Some(after) = rest.strip_prefix("self::") {
                        rest = after;
                    } else if let Some(after) = rest.strip_prefix("crate::") {
                        rest = after;
                    } else {
                        break;
                    }
                }
                for tail in expand(rest) {
                    let mut path = base.clone();
                    path.extend(tail);
                    found.push(path);
                }
            }
        }
    }
    found
}

/// `a::b::C;` is `[[a, b, C]]`; `a::{b, c::D}` is `[[a, b], [a, c, D]]`.
fn expand(rest: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = rest;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or_default();
            return inner
                .split(',')
                .map(|item| {
                    let mut path = prefix.clone();
                    path.extend(segments(item.trim()));
                    path
                })
                .filter(|path: &Vec<String>| !path.is_empty())
                .collect();
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            // A glob takes every item of the module: `*` stands for them.
            if rest.starts_with('*') {
                prefix.push("*".to_owned());
            }
            return vec![prefix];
        }
        rest = &rest[name.len()..];
        prefix.push(name);
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => return vec![prefix],
        }
    }
}

fn segments(text: &str) -> Vec<String> {
    text.split("::")
        .map(|part| {
            part.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .take_while(|part| !part.is_empty() && part != "self")
        .collect()
}

/// What a module's file says of the name `name`.
enum Meaning {
    /// It defines it: a function, type, constant, trait or macro.
    Defined,
    /// It hands on an item of another module (`pub use a::b::Name;`), given
    /// as a path from the crate root.
    ReExport(Vec<String>),
    /// Neither (a path in generated code, or a name it does not have).
    Unknown,
}

fn meaning(text: &str, module: &[String], name: &str) -> Meaning {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let defined = [
        "fn", "struct", "enum", "type", "const", "static", "trait", "union",
    ]
    .iter()
    .any(|keyword| {
        code.match_indices(&format!("{keyword} {name}"))
            .any(|(at, found)| {
                let after = code[at + found.len()..].chars().next();
                let before = code[..at].chars().next_back();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
    }) || code.contains(&format!("macro_rules! {name}"));
    if defined {
        return Meaning::Defined;
    }
    for (at, _) in code.match_indices("pub use ") {
        let statement = code[at + "pub use ".len()..]
            .split(';')
            .next()
            .unwrap_or_default();
        let statement: String = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let statement = statement
            .replace(", ", ",")
            .replace("{ ", "{")
            .replace(" }", "}");
        for path in expand(&statement) {
            if path.last().is_some_and(|last| last == name) {
                let mut absolute = match path.first().map(String::as_str) {
                    Some("crate") => Vec::new(),
                    _ => module.to_vec(),
                };
                absolute.extend(path.into_iter().filter(|p| p != "crate" && p != "self"));
                return Meaning::ReExport(absolute);
            }
        }
    }
    Meaning::Unknown
}

/// What breaks the rules in one crate, as lines to print.
fn check(krate: &Crate, label: &str) -> Vec<String> {
    let mut broken = Vec::new();
    let mut edges: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for (module, file) in &krate.modules {
        let text = std::fs::read_to_string(file).unwrap();
        for path in paths_used(&text, module) {
            let Some((mut target, mut to_item)) = krate.resolve(&path) else {
                continue;
            };
            // An item a hub only hands on is taken from where it is defined.
            if to_item && module.starts_with(target) {
                let hub = std::fs::read_to_string(&krate.modules[target]).unwrap();
                let item = &path[target.len()];
                let meaning = if item == "*" {
                    Meaning::Defined
                } else {
                    meaning(&hub, target, item)
                };
                match meaning {
                    Meaning::Defined => {}
                    Meaning::ReExport(real) => match krate.resolve(&real) {
                        Some(resolved) => (target, to_item) = resolved,
                        None => continue,
                    },
                    Meaning::Unknown => continue,
                }
            }
            if target == module {
                continue;
            }
            // A module that contains this file, and an item of it: a hub
            // import. (Naming a child module through its parent is a path,
            // not an import of the parent.)
            if to_item && module.starts_with(target) {
                broken.push(format!(
                    "{label}: {} takes `{}` from {}, a module that contains it: move what it needs into a leaf",
                    show(module),
                    path.join("::"),
                    show(target),
                ));
                continue;
            }
            if !to_item && module.starts_with(target) {
                continue;
            }
            edges.entry(module).or_default().insert(target);
        }
    }
    for circle in circles(&edges) {
        broken.push(format!(
            "{label}: import circle {}",
            circle
                .iter()
                .map(|m| show(m))
                .collect::<Vec<_>>()
                .join(" -> ")
        ));
    }
    broken
}

fn show(module: &[String]) -> String {
    if module.is_empty() {
        "the crate root".to_owned()
    } else {
        format!("`{}`", module.join("::"))
    }
}

/// Each circle of the graph once, as the path that closes it.
fn circles<'a>(
    edges: &BTreeMap<&'a Vec<String>, BTreeSet<&'a Vec<String>>>,
) -> Vec<Vec<&'a Vec<String>>> {
    fn visit<'a>(
        node: &'a Vec<String>,
        edges: &BTreeMap<&'a Vec<String>, BTreeSet<&'a Vec<String>>>,
        path: &mut Vec<&'a Vec<String>>,
        done: &mut BTreeSet<&'a Vec<String>>,
        found: &mut Vec<Vec<&'a Vec<String>>>,
    ) {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node);
            found.push(circle);
            return;
        }
        if !done.insert(node) {
            return;
        }
        path.push(node);
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, path, done, found);
        }
        path.pop();
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        visit(node, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn no_file_imports_from_its_hub_or_closes_a_circle_in_any_crate() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut broken = Vec::new();
    for name in CRATES {
        let krate = Crate::read(&workspace.join(name).join("src"));
        assert!(!krate.modules.is_empty(), "{name}: no files read");
        broken.extend(check(&krate, name));
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The reader is not blind: a tree with a hub import and a circle is
/// reported for both.
#[test]
fn the_checker_sees_a_hub_import_and_a_circle() {
    let dir = std::env::temp_dir().join(format!("skills-file-grain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "mod a;\nmod b;\npub type Str = String;\n");
    write("a.rs", "use crate::Str;\nuse crate::b::B;\npub struct A;\n");
    write(
        "b/mod.rs",
        "mod c;\nmod d;\npub struct B;\nfn f() { super::a::A; }\n",
    );
    write("b/c.rs", "use super::B;\nuse crate::{a::A, b::B};\n");
    write("b/d.rs", "use super::*;\n");
    let broken = check(&Crate::read(&dir), "t");
    let _ = std::fs::remove_dir_all(&dir);
    let text = broken.join("\n");
    assert!(
        text.contains("`a` takes `Str` from the crate root"),
        "{text}"
    );
    assert!(text.contains("`b::c` takes `b::B` from `b`"), "{text}");
    assert!(text.contains("`b::d` takes `b::*` from `b`"), "{text}");
    assert!(text.contains("import circle `a` -> `b` -> `a`"), "{text}");
    assert_eq!(broken.len(), 5, "{text}");
}
