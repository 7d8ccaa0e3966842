//! A small, real HTTP/1.1 server on 127.0.0.1: an in-memory issue tracker for
//! the demo and the tests. It records every request exactly as it arrived
//! (raw target, headers, body), so tests can check what the agent sent.
//!
//! One thread, one request per connection, bounded reads; it stops when the
//! `Server` is dropped.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

/// A request as the server received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub method: String,
    /// The request target exactly as sent: path and query, still encoded.
    pub target: String,
    /// Header names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    pub fn query(&self) -> Option<&str> {
        self.target.split_once('?').map(|(_, q)| q)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

#[derive(Debug, Clone)]
struct Issue {
    number: u64,
    title: String,
    body: Value,
    labels: Value,
    state: String,
    state_reason: Value,
    locked: bool,
}

impl Issue {
    fn json(&self) -> Value {
        json!({
            "number": self.number, "title": self.title, "body": self.body, "labels": self.labels,
            "state": self.state, "state_reason": self.state_reason, "locked": self.locked,
        })
    }
}

type Tracker = BTreeMap<String, Vec<Issue>>;

pub struct Server {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<Recorded>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds an ephemeral port on 127.0.0.1 and serves until dropped. The
    /// repository `acme/app` starts with two issues.
    pub fn start() -> std::io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let mut tracker = Tracker::new();
        tracker.insert(
            "acme/app".to_owned(),
            vec![
                issue(1, "Crash on start", json!(["bug"]), "open"),
                issue(2, "Dark mode", json!(["feature"]), "open"),
            ],
        );
        let thread = {
            let (log, stop) = (Arc::clone(&log), Arc::clone(&stop));
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        let _ = serve(stream, &log, &mut tracker);
                    }
                }
            })
        };
        Ok(Server {
            addr,
            log,
            stop,
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.log.lock().map(|log| log.clone()).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn issue(number: u64, title: &str, labels: Value, state: &str) -> Issue {
    Issue {
        number,
        title: title.to_owned(),
        body: Value::Null,
        labels,
        state: state.to_owned(),
        state_reason: Value::Null,
        locked: false,
    }
}

const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 1024 * 1024;

fn serve(
    stream: TcpStream,
    log: &Mutex<Vec<Recorded>>,
    tracker: &mut Tracker,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut head = Vec::new();
    let mut line = String::new();
    while reader.read_line(&mut line)? > 0 && head.len() < MAX_HEAD {
        if line == "\r\n" || line == "\n" {
            break;
        }
        head.push(line.trim_end().to_owned());
        line.clear();
    }
    let Some((method, target)) = head.first().and_then(|l| {
        let mut parts = l.split(' ');
        Some((parts.next()?.to_owned(), parts.next()?.to_owned()))
    }) else {
        return respond(stream, 400, &json!({"error": "bad request line"}));
    };
    let headers: Vec<(String, String)> = head[1..]
        .iter()
        .filter_map(|h| h.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_BODY);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request = Recorded {
        method,
        target,
        headers,
        body,
    };
    if let Ok(mut log) = log.lock() {
        log.push(request.clone());
    }
    let (status, reply) = route(&request, tracker);
    respond(stream, status, &reply)
}

fn respond(mut stream: TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Error",
    };
    let text = if status == 204 {
        String::new()
    } else {
        body.to_string()
    };
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
        text.len()
    )?;
    stream.flush()
}

fn decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| segment.get(i + 1..i + 3))
            .flatten();
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn route(request: &Recorded, tracker: &mut Tracker) -> (u16, Value) {
    let segments: Vec<String> = request.path().split('/').skip(1).map(decode).collect();
    let query: BTreeMap<String, String> = request
        .query()
        .unwrap_or("")
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let not_found = (404, json!({"error": "not found"}));
    let (repo, rest) = match segments.as_slice() {
        ["repos", repo, "issues", rest @ ..] => (repo.to_string(), rest),
        _ => return not_found,
    };
    let issues = tracker.entry(repo).or_default();
    let number = rest.first().and_then(|n| n.parse::<u64>().ok());
    let find = |issues: &mut Vec<Issue>, n: u64| issues.iter().position(|i| i.number == n);
    match (request.method.as_str(), rest, number) {
        ("GET", [], _) => {
            let state = query.get("state").map_or("open", String::as_str);
            let limit = query
                .get("limit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(usize::MAX);
            let list: Vec<Value> = issues
                .iter()
                .rev()
                .filter(|i| state == "all" || i.state == state)
                .take(limit)
                .map(Issue::json)
                .collect();
            (200, Value::Array(list))
        }
        ("POST", [], _) => {
            let body = request.json();
            let Some(title) = body["title"].as_str() else {
                return (400, json!({"error": "title is required"}));
            };
            let number = issues.iter().map(|i| i.number).max().unwrap_or(0) + 1;
            let mut new = issue(number, title, body["labels"].clone(), "open");
            new.body = body["body"].clone();
            issues.push(new.clone());
            (201, new.json())
        }
        ("GET", [_], Some(n)) => match find(issues, n) {
            Some(i) => (200, issues[i].json()),
            None => not_found,
        },
        ("PATCH", [_], Some(n)) => match find(issues, n) {
            Some(i) => {
                let body = request.json();
                if let Some(state) = body["state"].as_str() {
                    issues[i].state = state.to_owned();
                }
                issues[i].state_reason = body["state_reason"].clone();
                (200, issues[i].json())
            }
            None => not_found,
        },
        ("DELETE", [_], Some(n)) => match find(issues, n) {
            Some(i) => {
                issues.remove(i);
                (204, Value::Null)
            }
            None => not_found,
        },
        ("PUT", [_, "lock"], Some(n)) => match find(issues, n) {
            Some(i) => {
                issues[i].locked = true;
                (200, issues[i].json())
            }
            None => not_found,
        },
        _ => not_found,
    }
}
