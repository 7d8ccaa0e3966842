//! The lowered tables (`crate::emit::lower`) printed as `static` values of the
//! runtime's types: data, which is cheap to compile, where code per tool is
//! not. Printing only; what goes in the tables is decided in `lower`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::SkillFile;

use skills_core::{
    Checks, Endpoint, Json, Kind, Method, Node, Part, Policy, Property, Section, Skill, Str, Tool,
    Version,
};

/// `Skill { ... }`, whose text is `source` (an `include_str!` of the skill
/// file: its only copy) and whose files are the `static` named by `files`
/// (see [`files`]).
pub(super) fn skill(skill: &Skill, source: &TokenStream, files: &TokenStream) -> TokenStream {
    let Skill {
        name,
        description,
        path,
        source: _,
        body_start,
        kind,
        version,
        license,
        compatibility,
        metadata,
        allowed_tools,
        triggers,
        tags,
        area,
        app_slug,
        model_config,
        extras,
        sections,
        tools,
        files: _,
        catalog_chars,
        location,
        rendered: _,
        sha256_hex: _,
    } = skill;
    let kind = match kind {
        Kind::Skill => quote!(__p::Kind::Skill),
        Kind::Protocol(protocol) => {
            let steps = texts(&protocol.steps);
            let post_checks = texts(&protocol.post_checks);
            let preconditions = texts(&protocol.preconditions);
            let on_deviation = text(&protocol.on_deviation);
            let on_blocked = text(&protocol.on_blocked);
            let on_already_done = text(&protocol.on_already_done);
            quote!(__p::Kind::Protocol(__p::B(&__p::Protocol {
                steps: #steps,
                post_checks: #post_checks,
                preconditions: #preconditions,
                on_deviation: #on_deviation,
                on_blocked: #on_blocked,
                on_already_done: #on_already_done,
            })))
        }
    };
    let version = match version {
        Version::Number(n) => quote!(__p::Version::Number(#n)),
        Version::Semver(s) => {
            let s = text(s);
            quote!(__p::Version::Semver(#s))
        }
        Version::Text(s) => {
            let s = text(s);
            quote!(__p::Version::Text(#s))
        }
    };
    let sections = sections.iter().map(section_value);
    let tools = tools.iter().map(tool_value);
    let (name, description, path, location) =
        (text(name), text(description), text(path), text(location));
    let (license, compatibility, area, app_slug, model_config) = (
        optional(license),
        optional(compatibility),
        optional(area),
        optional(app_slug),
        optional(model_config),
    );
    let (metadata, extras) = (pairs(metadata), pairs(extras));
    let (allowed_tools, triggers, tags) = (texts(allowed_tools), texts(triggers), texts(tags));
    quote!(__p::Skill {
        name: #name,
        description: #description,
        path: #path,
        source: __p::B(#source),
        body_start: #body_start,
        kind: #kind,
        version: #version,
        license: #license,
        compatibility: #compatibility,
        metadata: #metadata,
        allowed_tools: #allowed_tools,
        triggers: #triggers,
        tags: #tags,
        area: #area,
        app_slug: #app_slug,
        model_config: #model_config,
        extras: #extras,
        sections: __p::B(&[#(#sections),*]),
        tools: __p::B(&[#(#tools),*]),
        files: __p::B(&#files),
        catalog_chars: #catalog_chars,
        location: #location,
        rendered: __p::OnceLock::new(),
        sha256_hex: __p::OnceLock::new(),
    })
}

/// The items of a skill's `static FILES: [File; N]`. A file holds a digest
/// made on first use (interior mutability), so the files are a `static` of
/// their own: a `static` may not borrow a temporary that has one. `dir`: the
/// skill directory relative to the crate root.
pub(super) fn files(files: &[SkillFile], dir: &str) -> Vec<TokenStream> {
    files.iter().map(|file| file_value(file, dir)).collect()
}

/// A file's bytes are `include_bytes!` of the file itself: rustc reads and
/// tracks it, and nothing of it goes through tokens.
fn file_value(file: &SkillFile, dir: &str) -> TokenStream {
    let bytes = super::included(&format!("{dir}/{}", file.path));
    let (path, mime) = (text(&file.path), optional(&crate::emit::lower::mime(file)));
    let executable = file.executable;
    quote!(__p::File::new(#path, __p::B(#bytes), #executable, #mime))
}

fn section_value(section: &Section) -> TokenStream {
    let title = section.title.as_ref();
    let level = section.level;
    let (start, end) = (section.start, section.end);
    quote!(__p::Section::compiled(#title, #level, #start, #end))
}

fn tool_value(tool: &Tool) -> TokenStream {
    let name = text(&tool.name);
    let description = text(&tool.description);
    let policy = policy(tool.policy);
    let endpoint = match &tool.endpoint {
        Some(endpoint) => {
            let endpoint = endpoint_value(endpoint);
            quote!(__p::Some(#endpoint))
        }
        None => quote!(__p::None),
    };
    let hints = tool.hints;
    let (read_only, destructive, idempotent, open_world, consequential) = (
        hints.read_only,
        hints.destructive,
        hints.idempotent,
        hints.open_world,
        hints.consequential,
    );
    let nodes = tool.schema.nodes.iter().map(node);
    let parameters_json = text(&tool.parameters_json);
    let strict = tool.strict;
    quote!(__p::Tool {
        name: #name,
        description: #description,
        policy: #policy,
        hints: __p::Hints {
            read_only: #read_only,
            destructive: #destructive,
            idempotent: #idempotent,
            open_world: #open_world,
            consequential: #consequential,
        },
        endpoint: #endpoint,
        schema: __p::Schema { nodes: __p::B(&[#(#nodes),*]) },
        parameters_json: #parameters_json,
        strict: #strict,
    })
}

fn policy(policy: Policy) -> TokenStream {
    match policy {
        Policy::Allow => quote!(__p::Policy::Allow),
        Policy::Confirm => quote!(__p::Policy::Confirm),
        Policy::Deny => quote!(__p::Policy::Deny),
    }
}

fn node(node: &Node) -> TokenStream {
    match node {
        Node::String(checks) => {
            let checks = self::checks(checks);
            quote!(__p::Node::String(#checks))
        }
        Node::Integer(checks) => {
            let checks = self::checks(checks);
            quote!(__p::Node::Integer(#checks))
        }
        Node::Number(checks) => {
            let checks = self::checks(checks);
            quote!(__p::Node::Number(#checks))
        }
        Node::Boolean => quote!(__p::Node::Boolean),
        Node::Enum(values) => {
            let values = texts(values);
            quote!(__p::Node::Enum(#values))
        }
        Node::Array { items, checks } => {
            let checks = self::checks(checks);
            quote!(__p::Node::Array { items: #items, checks: #checks })
        }
        Node::Map { values, checks } => {
            let checks = self::checks(checks);
            quote!(__p::Node::Map { values: #values, checks: #checks })
        }
        Node::Nullable(inner) => quote!(__p::Node::Nullable(#inner)),
        Node::Object {
            properties,
            additional,
            checks,
        } => {
            let properties = properties.iter().map(property);
            let checks = self::checks(checks);
            quote!(__p::Node::Object {
                properties: __p::B(&[#(#properties),*]),
                additional: #additional,
                checks: #checks,
            })
        }
    }
}

fn property(property: &Property) -> TokenStream {
    let name = text(&property.name);
    let node = property.node;
    let required = property.required;
    let default = optional(&property.default);
    quote!(__p::Property { name: #name, node: #node, required: #required, default: #default })
}

fn checks(checks: &Checks) -> TokenStream {
    if checks.is_empty() {
        return quote!(__p::B(&__p::Checks::NONE));
    }
    let mut fields = Vec::new();
    let floats = [
        ("minimum", checks.minimum),
        ("maximum", checks.maximum),
        ("exclusive_minimum", checks.exclusive_minimum),
        ("exclusive_maximum", checks.exclusive_maximum),
        ("multiple_of", checks.multiple_of),
    ];
    for (name, value) in floats {
        if let Some(value) = value {
            let name = quote::format_ident!("{name}");
            fields.push(quote!(#name: __p::Some(#value),));
        }
    }
    let counts = [
        ("min_length", checks.min_length),
        ("max_length", checks.max_length),
        ("min_items", checks.min_items),
        ("max_items", checks.max_items),
        ("min_properties", checks.min_properties),
        ("max_properties", checks.max_properties),
    ];
    for (name, value) in counts {
        if let Some(value) = value {
            let name = quote::format_ident!("{name}");
            fields.push(quote!(#name: __p::Some(#value),));
        }
    }
    if checks.unique_items {
        fields.push(quote!(unique_items: true,));
    }
    if let Some(pattern) = &checks.pattern {
        let source = text(&pattern.source);
        let regex = text(&pattern.regex);
        fields.push(quote!(
            pattern: __p::Some(__p::Pattern { source: #source, regex: #regex }),
        ));
    }
    quote!(__p::B(&__p::Checks { #(#fields)* ..__p::Checks::NONE }))
}

fn endpoint_value(endpoint: &Endpoint) -> TokenStream {
    let method = method(endpoint.method);
    let origin = text(&endpoint.origin);
    let url = text(&endpoint.url);
    let path = parts(&endpoint.path);
    let pairs = |pairs: &[(Str, skills_core::List<Part>)]| -> TokenStream {
        let pairs = pairs.iter().map(|(name, template)| {
            let name = text(name);
            let parts = parts(template);
            quote!((#name, #parts))
        });
        quote!(__p::B(&[#(#pairs),*]))
    };
    let query = pairs(&endpoint.query);
    let headers = pairs(&endpoint.headers);
    let body = match &endpoint.body {
        Some(body) => {
            let root = json(body);
            quote!(__p::Some(#root))
        }
        None => quote!(__p::None),
    };
    quote!(__p::Endpoint {
        method: #method,
        origin: #origin,
        url: #url,
        path: #path,
        query: #query,
        headers: #headers,
        body: #body,
    })
}

fn method(method: Method) -> TokenStream {
    let variant = quote::format_ident!(
        "{}",
        match method {
            Method::Get => "Get",
            Method::Head => "Head",
            Method::Options => "Options",
            Method::Post => "Post",
            Method::Put => "Put",
            Method::Patch => "Patch",
            Method::Delete => "Delete",
        }
    );
    quote!(__p::Method::#variant)
}

fn parts(template: &[Part]) -> TokenStream {
    let parts = template.iter().map(|part| match part {
        Part::Text(literal) => {
            let literal = text(literal);
            quote!(__p::Part::Text(#literal))
        }
        Part::Param(name) => {
            let name = text(name);
            quote!(__p::Part::Param(#name))
        }
    });
    quote!(__p::B(&[#(#parts),*]))
}

fn json(node: &Json) -> TokenStream {
    match node {
        Json::Text(literal) => {
            let literal = text(literal);
            quote!(__p::Json::Text(#literal))
        }
        Json::Param(name) => {
            let name = text(name);
            quote!(__p::Json::Param(#name))
        }
        Json::String(template) => {
            let parts = parts(template);
            quote!(__p::Json::String(#parts))
        }
        Json::Object(members) => {
            let members = members.iter().map(|(key, value)| {
                let key = text(key);
                let value = json(value);
                quote!((#key, #value))
            });
            quote!(__p::Json::Object(__p::B(&[#(#members),*])))
        }
        Json::Array(items) => {
            let items = items.iter().map(json);
            quote!(__p::Json::Array(__p::B(&[#(#items),*])))
        }
    }
}

/// Borrowed text.
fn text(value: &str) -> TokenStream {
    quote!(__p::B(#value))
}

fn texts(values: &[Str]) -> TokenStream {
    let values = values.iter().map(|value| text(value));
    quote!(__p::B(&[#(#values),*]))
}

fn optional(value: &Option<Str>) -> TokenStream {
    match value {
        Some(value) => {
            let value = text(value);
            quote!(__p::Some(#value))
        }
        None => quote!(__p::None),
    }
}

fn pairs(pairs: &[(Str, Str)]) -> TokenStream {
    let pairs = pairs.iter().map(|(key, value)| {
        let (key, value) = (text(key), text(value));
        quote!((#key, #value))
    });
    quote!(__p::B(&[#(#pairs),*]))
}
