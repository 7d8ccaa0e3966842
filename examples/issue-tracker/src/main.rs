//! Prints the skill catalog, then turns a tool call given on the command line
//! into a typed value, a policy decision and the HTTP request it would send.
//!
//! ```sh
//! cargo run -p issue-tracker
//! cargo run -p issue-tracker -- create_issue '{"repo": "acme/app", "title": "Crash on start"}'
//! ```

// Generated code must be clean under the strictest user settings.
#![deny(warnings)]

mod agent_skills {
    skills::include_skills!("skills");
}

use agent_skills::github_issues::ToolCall;
use skills::TypedCall;

fn main() -> std::process::ExitCode {
    let skills = &agent_skills::SKILLS;
    println!("{} skills:\n{}", skills.len(), skills.catalog());

    let mut args = std::env::args().skip(1);
    let (Some(tool), Some(json)) = (args.next(), args.next()) else {
        println!(
            "Try: issue-tracker create_issue '{{\"repo\": \"acme/app\", \"title\": \"Crash on start\"}}'"
        );
        return std::process::ExitCode::SUCCESS;
    };
    let call = match ToolCall::parse(&tool, &json) {
        Ok(call) => call,
        Err(error) => {
            eprintln!("error: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("call:    {call:?}");
    println!("policy:  {}", call.policy().as_str());
    // The policy decides what may be sent: a Deny call never is (`request`
    // refuses it), and a Confirm call only once the user agreed. This
    // example prints requests and sends none, so it shows a Confirm call's
    // request as it would go out after a yes.
    let call = match call.policy() {
        skills::Policy::Confirm => {
            println!(
                "         (needs the user's confirmation: {})",
                call.to_call().confirmation_text()
            );
            call.to_call().confirmed()
        }
        _ => call.to_call(),
    };
    match call.request() {
        Ok(request) => {
            println!("request: {} {}", request.method(), request.uri());
            for (name, value) in request.headers() {
                println!(
                    "         {name}: {}",
                    String::from_utf8_lossy(value.as_bytes())
                );
            }
            if !request.body().is_empty() {
                println!("         {}", String::from_utf8_lossy(request.body()));
            }
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
