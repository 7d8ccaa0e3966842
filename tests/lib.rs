//! Workspace-level integration tests live beside this file; the crate itself is empty.
