//! Verifying a signed skill beside hashing the same bytes with `sha256sum`
//! (coreutils), in one run: what a signature costs over reading the files
//! at all. The target (issue 60): at most 1.2x. Two shapes: one skill of
//! 16 MiB in 16 files (the bytes dominate), and 64 skills of 12 KB each (the
//! signature's fixed work dominates: JSON, certificates, two ECDSA checks).
//!
//! ```sh
//! cargo bench -p skills-compiler --features signing --bench signing
//! ```

#[path = "../tests/support/pki.rs"]
mod pki;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use skills_compiler::ops::vendor::lock::HashCache;
use skills_compiler::signing::{self, SIGNATURE_FILE, SigningKey, Trust, Verdict, Verifier};

/// A skill folder `name` under `base` with `files` files of `size` bytes.
fn skill(base: &Path, name: &str, files: usize, size: usize) -> PathBuf {
    let dir = base.join(name);
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody.\n"),
    )
    .unwrap();
    for i in 0..files {
        let bytes: Vec<u8> = (0..size).map(|b| (b * 31 + i) as u8).collect();
        std::fs::write(dir.join(format!("references/part-{i}.bin")), bytes).unwrap();
    }
    dir
}

fn files_of(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_of(&path, out);
        } else if path.file_name().is_some_and(|n| n != SIGNATURE_FILE) {
            out.push(path);
        }
    }
}

fn bench(c: &mut Criterion) {
    let base = std::env::temp_dir().join(format!("skills-bench-signing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let ca = pki::ca("CN=Bench Root", pki::Curve::P256);
    let leaf = pki::leaf(&ca, "CN=Bench Publisher", pki::Curve::P256);
    let key = SigningKey::from_pem(&leaf.key.pem()).unwrap();
    let chain = [leaf.certificate.clone(), ca.certificate.clone()];
    let trust = Trust::from_pem(ca.pem().as_bytes()).unwrap();
    let shapes = [
        ("one skill, 16 MiB", "large", 1, 16, 1 << 20),
        ("64 skills, 12 KB each", "small", 64, 3, 4096),
    ];
    for (label, group_name, skills, files, size) in shapes {
        let root = base.join(group_name);
        let folders: Vec<PathBuf> = (0..skills)
            .map(|i| {
                let dir = skill(&root, &format!("s{i}"), files, size);
                let bytes = signing::sign(&dir, &key, &chain).unwrap();
                std::fs::write(dir.join(SIGNATURE_FILE), bytes).unwrap();
                PathBuf::from(format!("s{i}"))
            })
            .collect();
        let mut all = Vec::new();
        files_of(&root, &mut all);
        let mut group = c.benchmark_group(format!("signing/{label}"));
        group.sample_size(20);
        group.bench_function("verify", |b| {
            b.iter(|| {
                let mut verifier = Verifier::new(&trust);
                for folder in &folders {
                    let verified = verifier.verify(&root, folder, &mut HashCache::none());
                    assert!(matches!(verified.verdict, Verdict::Signed(_)));
                    black_box(verified);
                }
            })
        });
        group.bench_function("sha256sum", |b| {
            b.iter(|| {
                let status = Command::new("sha256sum")
                    .args(&all)
                    .stdout(std::process::Stdio::null())
                    .status()
                    .unwrap();
                assert!(status.success());
            })
        });
        group.finish();
    }
    let _ = std::fs::remove_dir_all(&base);
}

criterion_group!(benches, bench);
criterion_main!(benches);
