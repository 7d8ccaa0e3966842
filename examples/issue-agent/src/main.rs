//! `issue-agent`: reads model tool calls as JSON lines on stdin and carries
//! them out against the tracker; `--demo` runs a scripted conversation against
//! a real in-memory tracker on 127.0.0.1.
//!
//! ```sh
//! cargo run -p issue-agent -- --demo
//! echo '{"tool": "list_issues", "arguments": {"repo": "acme/app"}}' | cargo run -p issue-agent -- --origin http://127.0.0.1:8080
//! cargo run -p issue-agent -- --install .claude/skills   # its own skills, for other agents
//! ```

#![deny(warnings)]

use std::io::Write;
use std::process::ExitCode;

use issue_agent::server::Server;
use issue_agent::{Agent, Confirm, DEMO, agent_skills};

const USAGE: &str = "usage: issue-agent [--demo] [--yes] [--origin http://host:port] [--install DIR]\n\
                     Reads tool calls as JSON lines on stdin: {\"tool\": \"...\", \"arguments\": {...}}";

fn main() -> ExitCode {
    let (mut demo, mut yes, mut origin) = (false, false, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--demo" => demo = true,
            "--yes" => yes = true,
            "--origin" => origin = args.next(),
            "--install" => {
                let Some(dir) = args.next() else {
                    eprintln!("error: `--install` needs a folder (`.claude/skills`, say)\n{USAGE}");
                    return ExitCode::from(2);
                };
                return install(std::path::Path::new(&dir));
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("error: unexpected argument `{other}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let result = if demo {
        run_demo()
    } else {
        run_stdin(origin, yes)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the agent's own skills into `dir` for other agents, as compiled,
/// and says what each one was (missing, up to date, outdated, edited or
/// someone else's) and whether it was written.
fn install(dir: &std::path::Path) -> ExitCode {
    use skills::install::Install;
    match agent_skills::SKILLS.install(dir, Install::default()) {
        Ok(installed) => {
            for skill in &installed {
                let done = if skill.written {
                    "written"
                } else {
                    "left as it is"
                };
                println!("{}: {}, {done}", skill.skill, skill.state.as_str());
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: cannot install into {}: {error}", dir.display());
            ExitCode::FAILURE
        }
    }
}

fn run_stdin(origin: Option<String>, yes: bool) -> std::io::Result<()> {
    let confirm = if yes { Confirm::Yes } else { Confirm::Terminal };
    let mut agent = Agent::new(origin, confirm, std::io::stdout().lock());
    agent.run(std::io::stdin().lock())
}

fn run_demo() -> std::io::Result<()> {
    let server = Server::start()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "An in-memory issue tracker listens on {}.\n",
        server.origin()
    )?;
    writeln!(
        out,
        "The catalog the model sees on every turn:\n{}",
        agent_skills::SKILLS.catalog()
    )?;
    let protocol = agent_skills::SKILLS
        .get("issue-triage")
        .map_or("", |s| s.rendered());
    writeln!(
        out,
        "What it reads when it loads the triage protocol:\n{protocol}"
    )?;
    let mut agent = Agent::new(Some(server.origin()), Confirm::Yes, &mut out);
    for (what, line) in DEMO {
        agent.say(&format!("# {what}"))?;
        agent.handle(line)?;
        agent.say("")?;
    }
    drop(agent);
    let sent = server.requests().len();
    writeln!(
        out,
        "The tracker received {sent} requests; the denied call and the refused ones never reached it."
    )?;
    Ok(())
}
