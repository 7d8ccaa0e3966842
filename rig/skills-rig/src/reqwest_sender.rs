//! [`HttpSender`] with reqwest: no redirects followed, the body read
//! through the shared limit.

use std::time::Duration;

use skills::response::Limited;

use crate::sender::{BoxFuture, HttpSender, Received};

/// Sends the skills' HTTP tools with a reqwest client that follows no
/// redirect (a redirect is reported to the model, never followed).
#[derive(Debug, Clone)]
pub struct ReqwestSender {
    client: reqwest::Client,
}

impl ReqwestSender {
    /// A client with a timeout for the whole request, following no
    /// redirect, with the TLS configuration of [`skills::https`] (rustls on
    /// `ring`). `Err` when the platform's certificate roots cannot be
    /// loaded, or the client cannot be built.
    pub fn new(
        timeout: Duration,
    ) -> Result<ReqwestSender, Box<dyn std::error::Error + Send + Sync>> {
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(skills::https::client_config()?)
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .build()?;
        Ok(ReqwestSender { client })
    }

    /// Your own client (it should follow no redirect).
    pub fn with_client(client: reqwest::Client) -> ReqwestSender {
        ReqwestSender { client }
    }
}

impl HttpSender for ReqwestSender {
    fn send(
        &self,
        request: http::Request<Vec<u8>>,
        limit: usize,
    ) -> BoxFuture<Result<Received, String>> {
        let client = self.client.clone();
        Box::pin(async move {
            let request = reqwest::Request::try_from(request)
                .map_err(|error| format!("the request could not be built: {error}"))?;
            let mut response = client
                .execute(request)
                .await
                .map_err(|error| format!("the request failed: {error}"))?;
            let status = response.status();
            let mut body = Limited::new(status, response.content_length(), limit)?;
            while let Some(chunk) = response.chunk().await.map_err(|error| {
                format!("HTTP {status}: the response could not be read: {error}")
            })? {
                body.push(&chunk)?;
            }
            Ok(Received {
                status,
                headers: response.headers().clone(),
                body: body.into_bytes(),
            })
        })
    }
}
