//! The TLS configuration of every HTTPS client skills builds: the MCP
//! server's sender, `cargo skills test --model`'s, `skills-rig`'s
//! `ReqwestSender`. rustls on `ring`, certificates checked against the
//! platform's roots (rustls-platform-verifier, as reqwest does).
//!
//! Why not rustls's default provider, aws-lc-rs: it builds a C library
//! (aws-lc-sys), the longest single step of installing the CLI on two
//! cores, where `ring` builds in seconds; the figures are in BENCHMARKS.md
//! (issue 62). Clients take the configuration whole
//! (reqwest's `tls_backend_preconfigured`): no process-wide default is
//! installed, so an application's own choice of provider is never
//! overridden, and never refused.
//!
//! ```
//! let config = skills::https::client_config().expect("the platform's roots load");
//! assert!(config.alpn_protocols.is_empty()); // HTTP/1.1, as the senders speak
//! ```

use std::sync::Arc;

use rustls_platform_verifier::BuilderVerifierExt;

/// A rustls client configuration on `ring` with the platform's verifier:
/// TLS 1.2 and 1.3, no client certificate. `Err` when the platform's
/// certificate roots cannot be loaded.
pub fn client_config() -> Result<rustls::ClientConfig, rustls::Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_platform_verifier()?
        .with_no_client_auth())
}
