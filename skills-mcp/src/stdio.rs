//! A server started as a child process and checked as a host would load
//! it (feature `stdio-client`): what `cargo skills check mcp+stdio:CMD`
//! does, for any front end.

use std::path::Path;
use std::time::Duration;

use crate::client::{Remote, RemoteError};

/// Starts `command` (a program and its arguments, split as a shell splits
/// them without expanding anything), loads its skills with `remote` into
/// `cache`, and stops it; the number of skills verified and valid. The
/// whole session (start, initialize, listing, reads) is bounded by
/// `session`: a server that never answers, or drips, cannot hold a CI job.
pub async fn check_command(
    command: &str,
    remote: &Remote,
    cache: &Path,
    session: Duration,
) -> Result<usize, String> {
    tokio::time::timeout(session, check(command, remote, cache))
        .await
        .unwrap_or_else(|_| {
            Err(format!(
                "no answer within {} s (`--timeout`): the server was stopped",
                session.as_secs()
            ))
        })
}

async fn check(command: &str, remote: &Remote, cache: &Path) -> Result<usize, String> {
    use rmcp::ServiceExt;
    let mut words = words(command)?.into_iter();
    let program = words
        .next()
        .ok_or_else(|| "no command after `mcp+stdio:`".to_owned())?;
    let mut process = tokio::process::Command::new(program);
    process.args(words).kill_on_drop(true);
    let transport = rmcp::transport::TokioChildProcess::new(process)
        .map_err(|error| format!("cannot start it: {error}"))?;
    let client = remote
        .timed("initialize", ().serve(transport))
        .await
        .map_err(|error| error.to_string())?
        .map_err(|error| format!("no MCP session: {error}"))?;
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
