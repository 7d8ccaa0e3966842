//! The skills extension (SEP-2640) on the server, as rmcp's client sees it
//! (issue 43, item 4): the frontmatter verbatim, a manifest that rmcp
//! validates and whose every digest verifies against the bytes served,
//! caching hints on `skills/list` and `skills/get`, and
//! `resources/directory/read` behind `directoryRead`, with `-32602` for
//! what is not a directory.

use rmcp::model::{
    CacheScope, DIRECTORY_MIME_TYPE, ErrorCode, GetSkillRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ResourceContents,
    SkillResources,
};
use rmcp::service::ServiceError;
use serde_json::json;

mod agent {
    skills::include_skills!("tests/sep2640", track = false);
}

#[path = "support/host.rs"]
mod host;

use host::{Connected, connect};

async fn served() -> Connected {
    connect(skills_mcp::Builder::new(&agent::SKILLS).build().unwrap()).await
}

/// The bytes `resources/read` serves at `uri`.
async fn read(client: &Connected, uri: &str) -> Vec<u8> {
    use base64::Engine;
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    match &read.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.as_bytes().to_vec(),
        ResourceContents::BlobResourceContents { blob, .. } => {
            base64::engine::general_purpose::STANDARD
                .decode(blob)
                .unwrap()
        }
        other => panic!("{uri}: {other:?}"),
    }
}

#[tokio::test]
async fn the_entry_holds_the_frontmatter_verbatim_and_every_file_verifies() {
    let client = served().await;
    let skills = client.list_all_skills().await.unwrap();
    rmcp::model::validate_skills(&skills).unwrap();
    assert_eq!(skills.len(), 1);
    let entry = &skills[0];
    assert_eq!(entry.uri, "skill://pdf/SKILL.md");
    // Every key the author wrote, with its value as YAML gives it.
    assert_eq!(
        serde_json::to_value(&entry.frontmatter).unwrap(),
        json!({
            "name": "pdf",
            "description": "Fill and assemble PDF documents. Use when the user asks to fill a form or build an invoice.",
            "license": "Apache-2.0",
            "compatibility": "Needs python3 with pypdf.",
            "allowed-tools": "Read Bash",
            "metadata": {"owner": "docs-team", "version": "2.1"},
            "x-review": {"status": "approved", "by": ["ana", "li"]},
        })
    );
    let SkillResources::Files(files) = &entry.resources else {
        panic!("a manifest")
    };
    let uris: Vec<&str> = files.iter().map(|file| file.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "skill://pdf/SKILL.md",
            "skill://pdf/references/FORMS.md",
            "skill://pdf/scripts/extract.py",
            "skill://pdf/templates/invoice.md",
            "skill://pdf/templates/regional/eu-invoice.md",
        ]
    );
    for file in files {
        let bytes = read(&client, &file.uri).await;
        file.verify(&bytes).unwrap();
        let on_disk = format!(
            "tests/sep2640/pdf/{}",
            file.uri.strip_prefix("skill://pdf/").unwrap()
        );
        assert_eq!(bytes, std::fs::read(on_disk).unwrap(), "{}", file.uri);
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn list_and_get_carry_the_caching_hints() {
    let client = served().await;
    let listed = client.list_skills(None).await.unwrap();
    assert_eq!(
        (listed.ttl_ms, listed.cache_scope),
        (Some(3_600_000), Some(CacheScope::Public))
    );
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://pdf/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(
        (got.ttl_ms, got.cache_scope),
        (Some(3_600_000), Some(CacheScope::Public))
    );
    assert_eq!(got.skill, listed.skills[0]);
    client.cancel().await.unwrap();

    let private = skills_mcp::Builder::new(&agent::SKILLS)
        .cache(skills_mcp::Cache {
            ttl_ms: 5_000,
            scope: CacheScope::Private,
        })
        .build()
        .unwrap();
    let client = connect(private).await;
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://pdf/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(
        (got.ttl_ms, got.cache_scope),
        (Some(5_000), Some(CacheScope::Private))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn directories_list_their_direct_children() {
    let client = served().await;
    assert!(
        client
            .peer_info()
            .unwrap()
            .capabilities
            .supports_directory_read()
    );
    let children = |uri: &'static str| {
        let client = &client;
        async move {
            client
                .read_resource_directory(ReadResourceDirectoryRequestParams::new(uri))
                .await
                .unwrap()
                .resources
                .into_iter()
                .map(|r| (r.uri.clone(), r.name.clone(), r.mime_type.clone()))
                .collect::<Vec<_>>()
        }
    };
    let dir = || Some(DIRECTORY_MIME_TYPE.to_owned());
    let markdown = || Some("text/markdown".to_owned());
    assert_eq!(
        children("skill://pdf").await,
        [
            ("skill://pdf/SKILL.md".into(), "SKILL.md".into(), markdown()),
            ("skill://pdf/references".into(), "references".into(), dir()),
            ("skill://pdf/scripts".into(), "scripts".into(), dir()),
            ("skill://pdf/templates".into(), "templates".into(), dir()),
        ]
    );
    assert_eq!(
        children("skill://pdf/templates").await,
        [
            (
                "skill://pdf/templates/invoice.md".into(),
                "invoice.md".into(),
                markdown()
            ),
            (
                "skill://pdf/templates/regional".into(),
                "regional".into(),
                dir()
            ),
        ]
    );
    assert_eq!(
        children("skill://pdf/templates/regional").await,
        [(
            "skill://pdf/templates/regional/eu-invoice.md".into(),
            "eu-invoice.md".into(),
            markdown()
        )]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn what_is_not_a_directory_is_invalid_params() {
    let client = served().await;
    for uri in [
        "skill://pdf/SKILL.md",
        "skill://pdf/templates/invoice.md",
        "skill://pdf/missing",
        "skill://pdf/",
        "skill://pdf/templates/../references",
        "skill://nope",
        "file:///etc",
    ] {
        let error = client
            .read_resource_directory(ReadResourceDirectoryRequestParams::new(uri))
            .await
            .unwrap_err();
        let ServiceError::McpError(error) = error else {
            panic!("{uri}: {error}")
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{uri}");
    }
    let error = client
        .get_skill(GetSkillRequestParams::new("skill://nope/SKILL.md"))
        .await
        .unwrap_err();
    let ServiceError::McpError(error) = error else {
        panic!("{error}")
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    client.cancel().await.unwrap();
}

/// A non-ASCII name has one URI (issue 61, item 6): the catalog's
/// `<location>` is the URI the server lists and serves, percent-encoded.
#[tokio::test]
async fn a_non_ascii_name_has_one_uri_in_the_catalog_and_on_the_server() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sep2640-unicode");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("café")).unwrap();
    std::fs::write(
        dir.join("café/SKILL.md"),
        "---\nname: café\ndescription: Orders coffee. Use when asked for a coffee.\n---\nBody.\n",
    )
    .unwrap();
    let set = skills::loader::Loader::new().load(&dir).unwrap().into_set();
    let location = set.get("café").unwrap().location.to_string();
    assert_eq!(location, "skill://caf%C3%A9/SKILL.md");
    let client = connect(skills_mcp::Builder::new(set).build().unwrap()).await;
    let listed = client.list_skills(None).await.unwrap();
    assert_eq!(listed.skills[0].uri, location);
    let served = read(&client, &location).await;
    assert!(served.starts_with(b"---\nname: caf\xc3\xa9"), "{served:?}");
    client.cancel().await.unwrap();
}
