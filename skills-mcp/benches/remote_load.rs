//! Loading 100 skills from a local MCP server (`skills_mcp::client`, over
//! an in-process pipe: list, read every file, verify, write the cache,
//! compile) beside loading the same 100 skills from disk
//! (`skills::loader::Loader`), in one run.
//!
//!     cargo bench -p skills-mcp-server --features client --bench remote_load

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::ServiceExt;

/// 100 skills, each a SKILL.md and two reference files.
fn hundred_skills(root: &std::path::Path) {
    let _ = std::fs::remove_dir_all(root);
    for n in 0..100 {
        let dir = root.join(format!("skill-{n:03}"));
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{n:03}\ndescription: Does task {n}. Use when the user asks for task {n}.\nlicense: MIT\n---\n# Task {n}\n\nRead [the guide](references/guide.md) first.\n"
            ),
        )
        .unwrap();
        std::fs::write(dir.join("references/guide.md"), "# Guide\n".repeat(200)).unwrap();
        std::fs::write(dir.join("references/notes.md"), "A note.\n".repeat(50)).unwrap();
    }
}

fn loads(c: &mut Criterion) {
    let base = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("remote-load");
    let root = base.join("skills");
    hundred_skills(&root);
    let loader = skills::loader::Loader::new().overrides(skills::loader::Overrides {
        max_skills: Some(100),
        ..Default::default()
    });
    let set = loader.load(&root).unwrap().into_set();
    assert_eq!(set.len(), 100);
    let server = skills_mcp::Builder::new(set).build().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = runtime.block_on(async {
        let (server_side, client_side) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_side).await.unwrap()
    });
    let remote = skills_mcp::client::Remote::new("bench").loader(loader.clone());
    let cache = base.join("cache");

    let mut group = c.benchmark_group("load 100 skills (3 files each)");
    group.sample_size(20);
    group.bench_function("from a local MCP server (skills_mcp::client)", |b| {
        b.iter(|| {
            let loaded = runtime
                .block_on(remote.load(client.peer(), &cache))
                .unwrap();
            assert_eq!(loaded.set().len(), 100);
        })
    });
    group.bench_function("from disk (skills::loader::Loader)", |b| {
        b.iter(|| assert_eq!(loader.load(&root).unwrap().set().len(), 100))
    });
    group.finish();
}

criterion_group!(benches, loads);
criterion_main!(benches);
