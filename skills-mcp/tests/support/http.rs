//! A real HTTP/1.1 server on loopback for the tests and the benchmark.

// Each user reads what it needs of the recorded requests.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One request as it arrived at the HTTP server.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// A real HTTP/1.1 server on loopback that records every request and
/// answers `201 {"number": 7}` (or 500 for `/v1/projects/broken/...`).
pub async fn http_server() -> (String, Arc<Mutex<Vec<Received>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let received = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&received);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                let mut data = Vec::new();
                let mut buffer = [0u8; 4096];
                let (head_end, length) = loop {
                    let n = stream.read(&mut buffer).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    data.extend_from_slice(&buffer[..n]);
                    if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&data[..end]).to_lowercase();
                        let length = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .map_or(0, |v| v.trim().parse().unwrap_or(0));
                        break (end + 4, length);
                    }
                };
                while data.len() < head_end + length {
                    let n = stream.read(&mut buffer).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    data.extend_from_slice(&buffer[..n]);
                }
                let head = String::from_utf8_lossy(&data[..head_end - 4]).into_owned();
                let mut lines = head.lines();
                let mut first = lines.next().unwrap_or_default().split(' ');
                let request = Received {
                    method: first.next().unwrap_or_default().to_owned(),
                    target: first.next().unwrap_or_default().to_owned(),
                    headers: lines
                        .filter_map(|l| l.split_once(':'))
                        .map(|(k, v)| (k.to_lowercase(), v.trim().to_owned()))
                        .collect(),
                    body: String::from_utf8_lossy(&data[head_end..]).into_owned(),
                };
                let (status, body) = if request.target.starts_with("/v1/projects/broken") {
                    ("500 Internal Server Error", "{\"error\": \"down\"}")
                } else {
                    ("201 Created", "{\"number\": 7}")
                };
                log.lock().unwrap().push(request);
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    (origin, received)
}
