//! The build-script path: the same items `include_skills!` gives, from a file
//! `skills-build` wrote to `OUT_DIR`.
//!
//! ```sh
//! cargo run -p issue-tracker-build
//! ```

// Generated code must be clean under the strictest user settings.
#![deny(warnings)]

mod agent_skills {
    include!(concat!(env!("OUT_DIR"), "/skills.rs"));
}

use skills::TypedCall;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let skills = &agent_skills::SKILLS;
    print!("{}", skills.catalog());
    let call = agent_skills::github_issues::ToolCall::parse(
        "list_issues",
        r#"{"repo": "acme/app", "limit": 3}"#,
    )?;
    let request = call.request()?;
    println!("{} -> {} {}", call.name(), request.method(), request.uri());
    Ok(())
}
