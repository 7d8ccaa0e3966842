//! The MCP server's stdio line filter on arbitrary bytes, as one line read
//! whole and as the start of a cut one. Every line is skipped, forwarded
//! (it is JSON) or answered with a JSON-RPC 2.0 message; any panic is a bug.
//!
//!     cargo fuzz run jsonrpc_line --sanitizer none      # works on stable Rust
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_mcp::lines::{Line, classify};

fuzz_target!(|data: &[u8]| {
    let too_deep = |tool: &str| format!("too deep for {tool}");
    for cut in [false, true] {
        match classify(data, cut, &too_deep) {
            Line::Skip => assert!(!cut),
            Line::Forward(_) => {
                assert!(!cut);
                let line = data.strip_suffix(b"\r").unwrap_or(data);
                let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                assert!(serde_json::from_slice::<serde_json::Value>(line).is_ok());
            }
            Line::Answer(reply) => {
                assert_eq!(reply["jsonrpc"], "2.0");
                let id = &reply["id"];
                assert!(id.is_null() || id.is_string() || id.is_i64() || id.is_u64());
                assert!(reply.get("error").is_some() != reply.get("result").is_some());
            }
        }
    }
});
