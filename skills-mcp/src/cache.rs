//! The caching hints a server puts on its skills answers.

/// The caching hints (SEP-2549) on `skills/list` and `skills/get`: how long
/// a client may treat the answer as fresh, and who may keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cache {
    /// Fresh for this many milliseconds.
    pub ttl_ms: u64,
    /// Any client and intermediary (`Public`), or the requesting user's
    /// client only (`Private`).
    pub scope: rmcp::model::CacheScope,
}

impl Default for Cache {
    /// An hour, public: the served set is fixed for the server's life, and
    /// is the same for every client.
    fn default() -> Cache {
        Cache {
            ttl_ms: 3_600_000,
            scope: rmcp::model::CacheScope::Public,
        }
    }
}
