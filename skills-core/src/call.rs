//! A checked call of one tool, without generated types: what the run-time
//! loader and servers use, and what generated `ToolCall`s become to send.

use serde_json::{Map, Value};

use crate::error::{RequestError, ToolCallError};
use crate::policy::Policy;
use crate::tool::Tool;

/// A tool call whose arguments passed the tool's schema: normalised (defaults
/// filled in, numbers in one spelling) and ready to become a request.
#[derive(Debug, Clone)]
pub struct Call<'t> {
    tool: &'t Tool,
    arguments: Map<String, Value>,
}

impl<'t> Call<'t> {
    /// `arguments` must conform to the tool's schema: checked by
    /// [`Tool::parse`], or encoded from a generated arguments type.
    #[doc(hidden)]
    pub fn new(tool: &'t Tool, arguments: Map<String, Value>) -> Self {
        Call { tool, arguments }
    }

    pub fn tool(&self) -> &'t Tool {
        self.tool
    }

    pub fn name(&self) -> &'t str {
        &self.tool.name
    }

    /// What the runtime must do with this call, decided at build time.
    pub fn policy(&self) -> Policy {
        self.tool.policy
    }

    /// The normalised arguments.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    pub fn into_arguments(self) -> Map<String, Value> {
        self.arguments
    }

    /// The HTTP request this call stands for, to the origin the skill declares.
    pub fn request(&self) -> Result<http::Request<Vec<u8>>, RequestError> {
        self.request_to_origin(None)
    }

    /// The same request sent to another `scheme://host[:port]` (staging, tests).
    pub fn request_to(&self, origin: &str) -> Result<http::Request<Vec<u8>>, RequestError> {
        self.request_to_origin(Some(origin))
    }

    fn request_to_origin(
        &self,
        origin: Option<&str>,
    ) -> Result<http::Request<Vec<u8>>, RequestError> {
        let endpoint = self
            .tool
            .endpoint
            .as_ref()
            .ok_or_else(|| RequestError::NoEndpoint {
                tool: self.tool.name.to_string(),
            })?;
        endpoint.request(&self.tool.name, &self.arguments, origin)
    }
}

impl Tool {
    /// Checks a model's arguments (JSON text) against the schema. Errors name
    /// the failing field by JSON path.
    ///
    /// ```
    /// # fn demo(tool: &skills_core::Tool) -> Result<(), Box<dyn std::error::Error>> {
    /// let call = tool.parse(r#"{"repo": "a/b"}"#)?;
    /// let request = call.request()?; // an http::Request<Vec<u8>>
    /// # Ok(()) }
    /// ```
    pub fn parse(&self, arguments: &str) -> Result<Call<'_>, ToolCallError> {
        let value: serde_json::Value =
            serde_json::from_str(arguments).map_err(|error| ToolCallError::InvalidArguments {
                tool: self.name.to_string(),
                path: ".".to_owned(),
                message: error.to_string(),
            })?;
        self.parse_value(&value)
    }

    /// The same for arguments already parsed, as model APIs hand them over.
    pub fn parse_value(&self, arguments: &serde_json::Value) -> Result<Call<'_>, ToolCallError> {
        let arguments = self.schema.check(&self.name, arguments)?;
        Ok(Call::new(self, arguments))
    }
}
