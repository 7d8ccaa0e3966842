//! Skills compiled into a binary, served to any MCP host over stdio.
//!
//!     mcp-server [--origin http://127.0.0.1:8080]
//!
//! Register it with Claude Code (`claude mcp add issue-tracker -- /path/to/mcp-server`)
//! or Codex (`[mcp_servers.issue-tracker]` with `command = "/path/to/mcp-server"`
//! in `~/.codex/config.toml`); see the README.

mod agent {
    skills::include_skills!("../issue-tracker/skills");
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut builder = skills_mcp::Builder::new(&agent::SKILLS);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--origin", Some(origin)) => builder = builder.origin(origin),
            _ => {
                eprintln!("usage: mcp-server [--origin URL]");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let served = match builder.build() {
        Ok(server) => server.serve_stdio().await,
        Err(error) => Err(error),
    };
    match served {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
