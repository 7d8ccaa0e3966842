fn main() -> std::process::ExitCode {
    cargo_skills::run(std::env::args())
}
