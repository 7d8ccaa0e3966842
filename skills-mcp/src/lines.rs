//! The stdio transport's lines, read before the MCP library sees them.
//!
//! rmcp drops a line that is not JSON without a word (its issue 938: a reply
//! could start an error storm with a peer that echoes). A host whose encoder
//! writes `NaN`, `1e400` or a lone surrogate then waits for an answer that
//! never comes. JSON-RPC 2.0 answers such a line with `-32700`, and so does
//! this server: with the request's `id` when it can be read from the broken
//! line, `null` otherwise. A reply is valid JSON, so a peer that echoes it
//! sends a valid message back, not another broken one.
//!
//! A line nested deeper than the parser goes (128 levels) is valid JSON that
//! rmcp would also drop. For `tools/call` it is answered as the checker
//! answers any arguments deeper than [`skills::tables::MAX_DEPTH`]: a tool error
//! result, nothing sent.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Notify};

use crate::error::Error;
use crate::server::SkillsServer;

/// The longest line read; the rest of a longer line is skipped and the
/// line answered with `-32700`. rmcp's own limit, which drops it silently.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The most requests the server works on at once. A client that sends
/// requests and does not read the replies is no longer read once this many
/// await theirs: the replies wait in the pipe, not in memory (200 large
/// `resources/read` sent without reading grew the server to 5.6 GB).
pub(crate) const MAX_IN_FLIGHT: usize = 8;

/// How deep `serde_json` parses: a line that nests deeper is refused by it.
const PARSER_DEPTH: usize = 127;

/// What to do with one line of input.
#[derive(Debug, PartialEq)]
pub enum Line {
    /// Blank: nothing to do.
    Skip,
    /// Valid JSON, parsed: the MCP library reads it.
    Forward(Value),
    /// Answered here, with this JSON-RPC message.
    Answer(Value),
}

/// Classifies one line (without its `\n`; a trailing `\r` and a leading
/// byte order mark are allowed, as rmcp allows them). `cut` says the line
/// was longer than `MAX_LINE_BYTES` and this is its start. `too_deep`
/// gives the tool error text for a call of a tool whose arguments nest too
/// deep to parse.
///
/// Never panics, on any bytes.
pub fn classify(line: &[u8], cut: bool, too_deep: &dyn Fn(&str) -> String) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if !cut && line.iter().all(u8::is_ascii_whitespace) {
        return Line::Skip;
    }
    let fields = Fields::scan(line);
    if cut {
        return Line::Answer(parse_error(
            fields.id,
            &format!("the message is longer than {MAX_LINE_BYTES} bytes"),
        ));
    }
    if let Err(error) = std::str::from_utf8(line) {
        return Line::Answer(parse_error(
            fields.id,
            &format!("the message is not UTF-8 (byte {})", error.valid_up_to()),
        ));
    }
    if fields.depth > PARSER_DEPTH {
        return match (fields.method.as_deref(), fields.id, fields.tool) {
            (Some("tools/call"), Some(id), Some(tool)) => Line::Answer(json!({
                "jsonrpc": "2.0",
                "id": id,
                "result": {
                    "content": [{"type": "text", "text": too_deep(&tool)}],
                    "isError": true,
                },
            })),
            (_, id, _) => Line::Answer(parse_error(
                id,
                &format!("the message nests more than {PARSER_DEPTH} levels deep"),
            )),
        };
    }
    // Parsed as rmcp parses it, into values: skipping a number (an
    // `IgnoredAny`) would let `1e400` through, which a `Value` refuses.
    match serde_json::from_slice::<Value>(line) {
        Ok(message) => match not_a_request(&message) {
            Some(answer) => Line::Answer(answer),
            None => Line::Forward(message),
        },
        Err(error) => Line::Answer(parse_error(fields.id, &error.to_string())),
    }
}

/// The JSON-RPC error for JSON that is not a message the server can take,
/// which the MCP library would drop without a word (or answer `-32601` for
/// a known method whose parameters it could not read): `-32600` for what is
/// not a request or a response, `-32602` for `skills/get` without its `uri`.
fn not_a_request(message: &Value) -> Option<Value> {
    let Value::Object(fields) = message else {
        let detail = match message {
            Value::Array(_) => {
                "a batch: JSON-RPC batches are not taken (MCP removed them); send each message on a line of its own"
            }
            _ => "a message is a JSON object",
        };
        return Some(error_reply(Value::Null, -32600, detail));
    };
    // An id that MCP allows (a string or an integer) is echoed; any other is
    // itself the problem, and the reply's id is null.
    let id = match fields.get("id") {
        None => Value::Null,
        Some(id) if id.is_string() || id.is_i64() || id.is_u64() => id.clone(),
        Some(_) => {
            return Some(error_reply(
                Value::Null,
                -32600,
                "`id` must be a string or an integer",
            ));
        }
    };
    if fields.get("jsonrpc") != Some(&Value::String("2.0".to_owned())) {
        return Some(error_reply(id, -32600, "`jsonrpc` must be \"2.0\""));
    }
    let method = match fields.get("method") {
        Some(Value::String(method)) => method,
        Some(_) => return Some(error_reply(id, -32600, "`method` must be a string")),
        // A response to one of the server's own requests.
        None if fields.contains_key("result") || fields.contains_key("error") => return None,
        None => return Some(error_reply(id, -32600, "the message has no `method`")),
    };
    let params = fields.get("params");
    if params.is_some_and(|p| !p.is_object() && !p.is_array()) {
        return Some(error_reply(id, -32600, "`params` must be an object"));
    }
    if method == "skills/get"
        && !params
            .and_then(|p| p.get("uri"))
            .is_some_and(Value::is_string)
    {
        return Some(error_reply(
            id,
            -32602,
            "`skills/get` takes `uri`, a string: the skill's `skill://<name>/SKILL.md`",
        ));
    }
    None
}

fn error_reply(id: Value, code: i64, detail: &str) -> Value {
    let kind = match code {
        -32600 => "Invalid request",
        -32602 => "Invalid params",
        _ => "Error",
    };
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": format!("{kind}: {detail}")},
    })
}

/// Serving over the stdio transport, beside the filter its lines go
/// through: `server.rs` imports nothing from this file.
impl SkillsServer {
    /// Serves over stdio until the client disconnects.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        self.serve_lines(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves newline-delimited JSON-RPC (the stdio transport) read from
    /// `input`, replies written to `output`, until `input` ends. A line
    /// that is not JSON gets a `-32700` reply with its `id` when it can be
    /// read, where the MCP library alone would stay silent.
    pub async fn serve_lines<R, W>(self, input: R, output: W) -> Result<(), Error>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        serve(self, input, output).await
    }
}

/// Serves `server` over a line transport: requests read from `input`, every
/// reply (the server's and this filter's) written whole to `output`.
///
/// The MCP library gets messages, not bytes: each line is parsed once, here,
/// and the server's replies are written by the transport itself. Through a
/// pipe, rmcp parsed each line again and a task copied each reply: the line
/// reader then added 18 µs to a `tools/call` on one thread, now 9
/// (BENCHMARKS.md, issue 44 item 3).
pub(crate) async fn serve<R, W>(server: SkillsServer, input: R, output: W) -> Result<(), Error>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let (to_server, messages) = tokio::sync::mpsc::channel(MESSAGES_QUEUED);
    let answers = server.clone();
    let in_flight = Arc::new(InFlight::default());
    let reader = tokio::spawn(read(
        input,
        to_server,
        Arc::clone(&output),
        Arc::clone(&in_flight),
        move |tool| answers.too_deep(tool),
    ));
    let transport = Transport {
        messages,
        output,
        in_flight,
    };
    let running = rmcp::ServiceExt::serve(server, transport)
        .await
        .map_err(|error| Error(format!("MCP initialisation failed: {error}")))?;
    let stopped = running
        .waiting()
        .await
        .map_err(|error| Error(format!("the MCP server stopped: {error}")));
    reader.abort();
    stopped.map(drop)
}

/// Messages read and not yet taken by the server. The reader waits when
/// they are this many, as it waited on a full pipe before.
const MESSAGES_QUEUED: usize = 64;

/// A message the MCP library reads, as the line reader parsed it.
type Incoming = rmcp::service::RxJsonRpcMessage<rmcp::RoleServer>;

/// Reads lines until the input ends, forwarding the valid ones to the
/// server and answering the rest. A request waits for one of the
/// [`MAX_IN_FLIGHT`] places before it is forwarded; [`Transport`] frees one
/// as each reply is written.
async fn read<R, W>(
    input: R,
    to_server: tokio::sync::mpsc::Sender<Incoming>,
    output: Arc<Mutex<W>>,
    in_flight: Arc<InFlight>,
    too_deep: impl Fn(&str) -> String,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    while let Ok(Some(cut)) = read_line(&mut input, &mut line).await {
        let sent = match classify(&line, cut, &too_deep) {
            Line::Skip => Ok(()),
            Line::Forward(message) => match message_of(&message) {
                Ok(Some(incoming)) => {
                    enter(&in_flight, &message).await;
                    if to_server.send(incoming).await.is_err() {
                        break;
                    }
                    Ok(())
                }
                Ok(None) => Ok(()),
                Err(reply) => write_line(&output, &reply.to_string().into_bytes()).await,
            },
            Line::Answer(reply) => write_line(&output, &reply.to_string().into_bytes()).await,
        };
        if sent.is_err() {
            break;
        }
        line.clear();
    }
    // Dropping `to_server` ends the server's input: it stops.
}

/// The MCP library's message for a JSON-RPC message that passed
/// [`classify`]: `Ok(None)` for a notification it cannot read (JSON-RPC
/// never answers a notification; rmcp drops those too), and for a request
/// it cannot read, the `-32600` answer that says why, with its `id`.
fn message_of(message: &Value) -> Result<Option<Incoming>, Value> {
    match Incoming::deserialize(message) {
        Ok(incoming) => Ok(Some(incoming)),
        Err(_) if message.get("id").is_none() => Ok(None),
        Err(error) => Err(error_reply(
            message.get("id").cloned().unwrap_or(Value::Null),
            -32600,
            &format!("not a message this server reads: {error}"),
        )),
    }
}

/// Holds a place for a request (it waits for one), and frees the place of
/// the request a `notifications/cancelled` names.
async fn enter(in_flight: &InFlight, message: &Value) {
    match (
        message.get("id"),
        message.get("method").and_then(Value::as_str),
    ) {
        (Some(id), Some(_)) => in_flight.enter(id.to_string()).await,
        (_, Some("notifications/cancelled")) => {
            if let Some(id) = message.pointer("/params/requestId") {
                in_flight.leave(&id.to_string()).await;
            }
        }
        _ => {}
    }
}

/// The MCP library's side of the line transport: the messages the reader
/// parsed in, the server's own written out as lines beside the reader's
/// answers (never interleaved), each reply freeing its request's place.
struct Transport<W> {
    messages: tokio::sync::mpsc::Receiver<Incoming>,
    output: Arc<Mutex<W>>,
    in_flight: Arc<InFlight>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> rmcp::transport::Transport<rmcp::RoleServer>
    for Transport<W>
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        message: rmcp::service::TxJsonRpcMessage<rmcp::RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = Arc::clone(&self.output);
        let in_flight = Arc::clone(&self.in_flight);
        async move {
            let line = serde_json::to_vec(&message)?;
            write_line(&output, &line).await?;
            let fields = Fields::scan(&line);
            if let (Some(id), None) = (&fields.id, &fields.method) {
                in_flight.leave(&id.to_string()).await;
            }
            Ok(())
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<Incoming>> + Send {
        self.messages.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.messages.close();
        Ok(())
    }
}

/// Reads one line into `line`, keeping at most [`MAX_LINE_BYTES`] of it:
/// `Some(cut)` for a line (the last one may lack its `\n`), `None` at the
/// end of the input.
async fn read_line(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    let mut cut = false;
    let mut read_any = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(read_any.then_some(cut));
        }
        read_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let room = MAX_LINE_BYTES - line.len();
        cut |= chunk.len() > room;
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(available.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(cut));
        }
    }
}

/// The ids of the requests the server is working on, at most
/// [`MAX_IN_FLIGHT`]. A request leaves when its reply is written, or when
/// the client cancels it (the server then sends no reply); an id is held
/// once, so a cancel of a request already answered frees nothing.
#[derive(Default)]
pub(crate) struct InFlight {
    ids: Mutex<std::collections::HashSet<String>>,
    left: Notify,
}

impl InFlight {
    /// Waits for a place, then holds it for `id`.
    async fn enter(&self, id: String) {
        loop {
            let left = self.left.notified();
            {
                let mut ids = self.ids.lock().await;
                if ids.len() < MAX_IN_FLIGHT || ids.contains(&id) {
                    ids.insert(id);
                    return;
                }
            }
            left.await;
        }
    }

    async fn leave(&self, id: &str) {
        if self.ids.lock().await.remove(id) {
            self.left.notify_waiters();
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(output: &Mutex<W>, line: &[u8]) -> std::io::Result<()> {
    let mut output = output.lock().await;
    output.write_all(line).await?;
    if !line.ends_with(b"\n") {
        output.write_all(b"\n").await?;
    }
    output.flush().await
}

fn parse_error(id: Option<Value>, detail: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": {"code": -32700, "message": format!("Parse error: {detail}")},
    })
}

/// What can be read of a message that may not parse: its top-level `id`
/// and `method`, `params.name`, and how deep it nests. A scan, not a parse:
/// it tracks strings and brackets, and reads only the values it needs.
#[derive(Debug, Default)]
struct Fields {
    id: Option<Value>,
    method: Option<String>,
    tool: Option<String>,
    depth: usize,
}

impl Fields {
    fn scan(line: &[u8]) -> Fields {
        let mut fields = Fields::default();
        let mut depth = 0usize;
        // The key at level 1 whose object we are in (for `params.name`).
        let mut in_params = false;
        let mut i = 0;
        while i < line.len() {
            match line[i] {
                b'"' => {
                    let end = string_end(line, i);
                    let is_key = next_non_space(line, end) == Some(b':');
                    if is_key {
                        let key = &line[i + 1..end - 1];
                        let colon = skip_space(line, end);
                        let value_at = skip_space(line, colon + 1);
                        match (depth, key) {
                            (1, b"id") => fields.id = scalar(line, value_at).filter(is_id),
                            (1, b"method") => fields.method = text(scalar(line, value_at)),
                            (1, b"params") => in_params = line.get(value_at) == Some(&b'{'),
                            (2, b"name") if in_params => {
                                fields.tool = text(scalar(line, value_at));
                            }
                            _ => {}
                        }
                    }
                    i = end;
                    continue;
                }
                b'{' | b'[' => {
                    depth += 1;
                    fields.depth = fields.depth.max(depth);
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 1 {
                        in_params = false;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        fields
    }
}

/// The index just past the string that starts at `start` (a `"`), or the
/// end of the line for an unterminated one.
fn string_end(line: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

fn skip_space(line: &[u8], mut i: usize) -> usize {
    while line.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn next_non_space(line: &[u8], from: usize) -> Option<u8> {
    line.get(skip_space(line, from)).copied()
}

/// The scalar value (string, number, literal) that starts at `at`, parsed;
/// `None` when it is a container or does not parse on its own.
fn scalar(line: &[u8], at: usize) -> Option<Value> {
    let end = match line.get(at)? {
        b'"' => string_end(line, at),
        b'{' | b'[' => return None,
        _ => {
            let rest = &line[at..];
            at + rest
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())
                .unwrap_or(rest.len())
        }
    };
    serde_json::from_slice(&line[at..end]).ok()
}

fn text(value: Option<Value>) -> Option<String> {
    match value? {
        Value::String(text) => Some(text),
        _ => None,
    }
}

/// JSON-RPC ids are strings, integers or null.
fn is_id(value: &Value) -> bool {
    value.is_string() || value.is_i64() || value.is_u64() || value.is_null()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn too_deep(tool: &str) -> String {
        format!("too deep for {tool}")
    }

    fn answer(line: &[u8]) -> Value {
        match classify(line, false, &too_deep) {
            Line::Answer(value) => value,
            other => panic!("{other:?} for {}", String::from_utf8_lossy(line)),
        }
    }

    #[test]
    fn valid_lines_go_on_parsed_and_blank_ones_are_skipped() {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        assert_eq!(
            classify(
                br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                false,
                &too_deep
            ),
            Line::Forward(ping.clone())
        );
        assert_eq!(
            classify(
                b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
                false,
                &too_deep
            ),
            Line::Forward(ping)
        );
        assert_eq!(classify(b" \r", false, &too_deep), Line::Skip);
    }

    #[test]
    fn a_message_the_library_cannot_read_is_answered_when_it_is_a_request() {
        // Parameters by position, which rmcp reads for no method: a request
        // gets `-32600` with its id and why; a notification gets nothing.
        let request = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": []});
        let reply = message_of(&request).unwrap_err();
        assert_eq!(reply["id"], 4);
        assert_eq!(reply["error"]["code"], -32600);
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not a message this server reads"),
            "{reply}"
        );
        let notification =
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": []});
        assert!(matches!(message_of(&notification), Ok(None)));
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        assert!(matches!(message_of(&ping), Ok(Some(_))));
    }

    #[test]
    fn the_id_is_read_from_a_broken_line_when_it_can_be() {
        assert_eq!(answer(br#"{"id": 7, "x": NaN}"#)["id"], 7);
        assert_eq!(answer(br#"{"x": NaN, "id":"a\"b"}"#)["id"], "a\"b");
        // Nested `id`s are not the request's.
        assert_eq!(
            answer(br#"{"params": {"id": 3}, "x": NaN}"#)["id"],
            Value::Null
        );
        // An id that is no JSON-RPC id is not echoed.
        assert_eq!(answer(br#"{"id": 1e400}"#)["id"], Value::Null);
        assert_eq!(answer(br#"{"id": [1], "x": NaN}"#)["id"], Value::Null);
        assert_eq!(answer(b"{\"id\": 5, \"x\": \"\xff\"}")["id"], 5);
        assert_eq!(answer(br#"{"id": 5, "x": "unterminated"#)["id"], 5);
    }

    #[test]
    fn a_cut_line_is_answered_with_its_id() {
        let Line::Answer(reply) = classify(br#"{"id": 8, "params": {"x": "aaaa"#, true, &too_deep)
        else {
            panic!()
        };
        assert_eq!(reply["id"], 8);
        assert_eq!(reply["error"]["code"], -32700);
    }

    #[tokio::test]
    async fn a_line_longer_than_the_limit_is_cut_and_the_next_one_read_whole() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n{}\nlast");
        let mut input = BufReader::with_capacity(4096, input.as_slice());
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line).await.unwrap(), Some(true));
        assert_eq!(line.len(), MAX_LINE_BYTES);
        line.clear();
        assert_eq!(read_line(&mut input, &mut line).await.unwrap(), Some(false));
        assert_eq!(line, b"{}");
        line.clear();
        assert_eq!(read_line(&mut input, &mut line).await.unwrap(), Some(false));
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(read_line(&mut input, &mut line).await.unwrap(), None);
    }

    #[test]
    fn a_call_too_deep_to_parse_gets_the_checkers_answer() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"save","arguments":{{"a":{}1{}}}}}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let reply = answer(deep.as_bytes());
        assert_eq!(reply["id"], 4);
        assert_eq!(reply["result"]["isError"], true);
        assert_eq!(reply["result"]["content"][0]["text"], "too deep for save");
        // Any other deep message is a parse error.
        let deep = deep.replace("tools/call", "ping");
        assert_eq!(answer(deep.as_bytes())["error"]["code"], -32700);
        // At the parser's limit, the line goes on: a request whose
        // parameters nest to it (the message and `params` are two levels).
        let nested = |levels: usize| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"a":{}1{}}}}}"#,
                "[".repeat(levels - 2),
                "]".repeat(levels - 2)
            )
        };
        let fits = nested(PARSER_DEPTH);
        assert!(matches!(
            classify(fits.as_bytes(), false, &too_deep),
            Line::Forward(_)
        ));
        let over = nested(PARSER_DEPTH + 1);
        assert!(matches!(
            classify(over.as_bytes(), false, &too_deep),
            Line::Answer(_)
        ));
    }
}
