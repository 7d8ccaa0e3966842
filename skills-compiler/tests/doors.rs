//! Each front end goes through its door (issue 72, item 6): the paths of
//! `skills_compiler` a front-end crate's sources use start with a module
//! or a root item its door lists, and nothing else. `cargo skills` runs
//! operations (`ops`) and prints what they return; the macro and the build
//! helper embed (`embed`, with the views they print); the run-time loader
//! compiles and reloads; the MCP server and rig's adapter reach the
//! compiler only through the loader.
//!
//! Read from the source text, outside `#[cfg(test)]` modules and comments,
//! as `file_grain.rs` reads it. The reader is small and strict: a test
//! below proves it finds a path past a door, in a group over lines too.

mod support;

use std::path::{Path, PathBuf};

use support::rust_files;

/// What one front-end crate may name of `skills_compiler`.
struct Door {
    /// The crate, relative to the workspace root.
    krate: &'static str,
    /// The modules it may reach into.
    modules: &'static [&'static str],
    /// The root items it may name (the shared vocabulary: configuration,
    /// diagnostics, the compilation, the pipeline's entry points).
    items: &'static [&'static str],
}

/// The configuration and the outcome every front end speaks of.
const VOCABULARY: &[&str] = &[
    "Code",
    "Compilation",
    "Config",
    "Diagnostic",
    "Overrides",
    "Profile",
    "RequireSignatures",
    "Severity",
];

const DOORS: &[Door] = &[
    Door {
        krate: "cargo-skills",
        modules: &["ops", "diagnostics", "ir", "emit", "keys"],
        items: &["Tally"],
    },
    Door {
        krate: "skills-macros",
        modules: &["embed", "emit", "diagnostics", "ir"],
        items: &["Invocation"],
    },
    Door {
        krate: "skills-build",
        modules: &["embed", "emit", "diagnostics"],
        items: &["configuring_workspace_manifest", "display_path"],
    },
    Door {
        krate: "skills",
        modules: &["again", "conventional", "diagnostics", "emit", "ir"],
        items: &[
            "compile",
            "compile_path",
            "compile_skill",
            "InvalidSkill",
            "Sources",
            "DEFAULT_MAX_FILES",
            "DEFAULT_MAX_SET_BYTES",
            "DEFAULT_MAX_SKILLS",
            "DEFAULT_MAX_SKILL_BYTES",
        ],
    },
    Door {
        krate: "skills-mcp",
        modules: &[],
        items: &[],
    },
    Door {
        krate: "rig/skills-rig",
        modules: &[],
        items: &[],
    },
];

impl Door {
    fn opens_to(&self, first: &str) -> bool {
        self.modules.contains(&first)
            || self.items.contains(&first)
            || (!self.modules.is_empty() && VOCABULARY.contains(&first))
    }
}

/// A path of `skills_compiler` one file uses: its first segment, and the
/// line it is on.
#[derive(Debug, PartialEq, Eq)]
struct Used {
    first: String,
    line: usize,
}

/// Every `skills_compiler::` path in `text`, by first segment; a group
/// (`skills_compiler::{a, b::{c, d}}`, over lines or not) gives each of
/// its members.
fn used(text: &str) -> Vec<Used> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    // Comments blanked, lines kept, so that a line number stays true.
    let code: String = code
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") { "" } else { line }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for (at, needle) in code.match_indices("skills_compiler::") {
        // `my_skills_compiler::` is another name.
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = &code[at + needle.len()..];
        for first in firsts(rest) {
            found.push(Used { first, line });
        }
    }
    found
}

/// The first segment of the path `rest` starts, or of each member of the
/// group it starts.
fn firsts(rest: &str) -> Vec<String> {
    let Some(group) = rest.strip_prefix('{') else {
        return name(rest).into_iter().collect();
    };
    let mut members = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                members.push(&group[start..at]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                members.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    members
        .into_iter()
        .filter_map(|member| name(member.trim_start()))
        .collect()
}

fn name(text: &str) -> Option<String> {
    let name: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_front_end_reaches_the_compiler_only_through_its_door() {
    let mut past = Vec::new();
    let mut seen = 0;
    for door in DOORS {
        let src = workspace().join(door.krate).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        assert!(!files.is_empty(), "{} has no source files", door.krate);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for used in used(&text) {
                seen += 1;
                if !door.opens_to(&used.first) {
                    let shown = file.strip_prefix(workspace()).unwrap_or(&file);
                    past.push(format!(
                        "{}:{}: `skills_compiler::{}` is past the door of {} (it may use {:?} and {:?})",
                        shown.display(),
                        used.line,
                        used.first,
                        door.krate,
                        door.modules,
                        door.items,
                    ));
                }
            }
        }
    }
    // A reader that finds nothing would pass every crate.
    assert!(seen > 50, "only {seen} paths of skills_compiler found");
    assert!(
        past.is_empty(),
        "front ends reach past their doors; re-export what they need through the door \
         (`ops`, `embed`) instead:\n{}",
        past.join("\n")
    );
}

#[test]
fn the_reader_finds_a_path_past_a_door() {
    let text = "use skills_compiler::ops;\n\
                // skills_compiler::write is a comment\n\
                use skills_compiler::{\n    Config,\n    emit::{json, lower},\n    vendoring::Pick,\n};\n\
                fn f() { skills_compiler::routing::evaluate(); my_skills_compiler::x(); }\n\
                #[cfg(test)]\nmod tests { use skills_compiler::write; }\n";
    let found = used(text);
    let firsts: Vec<(&str, usize)> = found.iter().map(|u| (u.first.as_str(), u.line)).collect();
    assert_eq!(
        firsts,
        [
            ("ops", 1),
            ("Config", 3),
            ("emit", 3),
            ("vendoring", 3),
            ("routing", 8)
        ]
    );
    let cli = &DOORS[0];
    let past: Vec<&str> = found
        .iter()
        .filter(|u| !cli.opens_to(&u.first))
        .map(|u| u.first.as_str())
        .collect();
    assert_eq!(past, ["vendoring", "routing"]);
    // A crate with no door at all opens to nothing, the vocabulary included.
    let mcp = DOORS.iter().find(|d| d.krate == "skills-mcp").unwrap();
    assert!(!mcp.opens_to("Config") && !mcp.opens_to("ops"));
}
