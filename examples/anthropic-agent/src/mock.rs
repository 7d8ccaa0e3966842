//! A recorded Messages API on loopback: each `POST /v1/messages` gets the
//! next recorded response, and every request body is kept, so that a test
//! sees what the agent sent (its tools, its tool results and their ids).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// The responses of a model that loads the tracker skill, reads its label
/// guide, lists the open issues, then answers.
pub fn recorded() -> Vec<Value> {
    let tool = |id: &str, name: &str, input: Value| {
        json!({"id": format!("msg_{id}"), "type": "message", "role": "assistant", "model": "claude-recorded",
               "stop_reason": "tool_use",
               "content": [{"type": "text", "text": "Let me check."},
                           {"type": "tool_use", "id": id, "name": name, "input": input}]})
    };
    vec![
        tool("toolu_01", "load_skill", json!({"name": "tracker"})),
        tool(
            "toolu_02",
            "read_skill_resource",
            json!({"name": "tracker", "path": "references/labels.md"}),
        ),
        tool("toolu_03", "list_issues", json!({"repo": "acme/app"})),
        json!({"id": "msg_end", "type": "message", "role": "assistant", "model": "claude-recorded",
               "stop_reason": "end_turn",
               "content": [{"type": "text", "text": "acme/app has open issues; new bugs get the `bug` label."}]}),
    ]
}

/// The mock's address and what it received.
pub struct Mock {
    pub origin: String,
    received: Arc<Mutex<Vec<Value>>>,
}

impl Mock {
    /// Starts answering with `responses`, in order (then 500s).
    pub fn start(responses: Vec<Value>) -> std::io::Result<Mock> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let origin = format!("http://{}", listener.local_addr()?);
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&received);
        std::thread::spawn(move || {
            let mut responses = responses.into_iter();
            for stream in listener.incoming().flatten() {
                let mut reader = BufReader::new(stream);
                let Some(body) = read_request(&mut reader) else {
                    continue;
                };
                if let Ok(mut log) = log.lock() {
                    log.push(serde_json::from_slice(&body).unwrap_or(Value::Null));
                }
                let (status, text) = match responses.next() {
                    Some(response) => ("200 OK", response.to_string()),
                    None => (
                        "500 Internal Server Error",
                        "{\"error\": \"no more recorded responses\"}".to_owned(),
                    ),
                };
                let mut stream = reader.into_inner();
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                    text.len()
                );
            }
        });
        Ok(Mock { origin, received })
    }

    /// Every request body received, in order.
    pub fn received(&self) -> Vec<Value> {
        self.received.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

/// The body of one HTTP/1.1 request (its headers read and dropped).
fn read_request(reader: &mut BufReader<std::net::TcpStream>) -> Option<Vec<u8>> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        if header.trim().is_empty() {
            break;
        }
        if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(body)
}
