//! Which skill a request is for, asked of a model as a host asks it: the
//! catalogue in the system prompt, `load_skill` as the one tool (its enum
//! the listed names), the request as the user's turn, and the first
//! `load_skill` call (or none) as the choice. No skill's body is sent.
//!
//! [`ModelRouter`] builds the HTTP request and reads the reply; sending is
//! the caller's (as with [`Call::request`](crate::Call::request)), or
//! `ask::ask_all`'s (feature `ask`: bounded, retried), so the same router
//! serves `cargo skills test --router` and a host's own client.
//!
//! ```
//! use skills::model::Provider;
//! use skills::route::ModelRouter;
//! # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
//!
//! let toolset = skills::Toolset::new(&agent::SKILLS);
//! let router = ModelRouter::new(Provider::Anthropic, "claude-sonnet-4-5", &toolset, "- forms: Fill in PDF forms.\n", "sk-test");
//! let request = router.request("fill in this form");
//! assert_eq!(request.uri(), "https://api.anthropic.com/v1/messages");
//! let reply = serde_json::json!({"content": [
//!     {"type": "tool_use", "id": "t1", "name": "load_skill", "input": {"name": "forms"}}
//! ]});
//! assert_eq!(router.choice(&reply).unwrap().as_deref(), Some("forms"));
//! ```

#[cfg(feature = "ask")]
pub mod ask;
mod router;

pub use router::{ModelRouter, RoutingModel};
