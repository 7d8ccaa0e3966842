//! Serving thousands of skills over MCP (issue 44, item 3): `skills/list`
//! and `resources/read` from `skills_mcp`'s server over a loaded set,
//! beside an rmcp server that answers them from rmcp's own
//! `SkillCatalog` (its `list_skills` and `read_resource`), both in process,
//! each called by the same rmcp client that declares the skills extension.
//! Time is the median of interleaved runs; peak memory is each side alone
//! in a fresh process of this binary (`VmHWM`), loaded and idle, then with
//! 64 clients reading at once.
//!
//!     cargo bench -p skills-mcp-server --bench serve                 # 5,000 skills
//!     SKILLS=200 RUNS=3 cargo bench -p skills-mcp-server --bench serve

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::skill_catalog::SkillCatalog;
use rmcp::model::{
    ErrorData, ListSkillsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, SkillResources,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};

#[path = "../tests/support/host.rs"]
mod host;
#[path = "support/measure.rs"]
mod measure;
#[path = "support/tree.rs"]
mod tree;
use measure::{env_or, median, mib, ms, peak_kib};

/// Which side a child process serves, and from where.
const ONE: &str = "SERVE_BENCH_ONE";
const ROOT: &str = "SERVE_BENCH_ROOT";
/// Clients reading at once in the memory run.
const READERS: usize = 64;

fn main() {
    let count: usize = env_or("SKILLS", 5_000);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    if let (Ok(side), Ok(root)) = (std::env::var(ONE), std::env::var(ROOT)) {
        let peak = runtime.block_on(peak_alone(&side, Path::new(&root), count));
        println!("{peak}");
        return;
    }
    let runs: usize = env_or("RUNS", 5);
    let root = tree::prepared(count, runs);
    let (ours, rmcp) = runtime.block_on(async {
        let ours = Side::serve(ours(&root, count)).await;
        let rmcp = Side::serve(Catalog::from_dir(&root)).await;
        (ours, rmcp)
    });
    // The same skills, files and bytes on both sides.
    let (a, b) = runtime.block_on(async { (ours.uris().await, rmcp.uris().await) });
    assert_eq!(a.len(), count);
    assert_eq!(a, b, "the two servers list different files");
    let reads: Vec<String> = (0..300)
        .map(|n| a[(n * 7_919) % a.len()].clone())
        .flat_map(|(_, files)| files)
        .collect();

    let mut times = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..runs {
        times[0].push(runtime.block_on(timed(ours.list())));
        times[1].push(runtime.block_on(timed(rmcp.list())));
        times[2].push(runtime.block_on(timed(ours.read_all(&reads))));
        times[3].push(runtime.block_on(timed(rmcp.read_all(&reads))));
    }
    let [ours_list, rmcp_list, ours_read, rmcp_read] = times.map(|mut t| median(&mut t));
    let (ours_bytes, rmcp_bytes) =
        runtime.block_on(async { (ours.list_bytes().await, rmcp.list_bytes().await) });
    let skills = count.to_string();
    let peak = |side: &str| measure::peak_of(&[(ONE, side), ("SKILLS", &skills)], ROOT, &root);
    let (ours_idle, rmcp_idle) = (peak("ours-idle"), peak("rmcp-idle"));
    let (ours_busy, rmcp_busy) = (peak("ours"), peak("rmcp"));
    let per_read = |time: Duration| time.as_secs_f64() * 1e6 / reads.len() as f64;
    println!("| {count} skills | `skills_mcp` | rmcp `SkillCatalog` | ratio |");
    println!("|---|---|---|---|");
    println!(
        "| `skills/list`, every skill on one page | {:.1} ms | {:.1} ms | {:.2}x |",
        ms(ours_list),
        ms(rmcp_list),
        ours_list.as_secs_f64() / rmcp_list.as_secs_f64()
    );
    println!(
        "| the skills of one `skills/list`, as JSON | {:.2} MB | {:.2} MB | {:.2}x |",
        ours_bytes as f64 / 1e6,
        rmcp_bytes as f64 / 1e6,
        ours_bytes as f64 / rmcp_bytes as f64
    );
    println!(
        "| `resources/read`, {} files (SKILL.md, text, binary), each | {:.1} µs | {:.1} µs | {:.2}x |",
        reads.len(),
        per_read(ours_read),
        per_read(rmcp_read),
        ours_read.as_secs_f64() / rmcp_read.as_secs_f64()
    );
    println!(
        "| peak memory, loaded and idle | {:.1} MiB | {:.1} MiB | {:.2}x |",
        mib(ours_idle),
        mib(rmcp_idle),
        ours_idle as f64 / rmcp_idle.max(1) as f64
    );
    println!(
        "| peak memory, {READERS} clients each listing and reading at once | {:.1} MiB | {:.1} MiB | {:.2}x |",
        mib(ours_busy),
        mib(rmcp_busy),
        ours_busy as f64 / rmcp_busy.max(1) as f64
    );
}

/// `skills_mcp`'s server over the tree, loaded with every rule.
fn ours(root: &Path, count: usize) -> skills_mcp::SkillsServer {
    let loader = skills::loader::Loader::new().overrides(skills::loader::Overrides {
        max_skills: Some(count),
        ..Default::default()
    });
    let set = loader.load(root).unwrap_or_else(|error| panic!("{error}"));
    skills_mcp::Builder::new(Arc::new(set.into_set()))
        .build()
        .unwrap()
}

/// An rmcp server that answers `skills/list` and `resources/read` from
/// rmcp's `SkillCatalog`, as its documentation has a server do.
#[derive(Clone)]
struct Catalog(Arc<SkillCatalog>);

impl Catalog {
    fn from_dir(root: &Path) -> Catalog {
        Catalog(Arc::new(
            SkillCatalog::from_dir(root).unwrap_or_else(|error| panic!("{error}")),
        ))
    }
}

impl ServerHandler for Catalog {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_skills()
                .build(),
        )
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(self.0.list_skills())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.0
            .read_resource(&request.uri)
            .map(Into::into)
            .ok_or_else(|| ErrorData::resource_not_found(request.uri, None))
    }
}

/// A server on one end of a pipe, a host's client on the other.
struct Side {
    client: host::Connected,
}

impl Side {
    async fn serve<S: ServerHandler>(server: S) -> Side {
        Side {
            client: host::connect(server).await,
        }
    }

    async fn list(&self) -> usize {
        self.client.list_all_skills().await.unwrap().len()
    }

    /// The bytes of one `skills/list` result as JSON.
    async fn list_bytes(&self) -> usize {
        let skills = self.client.list_all_skills().await.unwrap();
        serde_json::to_vec(&skills).unwrap().len()
    }

    /// Each skill's URI and its files' URIs, sorted.
    async fn uris(&self) -> Vec<(String, Vec<String>)> {
        let mut skills: Vec<(String, Vec<String>)> = self
            .client
            .list_all_skills()
            .await
            .unwrap()
            .into_iter()
            .map(|skill| {
                let mut files = match skill.resources {
                    SkillResources::Files(files) => files.into_iter().map(|f| f.uri).collect(),
                    _ => Vec::new(),
                };
                files.sort();
                (skill.uri, files)
            })
            .collect();
        skills.sort();
        skills
    }

    async fn read_all(&self, uris: &[String]) -> usize {
        let mut bytes = 0;
        for uri in uris {
            let read = self
                .client
                .read_resource(ReadResourceRequestParams::new(uri.as_str()))
                .await
                .unwrap_or_else(|error| panic!("{uri}: {error}"));
            bytes += read.contents.len();
        }
        bytes
    }
}

/// One side alone, in this process: loaded and idle, or with `READERS`
/// clients that each list every skill and read 30 files, all at once.
/// The peak resident memory, in KiB.
async fn peak_alone(side: &str, root: &Path, count: usize) -> u64 {
    let busy = !side.ends_with("-idle");
    let server: Box<dyn Fn() -> tokio::task::JoinHandle<Side> + Send + Sync> =
        if side.starts_with("ours") {
            let server = ours(root, count);
            Box::new(move || {
                let server = server.clone();
                tokio::spawn(Side::serve(server))
            })
        } else {
            let server = Catalog::from_dir(root);
            Box::new(move || {
                let server = server.clone();
                tokio::spawn(Side::serve(server))
            })
        };
    let first = server().await.unwrap();
    let uris = first.uris().await;
    if busy {
        let uris = Arc::new(uris);
        let mut readers = Vec::new();
        for reader in 0..READERS {
            let side = server().await.unwrap();
            let uris = Arc::clone(&uris);
            readers.push(tokio::spawn(async move {
                side.list().await;
                let reads: Vec<String> = (0..10)
                    .flat_map(|n| uris[(reader * 131 + n * 7_919) % uris.len()].1.clone())
                    .collect();
                side.read_all(&reads).await
            }));
        }
        for reader in readers {
            reader.await.unwrap();
        }
    }
    peak_kib()
}

async fn timed<T>(run: impl std::future::Future<Output = T>) -> Duration {
    let start = Instant::now();
    run.await;
    start.elapsed()
}
