//! What sends the skills' HTTP tools: the [`HttpSender`] a host chooses,
//! and the response it reads (a leaf, which the senders and the crate's
//! root both import).

use std::future::Future;
use std::pin::Pin;

/// A future that can be sent to another thread, as rig's tools return them.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// A response as an [`HttpSender`] read it: the status, the headers, and a
/// body read through [`skills::response::Limited`] (so never over the limit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The status.
    pub status: http::StatusCode,
    /// The headers (`Content-Type` decides how the body is read).
    pub headers: http::HeaderMap,
    /// The body.
    pub body: Vec<u8>,
}

/// The HTTP client that sends the skills' HTTP tools: yours to choose.
///
/// It sends `request` as it is (the runtime built it from the checked
/// call), reads at most `limit` bytes of the body with
/// [`skills::response::Limited`], follows no redirect, and says in words
/// why nothing came back.
pub trait HttpSender: Send + Sync + 'static {
    /// Sends `request`; the response, or why there is none.
    fn send(
        &self,
        request: http::Request<Vec<u8>>,
        limit: usize,
    ) -> BoxFuture<Result<Received, String>>;
}
