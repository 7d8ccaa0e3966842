//! Nested skills over SEP-2640 (issue 43, item 4): a skill in a folder of
//! another skill is listed on its own at `skill://<parent>/<name>/SKILL.md`,
//! and from its parent's side its files are supporting files like any other
//! (in the parent's manifest and directory listings), at the same URIs.

use rmcp::model::{
    DIRECTORY_MIME_TYPE, ReadResourceDirectoryRequestParams, ReadResourceRequestParams,
    ResourceContents, SkillResources,
};

mod agent {
    skills::include_skills!("tests/nested", track = false);
}

#[path = "support/host.rs"]
mod host;

use host::{Connected, connect};

async fn served() -> Connected {
    connect(skills_mcp::Builder::new(&agent::SKILLS).build().unwrap()).await
}

async fn read(client: &Connected, uri: &str) -> Vec<u8> {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap_or_else(|error| panic!("{uri}: {error}"));
    match &read.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.as_bytes().to_vec(),
        other => panic!("{uri}: {other:?}"),
    }
}

#[test]
fn the_compiled_nested_skill_knows_where_it_sits() {
    let forms = agent::SKILLS.get("forms").unwrap();
    assert_eq!(forms.prefix(), Some("pdf"));
    assert_eq!(forms.skill_path(), "pdf/forms");
    assert_eq!(forms.path(), "tests/nested/pdf/forms/SKILL.md");
    let pdf = agent::SKILLS.get("pdf").unwrap();
    assert_eq!((pdf.prefix(), pdf.skill_path().as_ref()), (None, "pdf"));
    // The compiled parent holds its own files; the nested skill its own.
    let paths = |skill: &skills::Skill| -> Vec<String> {
        skill.files().iter().map(|f| f.path().to_owned()).collect()
    };
    assert_eq!(paths(pdf), ["notes.md"]);
    assert_eq!(paths(forms), ["examples/filled.md"]);
}

#[tokio::test]
async fn a_nested_skill_is_listed_flat_and_its_files_are_its_parents_too() {
    let client = served().await;
    let skills = client.list_all_skills().await.unwrap();
    rmcp::model::validate_skills(&skills).unwrap();
    let uris: Vec<&str> = skills.iter().map(|entry| entry.uri.as_str()).collect();
    assert_eq!(uris, ["skill://pdf/forms/SKILL.md", "skill://pdf/SKILL.md"]);
    let manifest = |uri: &str| {
        let entry = skills.iter().find(|entry| entry.uri == uri).unwrap();
        let SkillResources::Files(files) = &entry.resources else {
            panic!("a manifest")
        };
        files.clone()
    };
    let pdf = manifest("skill://pdf/SKILL.md");
    let listed: Vec<&str> = pdf.iter().map(|file| file.uri.as_str()).collect();
    assert_eq!(
        listed,
        [
            "skill://pdf/SKILL.md",
            "skill://pdf/notes.md",
            "skill://pdf/forms/SKILL.md",
            "skill://pdf/forms/examples/filled.md",
        ]
    );
    let forms = manifest("skill://pdf/forms/SKILL.md");
    let listed: Vec<&str> = forms.iter().map(|file| file.uri.as_str()).collect();
    assert_eq!(
        listed,
        [
            "skill://pdf/forms/SKILL.md",
            "skill://pdf/forms/examples/filled.md",
        ]
    );
    // One URI, one file: the same digest in both manifests, and the bytes
    // on disk.
    for file in pdf.iter().chain(&forms) {
        let bytes = read(&client, &file.uri).await;
        file.verify(&bytes).unwrap();
        let on_disk = format!(
            "tests/nested/{}",
            file.uri.strip_prefix("skill://").unwrap()
        );
        assert_eq!(bytes, std::fs::read(on_disk).unwrap(), "{}", file.uri);
    }
    for file in &forms {
        assert!(pdf.contains(file), "{}", file.uri);
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_nested_skills_folder_is_a_folder_of_its_parent() {
    let client = served().await;
    let children = |uri: &'static str| {
        let client = &client;
        async move {
            client
                .read_resource_directory(ReadResourceDirectoryRequestParams::new(uri))
                .await
                .unwrap_or_else(|error| panic!("{uri}: {error}"))
                .resources
                .into_iter()
                .map(|r| (r.uri.clone(), r.mime_type.clone()))
                .collect::<Vec<_>>()
        }
    };
    let dir = || Some(DIRECTORY_MIME_TYPE.to_owned());
    let markdown = || Some("text/markdown".to_owned());
    assert_eq!(
        children("skill://pdf").await,
        [
            ("skill://pdf/SKILL.md".into(), markdown()),
            ("skill://pdf/forms".into(), dir()),
            ("skill://pdf/notes.md".into(), markdown()),
        ]
    );
    let forms = [
        ("skill://pdf/forms/SKILL.md".into(), markdown()),
        ("skill://pdf/forms/examples".into(), dir()),
    ];
    assert_eq!(children("skill://pdf/forms").await, forms);
    // The nested skill's name alone is not a URI of it.
    let error = client
        .read_resource_directory(ReadResourceDirectoryRequestParams::new("skill://forms"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("-32602"), "{error}");
    client.cancel().await.unwrap();
}

#[cfg(feature = "client")]
#[tokio::test]
async fn a_client_loads_the_nested_skill_from_its_parents_files() {
    let client = served().await;
    let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("nested-client");
    let _ = std::fs::remove_dir_all(&cache);
    let remote = skills_mcp::client::Remote::new("docs")
        .load(client.peer(), &cache)
        .await
        .unwrap();
    assert_eq!(remote.names().collect::<Vec<_>>(), ["forms", "pdf"]);
    let forms = remote.set().get("forms").unwrap();
    assert_eq!(forms.prefix(), Some("pdf"));
    assert_eq!(forms.source(), agent::SKILLS.get("forms").unwrap().source());
    // Written once, inside its parent, as the server serves it.
    assert!(cache.join("docs/pdf/forms/examples/filled.md").is_file());
    assert!(!cache.join("docs/forms").exists());
    // Approval is per skill: each has its own binding.
    assert_ne!(remote.binding("pdf"), remote.binding("forms"));
    client.cancel().await.unwrap();
}
