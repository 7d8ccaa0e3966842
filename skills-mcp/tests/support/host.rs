//! A host as SEP-2640 has it: an rmcp client that declares the skills
//! extension, over an in-process pipe to a server.

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServerHandler, ServiceExt};

pub type Connected = RunningService<RoleClient, ClientConfig>;

/// Serves `server` on one end of a pipe and connects a host to the other.
pub async fn connect<S: ServerHandler>(server: S) -> Connected {
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let mut capabilities = ClientCapabilities::default();
    let mut extensions = rmcp::model::ExtensionCapabilities::new();
    extensions.insert(
        rmcp::model::SKILLS_EXTENSION_ID.to_owned(),
        Default::default(),
    );
    capabilities.extensions = Some(extensions);
    ClientConfig::new(capabilities, Implementation::new("host", "1"))
        .serve(client_side)
        .await
        .unwrap()
}
