//! `cargo skills check mcp+stdio:CMD`: what an MCP server serves, checked
//! as a host would load it (SEP-2640): the server is started, its skills
//! listed and read, every file verified against the listing, and the lot
//! compiled with the chosen profile (default `portable`). Each command is
//! one server.

use skills_compiler::Profile;
use skills_mcp::client::{Remote, RemoteError};

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
    // A folder of this run's own, made exclusively: a name from the pid
    // alone could be a link someone planted first.
    let cache = skills_core::temporary_dir(&std::env::temp_dir(), "cargo-skills-mcp")
        .map_err(|e| Failure::Io(format!("cannot make a cache folder: {e}")))?;
    let mut failed = false;
    for (at, command) in commands.iter().enumerate() {
        let label = format!("server-{}", at + 1);
        let remote = Remote::new(&label).profile(profile.unwrap_or(Profile::Portable));
        // The whole session (start, initialize, listing, reads) is bounded:
        // a server that never answers, or drips, cannot hold a CI job.
        let checked = runtime.block_on(async {
            tokio::time::timeout(session, check_one(command, &remote, &cache))
                .await
                .unwrap_or_else(|_| {
                    Err(format!(
                        "no answer within {} s (`--timeout`): the server was stopped",
                        session.as_secs()
                    ))
                })
        });
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
    let _ = std::fs::remove_dir_all(&cache);
    if failed {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}

/// Starts `command` (a program and its arguments, split as a shell splits
/// them without expanding anything), loads its skills, and stops it.
async fn check_one(
    command: &str,
    remote: &Remote,
    cache: &std::path::Path,
) -> Result<usize, String> {
    use rmcp::ServiceExt;
    let mut words = words(command)?.into_iter();
    let program = words
        .next()
        .ok_or_else(|| "no command after `mcp+stdio:`".to_owned())?;
    let mut process = tokio::process::Command::new(program);
    process.args(words).kill_on_drop(true);
    let transport = rmcp::transport::TokioChildProcess::new(process)
        .map_err(|error| format!("cannot start it: {error}"))?;
    let client = ().serve(transport).await.map_err(|error| format!("no MCP session: {error}"))?;
    let loaded = remote.load(client.peer(), cache).await;
    let _ = client.cancel().await;
    match loaded {
        Ok(skills) => Ok(skills.set().len()),
        // Shown at their URIs on the server, not where they were cached.
        Err(RemoteError::Invalid(error)) => {
            let cached = format!("{}/", cache.join(remote.label()).display());
            Err(format!(
                "invalid skills\n{}",
                error.render().replace(&cached, "skill://")
            ))
        }
        Err(error) => Err(error.to_string()),
    }
}

/// `command` split into words: whitespace separates them, `'...'` keeps
/// everything as it is, `"..."` keeps everything but `\"` and `\\` (each
/// one character), and a backslash outside quotes keeps the next one.
fn words(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a `'` is never closed".into()),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a `\"` is never closed".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a `\"` is never closed".into()),
                    }
                }
            }
            '\\' => {
                let escaped = chars.next().ok_or("a `\\` ends the command")?;
                word.get_or_insert_with(String::new).push(escaped);
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn commands_split_as_a_shell_splits_them() {
        assert_eq!(words("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            words(r#"'/x y/bin' "a \"b\"" c\ d ''"#).unwrap(),
            ["/x y/bin", "a \"b\"", "c d", ""]
        );
        assert!(words("'open").is_err());
        assert!(words("\"open").is_err());
        assert!(words("x\\").is_err());
    }
}
