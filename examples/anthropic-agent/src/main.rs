//! `anthropic-agent`: an agent on Anthropic's Messages API that opens the
//! tracker skill and its files, then uses its HTTP tools.
//!
//! ```sh
//! cargo run -p anthropic-agent -- --mock              # recorded responses on loopback, no key
//! ANTHROPIC_API_KEY=... cargo run -p anthropic-agent -- "Which issues are open in acme/app?"
//! ```

#![deny(warnings)]

use std::process::ExitCode;

use anthropic_agent::{Model, mock, run};
use issue_agent::server::Server;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let use_mock = args.iter().any(|a| a == "--mock");
    let question = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| {
            "Which issues are open in acme/app, and how should a new bug be labelled?".to_owned()
        });
    // The tracker the skills' tools reach: an in-memory one on loopback.
    let tracker = match Server::start() {
        Ok(server) => server,
        Err(error) => {
            eprintln!("error: cannot start the tracker: {error}");
            return ExitCode::FAILURE;
        }
    };
    let (model, _mock) = if use_mock {
        let mock = match mock::Mock::start(mock::recorded()) {
            Ok(mock) => mock,
            Err(error) => {
                eprintln!("error: cannot start the mock: {error}");
                return ExitCode::FAILURE;
            }
        };
        let model = Model {
            base_url: mock.origin.clone(),
            api_key: "recorded".to_owned(),
            model: "claude-recorded".to_owned(),
        };
        (model, Some(mock))
    } else {
        let Ok(api_key) = std::env::var("ANTHROPIC_API_KEY") else {
            eprintln!("error: set ANTHROPIC_API_KEY, or run with --mock");
            return ExitCode::from(2);
        };
        let model = Model {
            base_url: std::env::var("ANTHROPIC_BASE_URL")
                .unwrap_or_else(|_| "https://api.anthropic.com".to_owned()),
            api_key,
            model: std::env::var("ANTHROPIC_MODEL")
                .unwrap_or_else(|_| "claude-sonnet-4-5".to_owned()),
        };
        (model, None)
    };
    println!("user: {question}");
    match run(
        &model,
        Some(&tracker.origin()),
        &question,
        &mut std::io::stdout(),
    ) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
