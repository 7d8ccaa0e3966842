//! An agent that turns model tool calls into policed, escaped HTTP requests.
//!
//! A stand-in for a model writes tool calls as JSON lines
//! (`{"tool": "...", "arguments": {...}}`). `load_skill` and
//! `read_skill_resource` are answered by the host toolset
//! (`skills::Toolset`): the model opens a skill and its files. Every other
//! call becomes a checked call (bad calls get a clear error and the agent
//! keeps going), its build-time policy is enforced (Deny is never sent;
//! Confirm asks on the terminal unless `--yes`), and the request is sent with
//! a real HTTP client.

use std::io::{BufRead, Write};

pub mod server;

pub mod agent_skills {
    skills::include_skills!("skills");
}

use skills::Policy;

/// How calls that need confirmation are decided.
pub enum Confirm {
    /// Approve every one (`--yes`, and the demo).
    Yes,
    /// Ask on the controlling terminal; refuse when there is none.
    Terminal,
}

pub struct Agent<W: Write> {
    http: ureq::Agent,
    origin: Option<String>,
    confirm: Confirm,
    out: W,
}

impl<W: Write> Agent<W> {
    /// `origin` replaces the declared `scheme://host[:port]` of every request.
    pub fn new(origin: Option<String>, confirm: Confirm, out: W) -> Self {
        let config = ureq::Agent::config_builder()
            // Report 4xx and 5xx like any response; keep loopback traffic off proxies.
            .http_status_as_error(false)
            .proxy(None)
            .timeout_global(Some(std::time::Duration::from_secs(10)))
            .build();
        Agent {
            http: config.into(),
            origin,
            confirm,
            out,
        }
    }

    /// Writes a line of commentary to the agent's output.
    pub fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")
    }

    /// Handles every line of `input`.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            self.handle(&line?)?;
        }
        Ok(())
    }

    /// Handles one model tool call; problems are reported and the agent goes on.
    pub fn handle(&mut self, line: &str) -> std::io::Result<()> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        match self.call(line) {
            Ok(()) => Ok(()),
            Err(Problem::Io(error)) => Err(error),
            Err(Problem::Reported(message)) => writeln!(self.out, "  error: {message}"),
        }
    }

    fn call(&mut self, line: &str) -> Result<(), Problem> {
        let (name, arguments) = parse_line(line).map_err(|message| {
            let _ = writeln!(self.out, "> {line}");
            Problem::Reported(message)
        })?;
        writeln!(self.out, "> {name} {arguments}")?;
        let value: serde_json::Value = serde_json::from_str(&arguments).unwrap_or_default();
        if let Some(answer) = skills::Toolset::new(&agent_skills::SKILLS).respond(&name, &value) {
            let (label, text) = match &answer {
                Ok(text) => ("answer", text),
                Err(text) => ("error", text),
            };
            writeln!(self.out, "  {label} ({} bytes):", text.len())?;
            for line in text.lines() {
                writeln!(self.out, "  | {line}")?;
            }
            return Ok(());
        }
        let call = tool_call(&name, &arguments).map_err(Problem::Reported)?;
        let policy = call.policy();
        writeln!(self.out, "  policy: {}", policy.as_str())?;
        let mut call = call;
        match policy {
            Policy::Allow => {}
            Policy::Deny => {
                let method = call.tool().endpoint().map_or("", |e| e.method().as_str());
                writeln!(
                    self.out,
                    "  refused: `{name}` changes state ({method}) and this skill does not allow it: it is not in \
                     `allow_write`, and `default_mode` is readonly. Not sent.",
                )?;
                return Ok(());
            }
            Policy::Confirm => {
                // The request is shown before it is sent, and sent only if the user agrees.
                let shown = self.request(&call.clone().confirmed())?;
                let question = format!("send {} {}?", shown.method(), shown.uri());
                if !self.confirmed(&question)? {
                    return Ok(());
                }
                call = call.confirmed();
            }
        }
        let request = self.request(&call)?;
        writeln!(
            self.out,
            "  request: {} {}",
            request.method(),
            request.uri()
        )?;
        if !request.body().is_empty() {
            writeln!(
                self.out,
                "           {}",
                String::from_utf8_lossy(request.body())
            )?;
        }
        match self.http.run(request) {
            Ok(mut response) => {
                let status = response.status();
                let body = response.body_mut().read_to_string().unwrap_or_default();
                writeln!(self.out, "  response: {} {}", status.as_u16(), body.trim())?;
                Ok(())
            }
            Err(error) => Err(Problem::Reported(format!("the request failed: {error}"))),
        }
    }

    /// The call's request, to the origin given on the command line if any.
    fn request(&self, call: &skills::Call<'_>) -> Result<skills::http::Request<Vec<u8>>, Problem> {
        match &self.origin {
            Some(origin) => call.request_to(origin),
            None => call.request(),
        }
        .map_err(|e| Problem::Reported(e.to_string()))
    }

    fn confirmed(&mut self, question: &str) -> Result<bool, Problem> {
        match self.confirm {
            Confirm::Yes => {
                writeln!(
                    self.out,
                    "  confirmed: {question} (approved up front: --yes, or the demo)"
                )?;
                Ok(true)
            }
            Confirm::Terminal => match ask_terminal(question) {
                Some(true) => Ok(true),
                Some(false) => {
                    writeln!(self.out, "  declined. Not sent.")?;
                    Ok(false)
                }
                None => {
                    writeln!(
                        self.out,
                        "  refused: this call needs confirmation and there is no terminal to ask on \
                         (run with --yes to approve). Not sent."
                    )?;
                    Ok(false)
                }
            },
        }
    }
}

enum Problem {
    /// Reported to the user; the agent goes on.
    Reported(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Problem {
    fn from(error: std::io::Error) -> Self {
        Problem::Io(error)
    }
}

/// `{"tool": "...", "arguments": {...}}` -> the name and the arguments' JSON text.
fn parse_line(line: &str) -> Result<(String, String), String> {
    const SHAPE: &str =
        r#"a tool call is one JSON object per line: {"tool": "name", "arguments": {...}}"#;
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON ({e}); {SHAPE}"))?;
    let name = value
        .get("tool")
        .and_then(|t| t.as_str())
        .ok_or_else(|| format!("no `tool` name; {SHAPE}"))?;
    let arguments = match value.get("arguments") {
        None => serde_json::json!({}),
        Some(arguments) if arguments.is_object() => arguments.clone(),
        Some(_) => return Err(format!("`arguments` must be an object; {SHAPE}")),
    };
    Ok((name.to_owned(), arguments.to_string()))
}

/// The checked call, from whichever skill declares the tool: the set-level
/// dispatch model APIs need (they name tools, not skills). A name that two
/// skills declare is an error, never a guess.
fn tool_call(name: &str, arguments: &str) -> Result<skills::Call<'static>, String> {
    agent_skills::SKILLS
        .parse_call(name, arguments)
        .map_err(|error| match error {
            skills::ToolCallError::UnknownTool { expected, .. } => format!(
                "unknown tool `{name}`; this agent knows: {}",
                expected.join(", ")
            ),
            other => other.to_string(),
        })
}

/// Asks on the controlling terminal; `None` when there is none.
fn ask_terminal(question: &str) -> Option<bool> {
    let mut tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .ok()?;
    write!(tty, "  {question} [y/N] ").ok()?;
    tty.flush().ok()?;
    let mut answer = String::new();
    std::io::BufReader::new(tty).read_line(&mut answer).ok()?;
    Some(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// The scripted conversation of `--demo`: what a model might send, good and bad.
pub const DEMO: &[(&str, &str)] = &[
    (
        "The model loads the tracker skill: its instructions and its files.",
        r#"{"tool": "load_skill", "arguments": {"name": "tracker"}}"#,
    ),
    (
        "It reads the label guide the skill points to.",
        r#"{"tool": "read_skill_resource", "arguments": {"name": "tracker", "path": "references/labels.md"}}"#,
    ),
    (
        "A path out of the skill is an error the model can read.",
        r#"{"tool": "read_skill_resource", "arguments": {"name": "tracker", "path": "../issue-triage/SKILL.md"}}"#,
    ),
    (
        "The model looks at the open issues.",
        r#"{"tool": "list_issues", "arguments": {"repo": "acme/app"}}"#,
    ),
    (
        "It reads one.",
        r#"{"tool": "get_issue", "arguments": {"repo": "acme/app", "number": 1}}"#,
    ),
    (
        "It files a bug; quotes in the title stay inside their JSON string.",
        r#"{"tool": "create_issue", "arguments": {"repo": "acme/app", "title": "Login fails when the password has \" or '", "labels": ["bug"]}}"#,
    ),
    (
        "It closes a feature request (PATCH with a JSON body).",
        r#"{"tool": "close_issue", "arguments": {"repo": "acme/app", "number": 2, "reason": "not_planned", "comment": "out of scope"}}"#,
    ),
    (
        "It tries to lock an issue: not allowed by the skill, so never sent.",
        r#"{"tool": "lock_issue", "arguments": {"repo": "acme/app", "number": 1}}"#,
    ),
    (
        "It deletes the new issue: needs confirmation (the demo approves).",
        r#"{"tool": "delete_issue", "arguments": {"repo": "acme/app", "number": 3}}"#,
    ),
    (
        "A hostile value stays inside its path segment: `/`, `?` and `#` are escaped.",
        r#"{"tool": "get_issue", "arguments": {"repo": "acme/app?admin=1#x", "number": 1}}"#,
    ),
    (
        "`../admin` is refused: a server that decodes paths would climb out of `/repos`.",
        r#"{"tool": "get_issue", "arguments": {"repo": "../admin", "number": 1}}"#,
    ),
    (
        "A call with a missing field is refused with the field's name.",
        r#"{"tool": "create_issue", "arguments": {"repo": "acme/app"}}"#,
    ),
    (
        "An unknown tool.",
        r#"{"tool": "drop_database", "arguments": {}}"#,
    ),
    ("Not JSON at all.", "close issue 1 please"),
    (
        "Everything, closed issues included.",
        r#"{"tool": "list_issues", "arguments": {"repo": "acme/app", "state": "all"}}"#,
    ),
];
