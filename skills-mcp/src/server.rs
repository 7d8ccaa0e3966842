//! The MCP handler: tools, prompts, resources and the skills extension over
//! one skill set.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ContentBlock, ElicitRequest, ElicitRequestParams,
    ElicitationAction, ElicitationSchema, ErrorData, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, GetSkillRequestParams, GetSkillResult, Implementation, InputRequest,
    InputRequests, InputRequiredResult, ListPromptsResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities,
    ServerConfig, Skill as McpSkill, Tool as McpTool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use skills::{Call, Policy, Skill, Tool, ToolCallError};

use crate::cache::Cache;
use crate::entry;
use crate::paths::SkillPaths;
use crate::send::{Sender, failure};
use crate::served::Skills;
use crate::uri;

/// The key of the confirmation in an MRTR input request.
const CONFIRM: &str = "confirm";

enum Confirmation {
    Granted,
    /// Ask the client (MRTR): it calls again with the answer.
    Ask(InputRequiredResult),
    Refused(String),
}

/// Carries out a tool without an endpoint.
pub type LocalTool = Arc<dyn Fn(&Call<'_>) -> Result<String, String> + Send + Sync>;

/// An MCP server over one skill set. Build it with [`crate::Builder`].
#[derive(Clone)]
pub struct SkillsServer {
    skills: Skills,
    origin: Option<String>,
    sender: Sender,
    only: Option<Vec<String>>,
    local: Option<LocalTool>,
    /// The served skills, for the host toolset, when it is offered.
    host: Option<Skills>,
    /// tools/list and skills/list never change: built once, from the tables.
    tools: Arc<[McpTool]>,
    entries: Arc<[McpSkill]>,
    /// The served skills by path, for URIs and nested skills.
    paths: Arc<SkillPaths>,
    cache: Cache,
}

impl SkillsServer {
    pub(crate) fn new(
        skills: Skills,
        origin: Option<String>,
        sender: Sender,
        only: Option<Vec<String>>,
        local: Option<LocalTool>,
        host_tools: bool,
        cache: Cache,
    ) -> SkillsServer {
        let mut server = SkillsServer {
            skills,
            origin,
            sender,
            only,
            local,
            host: None,
            tools: Arc::new([]),
            entries: Arc::new([]),
            paths: Arc::default(),
            cache,
        };
        server.paths = Arc::new(SkillPaths::new(server.served()));
        server.tools = server
            .served()
            .flat_map(|skill| skill.tools())
            .filter(|tool| tool.is_offered())
            .map(mcp_tool)
            .collect();
        server.entries = server
            .served()
            .map(|skill| entry::entry(skill, server.nested_in(skill)))
            .collect();
        if host_tools {
            // The toolset lists and opens the served skills only.
            server.host = Some(match &server.only {
                None => server.skills.clone(),
                Some(_) => Skills::Shared(Arc::new(skills::SkillSet::owned(
                    server.served().cloned().collect(),
                ))),
            });
        }
        server
    }

    /// The host toolset, when it is offered to this client: on, and the
    /// client does not declare the skills extension.
    fn toolset_for(&self, context: &RequestContext<RoleServer>) -> Option<skills::Toolset<'_>> {
        let host = self.host.as_ref()?;
        let has_skills = context.client_capabilities().is_some_and(|capabilities| {
            capabilities
                .extensions
                .as_ref()
                .is_some_and(|extensions| extensions.contains_key(rmcp::model::SKILLS_EXTENSION_ID))
        });
        (!has_skills).then(|| skills::Toolset::new(host))
    }

    /// The answer to a call of `name` whose arguments nest too deep to
    /// parse: the checker's, for a tool that is served.
    pub(crate) fn too_deep(&self, name: &str) -> String {
        let host_tool =
            self.host.is_some() && skills::toolset::TOOLS.iter().any(|tool| tool.name == name);
        match self.tool(name) {
            Err(message) if !host_tool => message,
            _ => ToolCallError::too_deep(name).to_string(),
        }
    }

    /// The server as a streamable HTTP service (a tower `Service` of
    /// `http::Request`s) to mount in any HTTP server, one session per client:
    ///
    /// ```ignore
    /// let service = server.streamable_http(Default::default());
    /// let router = axum::Router::new().nest_service("/mcp", service);
    /// axum::serve(tokio::net::TcpListener::bind("127.0.0.1:8080").await?, router).await?;
    /// ```
    ///
    /// The default configuration accepts only `localhost` hosts (DNS
    /// rebinding): widen `allowed_hosts` to serve beyond loopback.
    #[cfg(feature = "streamable-http")]
    pub fn streamable_http(
        self,
        config: rmcp::transport::StreamableHttpServerConfig,
    ) -> rmcp::transport::StreamableHttpService<
        SkillsServer,
        rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
    > {
        rmcp::transport::StreamableHttpService::new(
            move || Ok(self.clone()),
            Default::default(),
            config,
        )
    }

    /// The skills served, in name order.
    fn served(&self) -> impl Iterator<Item = &Skill> + Clone {
        self.skills.iter().filter(|skill| {
            self.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|name| name == skill.name()))
        })
    }

    /// The served skill whose directory holds what `uri` names, and the
    /// path within it.
    fn resolve(&self, uri: &str) -> Option<(&Skill, String)> {
        let (name, path) = self.paths.resolve(&uri::parse(uri)?)?;
        Some((self.skills.get(name)?, path))
    }

    /// The served skills nested in `skill`'s directory, at any depth, in
    /// name order: from its side, their files are files of its own (SEP-2640).
    fn nested_in(&self, skill: &Skill) -> impl Iterator<Item = &Skill> + Clone {
        let mut nested: Vec<&Skill> = self
            .paths
            .nested_in(&skill.skill_path())
            .filter_map(|name| self.skills.get(name))
            .collect();
        nested.sort_by(|a, b| a.name().cmp(b.name()));
        nested.into_iter()
    }

    /// The served skill named `name`.
    fn skill_named(&self, name: &str) -> Option<&Skill> {
        let served = |skill: &&Skill| {
            self.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|name| name == skill.name()))
        };
        self.skills.get(name).filter(served)
    }

    /// The tool a call names, among the served skills; denied tools are not
    /// served, and an unknown name is answered with the tools that are.
    fn tool(&self, name: &str) -> Result<&Tool, String> {
        match self.skills.find_tool(name) {
            Ok((skill, tool)) if self.skill_named(skill.name()).is_some() && tool.is_offered() => {
                Ok(tool)
            }
            Err(error @ ToolCallError::AmbiguousTool { .. }) => Err(error.to_string()),
            _ => Err(self.unknown_tool(name)),
        }
    }

    fn unknown_tool(&self, name: &str) -> String {
        let mut served: Vec<&str> = self.tools.iter().map(|tool| tool.name.as_ref()).collect();
        served.sort_unstable();
        served.dedup();
        ToolCallError::UnknownTool {
            name: name.to_owned(),
            expected: served.into_iter().map(str::to_owned).collect(),
        }
        .to_string()
    }

    /// Asks the user to confirm `call`, through elicitation. From protocol
    /// 2026-07-28 on, a server may not send requests to the client: the call
    /// returns an input request (MRTR) and the client calls again with the
    /// answer and the request state, which binds the answer to these exact
    /// arguments. Before it, the server asks the client directly.
    async fn confirm(
        &self,
        call: &Call<'_>,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Confirmation {
        let supports = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.elicitation.is_some());
        if !supports {
            return Confirmation::Refused(format!(
                "`{}` needs the user's confirmation, and this client cannot ask for it (no elicitation): nothing was sent",
                call.name()
            ));
        }
        let arguments = serde_json::Value::Object(call.arguments().clone());
        let question = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!("Allow {}?", call.confirmation_text()),
            requested_schema: ElicitationSchema::new(Default::default()),
        };
        let declined = || {
            Confirmation::Refused(format!(
                "the user did not confirm `{}`: nothing was sent",
                call.name()
            ))
        };
        let mrtr = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        if !mrtr {
            return match context.peer.create_elicitation(question).await {
                Ok(answer) if answer.action == ElicitationAction::Accept => Confirmation::Granted,
                Ok(_) => declined(),
                Err(error) => Confirmation::Refused(format!(
                    "asking the user to confirm `{}` failed ({error}): nothing was sent",
                    call.name()
                )),
            };
        }
        let state = format!("confirm {} {arguments}", call.name());
        if request.request_state.as_deref() != Some(state.as_str()) {
            let mut requests = InputRequests::new();
            requests.insert(
                CONFIRM.to_owned(),
                InputRequest::Elicitation(ElicitRequest::new(question)),
            );
            return Confirmation::Ask(InputRequiredResult::new(Some(requests), Some(state)));
        }
        let accepted = request
            .input_responses
            .as_ref()
            .and_then(|responses| responses.get(CONFIRM))
            .and_then(|answer| answer.get("action"))
            .and_then(serde_json::Value::as_str)
            == Some("accept");
        if accepted {
            Confirmation::Granted
        } else {
            declined()
        }
    }

    async fn run(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let arguments = serde_json::Value::Object(request.arguments.clone().unwrap_or_default());
        if let Some(answer) = self
            .toolset_for(context)
            .and_then(|toolset| toolset.respond(&request.name, &arguments))
        {
            return match answer {
                Ok(text) => rmcp::model::CallToolResult::success(vec![ContentBlock::text(text)]),
                Err(text) => failure(text),
            }
            .into();
        }
        let tool = match self.tool(&request.name) {
            Ok(tool) => tool,
            Err(message) => return failure(message).into(),
        };
        let call = match tool.parse(&arguments) {
            Ok(call) => call,
            // Names the field by JSON path; nothing is sent.
            Err(error) => return failure(error.to_string()).into(),
        };
        let call = if call.policy() == Policy::Confirm {
            match self.confirm(&call, &request, context).await {
                Confirmation::Granted => call.confirmed(),
                Confirmation::Ask(input) => return input.into(),
                Confirmation::Refused(message) => return failure(message).into(),
            }
        } else {
            call
        };
        self.carry_out(&call).await.into()
    }

    async fn carry_out(&self, call: &Call<'_>) -> rmcp::model::CallToolResult {
        let tool = call.tool();
        if tool.endpoint().is_none() {
            return match &self.local {
                Some(handler) => match handler(call) {
                    Ok(text) => {
                        rmcp::model::CallToolResult::success(vec![ContentBlock::text(text)])
                    }
                    Err(text) => failure(text),
                },
                None => failure(format!(
                    "`{}` has no endpoint and this server has no handler for it",
                    call.name()
                )),
            };
        }
        let request = match &self.origin {
            Some(origin) => call.request_to(origin),
            None => call.request(),
        };
        match request {
            Ok(request) => self.sender.send(request).await,
            // A refused value (a dot segment, a control character): nothing is sent.
            Err(error) => failure(format!("{error}: nothing was sent")),
        }
    }
}

/// The MCP definition the core writes (schema and annotations), read into
/// rmcp's type: one definition of the MCP shape, the core's.
fn mcp_tool(tool: &Tool) -> McpTool {
    serde_json::from_str(&tool.mcp_json()).unwrap_or_else(|_| {
        // Not expected: the core writes every field rmcp reads.
        McpTool::new(
            tool.name().to_owned(),
            tool.description().to_owned(),
            Arc::new(serde_json::Map::new()),
        )
    })
}

/// A file's contents: text when it is UTF-8 text, a base64 blob otherwise,
/// with its MIME type.
fn file_contents(file: &skills::File, uri: String) -> ResourceContents {
    let mime = entry::mime_of(file);
    match file.text() {
        Some(text) => ResourceContents::text(text, uri).with_mime_type(mime),
        None => ResourceContents::blob(file.to_base64(), uri).with_mime_type(mime),
    }
}

impl ServerHandler for SkillsServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .enable_skills_with_directory_read()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("skills-mcp", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = Vec::new();
        if let Some(toolset) = self.toolset_for(&context) {
            for tool in &skills::toolset::TOOLS {
                let schema = match toolset.parameters(tool) {
                    serde_json::Value::Object(schema) => schema,
                    _ => serde_json::Map::new(),
                };
                tools.push(
                    McpTool::new(tool.name, tool.description, Arc::new(schema)).annotate(
                        rmcp::model::ToolAnnotations::new()
                            .read_only(true)
                            .open_world(false),
                    ),
                );
            }
        }
        tools.extend(self.tools.iter().cloned());
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(self.run(request, &context).await)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompts = self
            .served()
            .map(|skill| Prompt::new(skill.name(), Some(skill.description()), None))
            .collect();
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let skill = self.skill_named(&request.name).ok_or_else(|| {
            ErrorData::invalid_params(format!("no skill named `{}`", request.name), None)
        })?;
        let mut result =
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, skill.rendered())]);
        result.description = Some(skill.description().to_owned());
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .served()
            .flat_map(|skill| {
                let skill_md = Resource::new(uri::skill(skill), skill.name())
                    .with_mime_type("text/markdown")
                    .with_size(skill.source().len() as u64);
                let files = skill.files().iter().map(|file| {
                    Resource::new(
                        uri::file(skill, file.path()),
                        format!("{}/{}", skill.name(), file.path()),
                    )
                    .with_size(file.len() as u64)
                    .with_mime_type(entry::mime_of(file))
                });
                std::iter::once(skill_md).chain(files)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let not_found =
            || ErrorData::resource_not_found(format!("no resource at {}", request.uri), None);
        let (skill, path) = self.resolve(&request.uri).ok_or_else(not_found)?;
        let contents = if path == uri::SKILL_MD {
            ResourceContents::text(skill.source(), request.uri.clone())
                .with_mime_type("text/markdown")
        } else {
            file_contents(
                skill.file(&path).ok_or_else(not_found)?,
                request.uri.clone(),
            )
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(ListSkillsResult::with_all_items(self.entries.to_vec())
            .with_ttl_ms(self.cache.ttl_ms)
            .with_cache_scope(self.cache.scope))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.entries
            .iter()
            .find(|entry| entry.uri == request.uri)
            .map(|entry| {
                GetSkillResult::new(entry.clone())
                    .with_ttl_ms(self.cache.ttl_ms)
                    .with_cache_scope(self.cache.scope)
            })
            .ok_or_else(|| ErrorData::invalid_params(format!("no skill at {}", request.uri), None))
    }

    /// `-32602` for a URI that names no directory of a served skill: an
    /// unknown skill, a file, a folder the skill does not have.
    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let not_a_directory =
            || ErrorData::invalid_params(format!("not a directory: {}", request.uri), None);
        let (skill, path) = self.resolve(&request.uri).ok_or_else(not_a_directory)?;
        let children =
            entry::directory(skill, self.nested_in(skill), &path).ok_or_else(not_a_directory)?;
        Ok(ReadResourceDirectoryResult::with_all_items(children))
    }
}
