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
/// answers `201 {"number": 7}`, or by the project in the path: `broken`, a
/// 500; `moved`, a 307 to another origin; `huge`, a `Content-Length` of
/// 1 GiB with no body; `endless`, a chunked body that goes on (up to 64 MiB,
/// or until the client stops reading); `silent`, no answer for 10 s;
/// `latin1`, `text/plain; charset=iso-8859-1`; `binary`, four bytes of
/// `application/octet-stream`; `png`, an `image/png`; `mislabelled`,
/// `text/plain` that is not UTF-8.
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
                let project = request
                    .target
                    .split('/')
                    .nth(3)
                    .unwrap_or_default()
                    .to_owned();
                log.lock().unwrap().push(request);
                match project.as_str() {
                    "moved" => {
                        let _ = stream
                            .write_all(b"HTTP/1.1 307 Temporary Redirect\r\nlocation: https://elsewhere.invalid/v1/items\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                            .await;
                        return;
                    }
                    "silent" => {
                        // Holds the connection without answering (10 s at most).
                        tokio::time::sleep(std::time::Duration::from_secs(10)).await;
                        return;
                    }
                    "huge" => {
                        let _ = stream
                            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1073741824\r\nconnection: close\r\n\r\n")
                            .await;
                        return;
                    }
                    "endless" => {
                        let _ = stream
                            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n")
                            .await;
                        let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, "x".repeat(64 * 1024));
                        for _ in 0..1024 {
                            if stream.write_all(chunk.as_bytes()).await.is_err() {
                                return;
                            }
                        }
                        return;
                    }
                    "latin1" | "binary" | "png" | "mislabelled" => {
                        let (content_type, body): (&str, &[u8]) = match project.as_str() {
                            "latin1" => ("text/plain; charset=ISO-8859-1", b"caf\xe9 cr\xe8me"),
                            "binary" => ("application/octet-stream", &[0x00, 0x9f, 0x92, 0x96]),
                            "png" => ("image/png", b"\x89PNG\r\n\x1a\n"),
                            _ => ("text/plain", b"caf\xe9"),
                        };
                        let head = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                            body.len()
                        );
                        let _ = stream.write_all(head.as_bytes()).await;
                        let _ = stream.write_all(body).await;
                        return;
                    }
                    _ => {}
                }
                let (status, body) = if project == "broken" {
                    ("500 Internal Server Error", "{\"error\": \"down\"}")
                } else {
                    ("201 Created", "{\"number\": 7}")
                };
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
