//! `cargo run -p skills-rig-agent -- --demo` (from `rig/`; the package is not `rig-agent`, which is rig's own crate): the agent's loop,
//! step by step, offline.

use rig_agent_example::{Demo, PROMPT, demo, tool_results};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() != Some("--demo") {
        eprintln!(
            "usage: skills-rig-agent --demo\n\nRuns a rig agent built from compiled skills against a scripted Anthropic model and a local tracker.\nFor a real model, build the agent with rig's Anthropic client instead of the scripted one (src/lib.rs)."
        );
        return std::process::ExitCode::from(2);
    }
    match demo(|run| println!("  [host] approved the script run: {run}")).await {
        Ok(done) => {
            print_steps(&done);
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn print_steps(done: &Demo) {
    println!("user: {PROMPT}\n");
    for (turn, reply) in done.replies.iter().enumerate() {
        for block in reply["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("text") => println!("model: {}", block["text"].as_str().unwrap_or_default()),
                Some("tool_use") => println!(
                    "model calls {} {}",
                    block["name"].as_str().unwrap_or_default(),
                    block["input"]
                ),
                _ => {}
            }
        }
        if let Some(next) = done.requests.get(turn + 1) {
            for (_, text, is_error) in tool_results(next) {
                let first = text.lines().next().unwrap_or_default();
                let more = text.lines().count().saturating_sub(1);
                let error = if is_error { " (error)" } else { "" };
                println!(
                    "  tool{error}: {first}{}",
                    if more > 0 {
                        format!(" [+{more} lines]")
                    } else {
                        String::new()
                    }
                );
            }
        }
        println!();
    }
    println!("tracker received: {:?}", done.tracker);
    println!("answer: {}", done.answer);
}
