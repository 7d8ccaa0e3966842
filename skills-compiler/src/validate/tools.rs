//! Tool declarations: names, parameters and HTTP endpoints.

use std::ops::Range;

use super::ctx::Ctx;
use super::{fields, keys, schema, template};
use crate::diagnostics::{Code, Severity, closest};
use crate::ir::{self, Endpoint, List, Method, Parameters, Str, Template, Tool};
use crate::read::yaml::Node;

pub(super) const MAX_TOOL_NAME: usize = 64;

/// The tools of a skill: those that are valid, and every well-formed name
/// declared (permissions name tools whose other parts may have errors).
#[derive(Default)]
pub(super) struct Declared {
    pub valid: Vec<Tool>,
    pub names: Vec<String>,
}

/// Validates the `tools` list. Invalid tools are reported and left out of
/// `valid`; the policy of each tool is decided later, once permissions are read.
pub(super) fn check(ctx: &mut Ctx<'_>, node: &Node, prefix_budget: usize) -> Declared {
    let Some(items) = node.as_seq() else {
        ctx.push(ctx.error(
            Code::ToolShape,
            node.span.clone(),
            format!("`tools` must be a list, found {}", node.type_name()),
        ));
        return Declared::default();
    };
    let mut declared: Vec<Tool> = Vec::new();
    let mut seen: Vec<(String, Range<usize>)> = Vec::new();
    for item in items {
        // The keys the table holds by their declaration alone (`title`).
        let mut table = skills_core::Tool::default();
        let Some((name, name_span)) = tool_name(ctx, item, prefix_budget) else {
            // Still check the rest of the declaration so one typo never hides the next.
            let _ = tool_body(ctx, item, &mut table);
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(other, _)| *other == name) {
            ctx.push(
                ctx.error(
                    Code::DuplicateTool,
                    name_span.clone(),
                    format!("a tool named `{name}` is already declared"),
                )
                .with_label(ctx.source, first.clone(), "first declared here"),
            );
        } else if let Some((other, first)) = seen
            .iter()
            .find(|(other, _)| other.eq_ignore_ascii_case(&name))
        {
            ctx.push(
                ctx.error(
                    Code::ToolNameCase,
                    name_span.clone(),
                    format!("tool names `{other}` and `{name}` differ only in case"),
                )
                .with_severity(Severity::Warning)
                .with_label(ctx.source, first.clone(), "the other one")
                .with_help("some clients compare tool names case-insensitively"),
            );
        }
        seen.push((name.clone(), name_span.clone()));
        if let Some((description, parameters, mut parameters_json, endpoint)) =
            tool_body(ctx, item, &mut table)
        {
            schema::make_explicit(&mut parameters_json);
            // The policy and the hints are left at their defaults (`deny`):
            // they are decided with the permissions, once every tool is
            // known (`validate::skill` sets them).
            let table = skills_core::Tool {
                name: Str::Owned(name),
                description: Str::Owned(description),
                schema: crate::ir::table::schema(&parameters),
                strict: schema::strict_compatible(&parameters_json),
                parameters_json: Str::Owned(parameters_json.to_string()),
                endpoint,
                ..table
            };
            declared.push(Tool { table, parameters });
        }
    }
    Declared {
        valid: declared,
        names: seen.into_iter().map(|(name, _)| name).collect(),
    }
}

fn tool_name(
    ctx: &mut Ctx<'_>,
    item: &Node,
    prefix_budget: usize,
) -> Option<(String, Range<usize>)> {
    if item.as_map().is_none() {
        ctx.push(ctx.error(
            Code::ToolShape,
            item.span.clone(),
            format!("a tool must be a mapping, found {}", item.type_name()),
        ));
        return None;
    }
    let Some(node) = item.get("name") else {
        ctx.push(ctx.error(
            Code::ToolShape,
            item.span.clone(),
            "this tool has no `name`",
        ));
        return None;
    };
    let name = ctx.string(node, "name")?;
    if !is_valid_tool_name(&name) {
        ctx.push(ctx
            .error(Code::ToolName, node.span.clone(), format!("`{name}` is not a valid tool name"))
            .with_help("model APIs accept `^[A-Za-z][A-Za-z0-9_-]{0,63}$`: a letter, then up to 63 letters, digits, `_` or `-`"));
        return None;
    }
    let length = name.chars().count();
    if length + prefix_budget > MAX_TOOL_NAME {
        ctx.push(ctx
            .error(
                Code::ToolPrefixBudget,
                node.span.clone(),
                format!("`{name}` is {length} characters; with the runtime prefix budget of {prefix_budget} it exceeds {MAX_TOOL_NAME}"),
            )
            .with_help(format!("shorten the name to at most {} characters", MAX_TOOL_NAME.saturating_sub(prefix_budget))));
        return None;
    }
    Some((name, node.span.clone()))
}

/// Whether `name` matches `^[A-Za-z][A-Za-z0-9_-]{0,63}$`.
pub(super) fn is_valid_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.len() <= MAX_TOOL_NAME
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

type ToolBody = (String, Parameters, serde_json::Value, Option<Endpoint>);

/// Checks a tool's keys but its name; the keys held by their declaration
/// alone go into `table`, the others come back.
fn tool_body(ctx: &mut Ctx<'_>, item: &Node, table: &mut skills_core::Tool) -> Option<ToolBody> {
    let entries = item.as_map()?;
    let known = keys::names(keys::TOOL);
    for entry in entries {
        match keys::TOOL.iter().find(|field| field.name == entry.key) {
            Some(field) => fields::held(ctx, table, entry, field.held),
            None => ctx.push(ctx.unknown_key(Code::ToolShape, entry, "a tool", &known)),
        }
    }
    let description = match item.get("description") {
        Some(node) => {
            let description = ctx.non_empty_string(node, "description", Code::ToolShape);
            if description
                .as_deref()
                .is_some_and(super::placeholder::is_placeholder)
            {
                ctx.push(ctx
                    .error(
                        Code::PlaceholderDescription,
                        node.span.clone(),
                        "the tool's description is still a placeholder (left by `cargo skills new` or a template)",
                    )
                    .with_severity(Severity::Warning)
                    .with_help("say what the tool does and when to call it: the model chooses tools by their descriptions"));
            }
            description
        }
        None => {
            ctx.push(ctx
                .error(Code::ToolShape, item.span.clone(), "this tool has no `description`")
                .with_help("the model chooses tools by their descriptions: say what it does and when to use it"));
            None
        }
    };
    let (lowered, parameters_json) = match item.get("parameters") {
        Some(node) => (schema::lower(ctx, node), node.to_json()),
        None => (
            schema::Lowered {
                parameters: Parameters::empty(),
                complete: true,
            },
            serde_json::json!({"type": "object", "properties": {}}),
        ),
    };
    // Properties that failed to lower are reported already; placeholders naming them are not unknown.
    let declared: Vec<&str> = item
        .get("parameters")
        .and_then(|p| p.get("properties"))
        .and_then(Node::as_map)
        .map_or_else(Vec::new, |entries| {
            entries.iter().map(|e| e.key.as_str()).collect()
        });
    // `Err` marks an endpoint with errors, `Ok(None)` a tool without one.
    let endpoint = match item.get("endpoint") {
        None => Ok(None),
        Some(node) => endpoint(
            ctx,
            node,
            &lowered.parameters,
            item.get("parameters"),
            &declared,
        )
        .map(Some)
        .ok_or(()),
    };
    let parameters = lowered.complete.then_some(lowered.parameters);
    Some((description?, parameters?, parameters_json, endpoint.ok()?))
}

fn endpoint(
    ctx: &mut Ctx<'_>,
    node: &Node,
    parameters: &Parameters,
    parameters_node: Option<&Node>,
    declared: &[&str],
) -> Option<Endpoint> {
    let errors_before = error_count(ctx);
    let entries = ctx.map(node, "endpoint", Code::EndpointShape);
    let known = keys::names(keys::ENDPOINT);
    for entry in entries.iter().filter(|e| !known.contains(&e.key.as_str())) {
        ctx.push(ctx.unknown_key(Code::EndpointShape, entry, "an endpoint", &known));
    }
    if entries.is_empty() && node.as_map().is_none() {
        return None;
    }
    let method = match node.get("method") {
        Some(method) => http_method(ctx, method),
        None => {
            ctx.push(ctx.error(
                Code::EndpointShape,
                node.span.clone(),
                "the endpoint has no `method`",
            ));
            None
        }
    };
    let params = Params {
        parameters,
        declared,
        used: Default::default(),
    };
    let url = match node.get("url") {
        Some(url) => self::url(ctx, url, &params),
        None => {
            ctx.push(ctx.error(
                Code::EndpointShape,
                node.span.clone(),
                "the endpoint has no `url`",
            ));
            None
        }
    };
    let mut extra_query = pairs(ctx, node.get("query"), "query", &params);
    let headers = pairs(ctx, node.get("header"), "header", &params);
    for (name, _) in &headers {
        if !is_header_name(name) {
            let at = node
                .get("header")
                .map_or(node.span.clone(), |h| h.span.clone());
            ctx.push(ctx.error(
                Code::EndpointShape,
                at,
                format!("`{name}` is not a valid HTTP header name"),
            ));
        }
    }
    let body = node.get("body").and_then(|body| {
        let text = ctx.string(body, "body")?;
        params.single_braces(ctx, body, 0, &text);
        match template::parse_body(&text) {
            Ok((template, placeholders)) => {
                for (placeholder, slot) in &placeholders {
                    let span = ctx.sub_span(body, placeholder.range.clone());
                    let slot = match slot {
                        template::BodySlot::Value => Slot::Body,
                        template::BodySlot::InString => Slot::BodyString,
                        template::BodySlot::Key => {
                            ctx.push(ctx
                                .error(Code::BodyTemplate, span, format!("`{{{{{}}}}}` stands in an object key", placeholder.name))
                                .with_help("a model's value may fill a JSON value or the inside of a string, never choose a key"));
                            continue;
                        }
                    };
                    params.resolve(ctx, &placeholder.name, span, slot);
                }
                Some(template)
            }
            Err(error) => {
                let code = if error.message.starts_with("the body") { Code::BodyTemplate } else { Code::Placeholder };
                let span = ctx.sub_span(body, error.range);
                ctx.push(ctx
                    .error(code, span, error.message)
                    .with_help("write the body as JSON; a placeholder stands as a whole value (`{{count}}`) or inside a string (`\"#{{id}}\"`)"));
                None
            }
        }
    });
    let (origin, path, mut query) = url?;
    query.append(&mut extra_query);
    if error_count(ctx) != errors_before {
        return None;
    }
    unused_parameters(ctx, parameters_node, &params.used.borrow());
    Some(Endpoint::new(
        method?,
        origin.into(),
        List::Owned(path),
        ir::templates(query),
        ir::templates(headers),
        body,
    ))
}

/// A parameter of a tool with an endpoint that no placeholder uses: the
/// model is asked for it, and its value goes nowhere.
fn unused_parameters(
    ctx: &mut Ctx<'_>,
    parameters: Option<&Node>,
    used: &std::collections::BTreeSet<String>,
) {
    let properties = parameters
        .and_then(|p| p.get("properties"))
        .and_then(Node::as_map)
        .unwrap_or(&[]);
    for property in properties {
        if used.contains(&property.key) {
            continue;
        }
        let name = &property.key;
        ctx.push(
            ctx.error(
                Code::UnusedParameter,
                property.key_span.clone(),
                format!("the parameter `{name}` is used by no placeholder of the endpoint: the model's value is never sent"),
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "send it: `{{{{{name}}}}}` in the URL's path or query, a header, or the body; or remove the parameter"
            )),
        );
    }
}

fn error_count(ctx: &Ctx<'_>) -> usize {
    ctx.diagnostics.iter().filter(|d| d.is_error()).count()
}

fn http_method(ctx: &mut Ctx<'_>, node: &Node) -> Option<Method> {
    let text = ctx.string(node, "method")?;
    if let Some(method) = Method::ALL.into_iter().find(|m| m.as_str() == text) {
        return Some(method);
    }
    let mut diagnostic = ctx.error(
        Code::EndpointMethod,
        node.span.clone(),
        format!("`{text}` is not an HTTP method"),
    );
    diagnostic = match Method::ALL
        .into_iter()
        .find(|m| m.as_str().eq_ignore_ascii_case(&text))
    {
        Some(method) => diagnostic
            .with_help(format!("methods are upper case: `{}`", method.as_str()))
            .with_fix(
                ctx.source,
                node.span.clone(),
                method.as_str(),
                "use upper case",
            ),
        None => diagnostic.with_help("use GET, HEAD, OPTIONS, POST, PUT, PATCH or DELETE"),
    };
    ctx.push(diagnostic);
    None
}

/// Where a placeholder stands, which decides what types it may have.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Path,
    Query,
    Header,
    /// A whole JSON value in the body.
    Body,
    /// Inside a JSON string in the body.
    BodyString,
}

struct Params<'p> {
    parameters: &'p Parameters,
    /// Every property name written in the schema, valid or not.
    declared: &'p [&'p str],
    /// Every name a placeholder used, to find the parameters none does.
    used: std::cell::RefCell<std::collections::BTreeSet<String>>,
}

impl Params<'_> {
    /// Checks that a placeholder names a parameter that may stand in `slot`.
    fn resolve(&self, ctx: &mut Ctx<'_>, name: &str, span: Range<usize>, slot: Slot) {
        self.used.borrow_mut().insert(name.to_owned());
        let root = &self.parameters.root;
        let Some(property) = root.property(name) else {
            if self.declared.contains(&name) {
                return;
            }
            let mut diagnostic = ctx.error(
                Code::UnknownPlaceholder,
                span.clone(),
                format!("`{{{{{name}}}}}` names no parameter"),
            );
            diagnostic = match closest(name, root.properties.iter().map(|p| p.name.as_str())) {
                Some(s) => {
                    let diagnostic = diagnostic.with_help(format!("did you mean `{{{{{s}}}}}`?"));
                    // Machine-applicable where the span holds the placeholder
                    // as written (not behind a YAML escape).
                    let written = ctx.source.text().get(span.clone()).unwrap_or_default();
                    let placeholder = format!("{{{{{name}}}}}");
                    if written == placeholder {
                        diagnostic.with_fix(
                            ctx.source,
                            span,
                            format!("{{{{{s}}}}}"),
                            format!("use `{{{{{s}}}}}`"),
                        )
                    } else if written == name {
                        diagnostic.with_fix(ctx.source, span, s, format!("use `{{{{{s}}}}}`"))
                    } else {
                        diagnostic
                    }
                }
                None if root.properties.is_empty() => {
                    diagnostic.with_help(format!("declare `{name}` under `parameters.properties`"))
                }
                None => diagnostic.with_help(format!(
                    "declared parameters: {}",
                    root.properties
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            };
            ctx.push(diagnostic);
            return;
        };
        if slot != Slot::Body && !property.ty.is_scalar(&self.parameters.defs) {
            let place = match slot {
                Slot::Path => "the URL path",
                Slot::Query => "a query value",
                Slot::BodyString => "a JSON string",
                _ => "a header",
            };
            ctx.push(ctx
                .error(Code::PlaceholderType, span, format!("`{name}` is not a scalar and cannot stand in {place}"))
                .with_help("use a string, integer, number, boolean or enum parameter; put lists and objects in the body as whole values (`{{tags}}`)"));
            return;
        }
        if slot == Slot::Path && !property.required {
            ctx.push(
                ctx.error(
                    Code::OptionalPathPlaceholder,
                    span.clone(),
                    format!("`{name}` stands in the URL path but is optional"),
                )
                .with_help(format!(
                    "add `{name}` to `required`, or move it to the query"
                )),
            );
        }
        if slot == Slot::BodyString && !property.required {
            ctx.push(ctx
                .error(
                    Code::OptionalStringPlaceholder,
                    span,
                    format!("`{name}` stands inside a JSON string but is optional"),
                )
                .with_help(format!(
                    "add `{name}` to `required`, or let it stand as a whole value (`\"key\": {{{{{name}}}}}`), which is left out when absent"
                )));
        }
    }

    /// `{id}` where `id` is a parameter: sent as the text `{id}` (in a URL,
    /// `%7Bid%7D`) and the value dropped; almost always a `{{id}}` meant.
    fn single_braces(&self, ctx: &mut Ctx<'_>, node: &Node, offset: usize, text: &str) {
        for (range, name) in template::single_braces(text) {
            if !self.declared.contains(&name) {
                continue;
            }
            let span = ctx.sub_span(node, range.start + offset..range.end + offset);
            let mut diagnostic = ctx
                .error(
                    Code::SingleBracePlaceholder,
                    span.clone(),
                    format!("`{{{name}}}` is sent as written, not as the parameter `{name}`"),
                )
                .with_severity(Severity::Warning)
                .with_help(format!("did you mean `{{{{{name}}}}}`?"));
            if ctx.source.text().get(span.clone()) == Some(&text[range]) {
                diagnostic = diagnostic.with_fix(
                    ctx.source,
                    span,
                    format!("{{{{{name}}}}}"),
                    format!("write `{{{{{name}}}}}`"),
                );
            }
            ctx.push(diagnostic);
        }
    }

    fn template(
        &self,
        ctx: &mut Ctx<'_>,
        node: &Node,
        offset: usize,
        text: &str,
        slot: Slot,
    ) -> Option<Template> {
        self.single_braces(ctx, node, offset, text);
        match template::parse(text) {
            Ok((template, placeholders)) => {
                for placeholder in placeholders {
                    let range = placeholder.range.start + offset..placeholder.range.end + offset;
                    let span = ctx.sub_span(node, range);
                    self.resolve(ctx, &placeholder.name, span, slot);
                }
                Some(template)
            }
            Err(error) => {
                let span = ctx.sub_span(node, error.range.start + offset..error.range.end + offset);
                ctx.push(ctx.error(Code::Placeholder, span, error.message));
                None
            }
        }
    }
}

type Url = (String, Template, Vec<(String, Template)>);

/// `scheme://host[:port]/path?query` -> origin, path template, query templates.
fn url(ctx: &mut Ctx<'_>, node: &Node, params: &Params<'_>) -> Option<Url> {
    let text = ctx.string(node, "url")?;
    let bad = |ctx: &mut Ctx<'_>, message: String, help: &str| {
        ctx.push(
            ctx.error(Code::EndpointUrl, node.span.clone(), message)
                .with_help(help.to_owned()),
        );
    };
    let Some(scheme_end) = text.find("://") else {
        bad(
            ctx,
            format!("`{text}` is not an absolute URL"),
            "write the full URL: `https://host/path`",
        );
        return None;
    };
    let scheme = &text[..scheme_end];
    if scheme.contains("{{") {
        return origin_placeholder(ctx, node, 0..scheme_end);
    }
    if scheme != "http" && scheme != "https" {
        bad(
            ctx,
            format!("the URL scheme `{scheme}` is not http or https"),
            "use `https://`",
        );
        return None;
    }
    if let Some(c) = text.chars().find(|c| c.is_whitespace() || c.is_control()) {
        bad(
            ctx,
            format!("the URL contains {c:?}"),
            "percent-encode it or remove it",
        );
        return None;
    }
    let authority_start = scheme_end + 3;
    let authority_end = text[authority_start..]
        .find(['/', '?', '#'])
        .map_or(text.len(), |i| authority_start + i);
    let authority = &text[authority_start..authority_end];
    if authority.contains("{{") || authority.contains("}}") {
        return origin_placeholder(ctx, node, authority_start..authority_end);
    }
    if authority.is_empty() || authority.contains('@') {
        bad(
            ctx,
            format!("`{text}` has no valid host"),
            "write `https://host/path` (credentials in the URL are not allowed)",
        );
        return None;
    }
    if text[authority_end..].contains('#') {
        bad(
            ctx,
            "the URL has a fragment (`#...`), which is never sent".to_owned(),
            "remove the fragment",
        );
        return None;
    }
    let (path_text, query_text) = match text[authority_end..].split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (&text[authority_end..], None),
    };
    let path_text = if path_text.is_empty() { "/" } else { path_text };
    let path = params.template(ctx, node, authority_end, path_text, Slot::Path);
    let mut query = Vec::new();
    if let Some(query_text) = query_text {
        let mut offset = authority_end + path_text.len() + 1;
        for pair in query_text.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if key.contains("{{") {
                let span = ctx.sub_span(node, offset..offset + key.len());
                ctx.push(ctx.error(
                    Code::Placeholder,
                    span,
                    "placeholders may stand in query values, not in query names",
                ));
            } else if !key.is_empty() {
                let value_offset = offset + key.len() + 1;
                if let Some(template) = params.template(ctx, node, value_offset, value, Slot::Query)
                {
                    query.push((key.to_owned(), template));
                }
            }
            offset += pair.len() + 1;
        }
    }
    Some((text[..authority_end].to_owned(), path?, query))
}

fn origin_placeholder(ctx: &mut Ctx<'_>, node: &Node, range: Range<usize>) -> Option<Url> {
    let span = ctx.sub_span(node, range);
    ctx.push(ctx
        .error(Code::PlaceholderInOrigin, span, "a placeholder in the URL's scheme, host or port")
        .with_help("fix the origin in the URL: a model must never choose where a request goes; use `request_to(origin)` at run time for staging"));
    None
}

/// `query:` or `header:` — a mapping of names to value templates.
fn pairs(
    ctx: &mut Ctx<'_>,
    node: Option<&Node>,
    field: &str,
    params: &Params<'_>,
) -> Vec<(String, Template)> {
    let Some(node) = node else { return Vec::new() };
    let slot = if field == "query" {
        Slot::Query
    } else {
        Slot::Header
    };
    ctx.map(node, field, Code::EndpointShape)
        .iter()
        .filter_map(|entry| {
            if entry.key.contains("{{") {
                ctx.push(ctx.error(
                    Code::Placeholder,
                    entry.key_span.clone(),
                    format!("placeholders may stand in {field} values, not in names"),
                ));
                return None;
            }
            let text = ctx.string(&entry.value, &format!("{field}.{}", entry.key))?;
            let template = params.template(ctx, &entry.value, 0, &text, slot)?;
            Some((entry.key.clone(), template))
        })
        .collect()
}

/// RFC 9110 token characters.
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
