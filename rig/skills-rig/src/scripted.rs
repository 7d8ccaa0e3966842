//! A scripted Anthropic model, to try an agent without a model key (feature
//! `scripted`): rig's own Anthropic provider, whose HTTP client replays
//! recorded Messages API responses instead of calling the API, and keeps
//! every request it was sent. In rig 0.44 a model is a wire
//! (Anthropic's Messages) on a transport (an HTTP client), so replaying at
//! the HTTP client runs all of rig's real encoding and decoding: the agent
//! cannot tell the difference, and the requests are exactly what Anthropic
//! would have received.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Request, Response};
use rig_core::http_client::{self, HttpClientExt, LazyBody, MultipartForm, StreamingResponse};
use serde_json::Value;

/// Replays `replies` in order; records each request's JSON body.
///
/// ```
/// use rig_core::providers::anthropic::wire::AnthropicConfig;
/// use skills_rig::scripted::ScriptedAnthropic;
///
/// let scripted = ScriptedAnthropic::new(vec![serde_json::json!({
///     "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-scripted",
///     "content": [{"type": "text", "text": "Hello."}],
///     "stop_reason": "end_turn", "stop_sequence": null,
///     "usage": {"input_tokens": 10, "output_tokens": 2}
/// })]);
/// let model = AnthropicConfig::new("no-key-needed")
///     .connect(scripted.clone())
///     .completion("claude-scripted");
/// # let _ = model;
/// ```
#[derive(Clone, Default)]
pub struct ScriptedAnthropic {
    replies: Arc<Mutex<VecDeque<Value>>>,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl ScriptedAnthropic {
    /// A model that answers with `replies`, one per request.
    pub fn new(replies: Vec<Value>) -> ScriptedAnthropic {
        ScriptedAnthropic {
            replies: Arc::new(Mutex::new(replies.into())),
            requests: Arc::default(),
        }
    }

    /// Every request the agent sent, as the Messages API would have read it.
    pub fn requests(&self) -> Vec<Value> {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn answer(&self, body: &[u8]) -> Result<Bytes, String> {
        let request: Value =
            serde_json::from_slice(body).map_err(|error| format!("not JSON: {error}"))?;
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(request);
        let reply = self
            .replies
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front()
            .ok_or("the script has no more replies")?;
        Ok(Bytes::from(reply.to_string()))
    }
}

fn failure(message: String) -> http_client::Error {
    http_client::Error::Instance(message.into())
}

impl HttpClientExt for ScriptedAnthropic {
    fn send<T, U>(
        &self,
        request: Request<T>,
    ) -> impl Future<Output = http_client::Result<Response<LazyBody<U>>>> + Send + 'static
    where
        T: Into<Bytes> + Send,
        U: From<Bytes> + Send + 'static,
    {
        let body: Bytes = request.into_body().into();
        let answered = self.answer(&body);
        async move {
            let bytes = answered.map_err(failure)?;
            let body: LazyBody<U> = Box::pin(async move { Ok(U::from(bytes)) });
            Response::builder()
                .status(200)
                .header("content-type", "application/json")
                .body(body)
                .map_err(http_client::Error::Protocol)
        }
    }

    // The trait asks for a `'static` future, which an `async fn` borrowing
    // `self` is not.
    #[allow(clippy::manual_async_fn)]
    fn send_multipart<U>(
        &self,
        _: Request<MultipartForm>,
    ) -> impl Future<Output = http_client::Result<Response<LazyBody<U>>>> + Send + 'static
    where
        U: From<Bytes> + Send + 'static,
    {
        async {
            Err(failure(
                "the scripted model takes no multipart requests".into(),
            ))
        }
    }

    async fn send_streaming<T>(&self, _: Request<T>) -> http_client::Result<StreamingResponse>
    where
        T: Into<Bytes> + Send,
    {
        Err(failure("the scripted model does not stream".into()))
    }
}
