//! A real HTTP/1.1 server on 127.0.0.1 that answers the tracker skill's
//! `list_issues`, and records every request line it receives.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The server's origin and the request lines it received.
pub struct Tracker {
    /// `http://127.0.0.1:<port>`.
    pub origin: String,
    received: Arc<Mutex<Vec<String>>>,
}

impl Tracker {
    /// Starts the server on a free port.
    pub async fn start() -> std::io::Result<Tracker> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let origin = format!("http://{}", listener.local_addr()?);
        let received: Arc<Mutex<Vec<String>>> = Arc::default();
        let record = Arc::clone(&received);
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                // The request head, bounded; `list_issues` sends no body.
                while head.len() < 16 * 1024 && !head.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte).await {
                        Ok(1) => head.push(byte[0]),
                        _ => break,
                    }
                }
                let head = String::from_utf8_lossy(&head);
                let line = head.lines().next().unwrap_or_default().to_owned();
                let (status, body) = if line.starts_with("GET /api/repos/acme%2Fapp/issues?") {
                    let issues = json!([
                        {"number": 12, "title": "Crash when the config is empty", "labels": ["blocker"]},
                        {"number": 9, "title": "Dark mode", "labels": ["feature"]}
                    ]);
                    ("200 OK", issues.to_string())
                } else {
                    (
                        "404 Not Found",
                        json!({"message": "no such repository"}).to_string(),
                    )
                };
                record.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                let reply = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            }
        });
        Ok(Tracker { origin, received })
    }

    /// The request lines received, in order (`GET /api/... HTTP/1.1`).
    pub fn received(&self) -> Vec<String> {
        self.received
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
