//! The tree the catalog and serve benchmarks read: `count` generated skill
//! directories, each a SKILL.md of about 2 KB, a 4 KB reference, a script
//! and a 3 KB binary asset.

use std::path::{Path, PathBuf};

/// The tree of `count` skills in the target's temporary folder, written
/// unless a complete one is there, its size printed with the run count.
pub fn prepared(count: usize, runs: usize) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("catalog-{count}"));
    write_tree(&root, count);
    println!(
        "{count} skill directories ({}), {runs} interleaved runs",
        tree_size(&root)
    );
    root
}

/// Writes `count` skill directories under `root`, unless a complete tree
/// of that size is there from an earlier run.
fn write_tree(root: &Path, count: usize) {
    let done = root.join(".complete");
    if done.is_file() {
        return;
    }
    let _ = std::fs::remove_dir_all(root);
    let reference = "Each step names the command and what it prints.\n".repeat(85);
    let script = "import sys\n\nprint(sys.argv[1:])\n".repeat(30);
    // Bytes that are not UTF-8 text, the same in every directory.
    let asset: Vec<u8> = (0..3_000u32)
        .map(|n| (n.wrapping_mul(2_654_435_761) >> 24) as u8 | 0x80)
        .collect();
    for n in 0..count {
        let name = format!("skill-{n:05}");
        let dir = root.join(&name);
        for folder in ["references", "scripts", "assets"] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
        }
        let body = format!(
            "# Task {n}\n\nRead [the guide](references/guide.md), then run `scripts/run.py`.\n\n{}",
            "Check the input, do the step, report what changed.\n".repeat(32)
        );
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Does task {n} end to end. Use when the user asks for task {n}.\nlicense: MIT\n---\n{body}"
            ),
        )
        .unwrap();
        std::fs::write(dir.join("references/guide.md"), &reference).unwrap();
        std::fs::write(dir.join("scripts/run.py"), &script).unwrap();
        std::fs::write(dir.join("assets/icon.bin"), &asset).unwrap();
    }
    std::fs::write(done, "").unwrap();
}

fn tree_size(root: &Path) -> String {
    let mut bytes = 0u64;
    let mut files = 0usize;
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() {
                files += 1;
                bytes += entry.metadata().unwrap().len();
            }
        }
    }
    format!("{files} files, {:.1} MB", bytes as f64 / 1e6)
}
