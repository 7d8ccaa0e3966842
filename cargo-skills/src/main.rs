// Checking a collection allocates many small strings on every core: mimalloc
// cuts `check` by a third on 5,000 skills (BENCHMARKS.md, issue 10).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cargo_skills::run(std::env::args())
}
