//! The run-time loader (`skills::loader`) and `cargo skills check` are two
//! front ends of one compiler: on the same skills they give the same
//! verdicts and the same diagnostics, line for line.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use skills::loader::{Loader, Profile};

/// `check --message-format short` over `dirs`, one line per diagnostic.
fn check_lines(dirs: &[PathBuf], profile: &str) -> Vec<String> {
    let output = Command::cargo_bin("cargo-skills")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(["check", "--message-format", "short", "--profile", profile])
        .args(dirs)
        .output()
        .unwrap();
    String::from_utf8(output.stderr)
        .unwrap()
        .lines()
        .filter(|line| line.contains(": error[") || line.contains(": warning["))
        .map(str::to_owned)
        .collect()
}

/// The loader's diagnostics for each of `dirs`, in order.
fn loader_lines(dirs: &[PathBuf], profile: Profile) -> (Vec<String>, usize) {
    let loader = Loader::new().profile(profile);
    let mut lines = Vec::new();
    let mut loaded = 0;
    for dir in dirs {
        let text = match loader.load_skill(dir) {
            Ok(set) => {
                loaded += 1;
                set.warnings()
                    .iter()
                    .map(|d| skills_compiler::diagnostics::render::short(d) + "\n")
                    .collect()
            }
            Err(error) => error.render_short(),
        };
        lines.extend(text.lines().map(str::to_owned));
    }
    (lines, loaded)
}

fn skill_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries.into_iter().filter(|p| p.is_dir()) {
        if path.join("SKILL.md").is_file() {
            out.push(path.clone());
        }
        skill_dirs(&path, out);
    }
}

#[test]
fn loader_and_check_agree_on_the_broken_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills-compiler/tests/fixtures");
    let mut dirs = Vec::new();
    skill_dirs(&root, &mut dirs);
    assert!(dirs.len() > 10, "{dirs:?}");
    for (name, profile) in [
        ("extended", Profile::Extended),
        ("portable", Profile::Portable),
        ("lenient", Profile::Lenient),
    ] {
        let (lines, _) = loader_lines(&dirs, profile);
        assert!(lines.iter().any(|l| l.contains(": error[")), "{name}");
        assert_eq!(lines, check_lines(&dirs, name), "{name}");
    }
}

#[test]
fn loader_and_check_agree_on_the_real_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!(
            "skipped: no corpus at {} (a fresh clone has no ../shared)",
            corpus.display()
        );
        return;
    }
    let mut dirs = Vec::new();
    skill_dirs(&corpus, &mut dirs);
    for (name, profile) in [
        ("lenient", Profile::Lenient),
        ("portable", Profile::Portable),
    ] {
        let (lines, loaded) = loader_lines(&dirs, profile);
        assert!(
            loaded > 0 && lines.len() > 100,
            "{name}: {loaded} {}",
            lines.len()
        );
        assert_eq!(lines, check_lines(&dirs, name), "{name}");
    }
}
