//! `cargo skills check mcp+stdio:CMD`: what an MCP server serves, checked
//! as a host would load it (SEP-2640): the server is started, its skills
//! listed and read, every file verified against the listing, and the lot
//! compiled with the chosen profile (default `portable`), by
//! [`skills_mcp::stdio`]. Each command is one server.

use skills_compiler::Profile;
use skills_mcp::client::Remote;

use crate::failure::Failure;
use crate::output::outln;

/// Checks each server; every one is checked before the result is given.
pub(crate) fn run(
    commands: &[String],
    profile: Option<Profile>,
    session: std::time::Duration,
) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the async runtime: {e}")))?;
    // A folder of this run's own, made exclusively (a name from the pid
    // alone could be a link someone planted first), removed when dropped.
    let cache = skills_core::TemporaryDir::new(&std::env::temp_dir(), "cargo-skills-mcp")
        .map_err(|e| Failure::Io(format!("cannot make a cache folder: {e}")))?;
    let mut failed = false;
    for (at, command) in commands.iter().enumerate() {
        let label = format!("server-{}", at + 1);
        let remote = Remote::new(&label).profile(profile.unwrap_or(Profile::Portable));
        let checked = runtime.block_on(skills_mcp::stdio::check_command(
            command,
            &remote,
            cache.path(),
            session,
        ));
        match checked {
            Ok(count) => outln!(
                "ok: {count} skill{} from `{command}` verified and valid",
                if count == 1 { "" } else { "s" }
            ),
            Err(why) => {
                anstream::eprintln!("error: `{command}`: {why}");
                failed = true;
            }
        }
    }
    if failed {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
