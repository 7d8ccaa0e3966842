//! The SEP-2640 client (issue 43, item 5): skills loaded from our own
//! server come back file for file, and a server that lies gets a typed
//! error naming every lie, with nothing loaded.

use std::sync::Arc;

use rmcp::model::{
    ErrorData, GetSkillRequestParams, GetSkillResult, ListSkillsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
    ServerCapabilities, ServerConfig, Skill as Entry, SkillResource, SkillResources,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use skills::loader::Profile;
use skills_mcp::client::{Problem, Remote, RemoteError};

mod agent {
    skills::include_skills!("tests/sep2640", track = false);
}

#[path = "support/host.rs"]
mod host;

use host::connect;

/// The fixture has an `x-` key: the `extended` profile takes it.
fn remote(label: &str) -> Remote {
    Remote::new(label).profile(Profile::Extended)
}

fn cache(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn skills_from_our_server_load_file_for_file() {
    let client = connect(skills_mcp::Builder::new(&agent::SKILLS).build().unwrap()).await;
    let dir = cache("client-ours");
    let remote = remote("docs").load(client.peer(), &dir).await.unwrap();
    assert_eq!(remote.label(), "docs");
    let compiled = agent::SKILLS.get("pdf").unwrap();
    let loaded = remote.set().get("pdf").unwrap();
    assert_eq!(loaded.source(), compiled.source());
    let files = |skill: &skills::Skill| {
        skill
            .files()
            .iter()
            .map(|f| (f.path().to_owned(), f.bytes().to_vec()))
            .collect::<Vec<_>>()
    };
    assert_eq!(files(loaded), files(compiled));
    assert_eq!(loaded.frontmatter_json(), compiled.frontmatter_json());
    // A server cannot pre-approve tools; scripts are the host's to refuse.
    assert_eq!(compiled.allowed_tools().count(), 2);
    assert_eq!(loaded.allowed_tools().count(), 0);
    assert_eq!(remote.names().collect::<Vec<_>>(), ["pdf"]);
    // The files sit under the label, beside nothing else.
    assert!(
        dir.join("docs/pdf/templates/regional/eu-invoice.md")
            .is_file()
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_binding_changes_with_any_file_and_stays_with_none() {
    let client = connect(skills_mcp::Builder::new(&agent::SKILLS).build().unwrap()).await;
    let first = remote("docs")
        .load(client.peer(), &cache("client-bind-1"))
        .await
        .unwrap();
    let again = remote("docs")
        .load(client.peer(), &cache("client-bind-2"))
        .await
        .unwrap();
    assert_eq!(first.binding("pdf"), again.binding("pdf"));
    client.cancel().await.unwrap();

    let changed = connect(Liar::new(Lie::None).with_changed_file()).await;
    let other = remote("docs")
        .load(changed.peer(), &cache("client-bind-3"))
        .await
        .unwrap();
    assert_ne!(first.binding("pdf"), other.binding("pdf"));
    assert_eq!(
        first.binding("pdf").unwrap().uri,
        other.binding("pdf").unwrap().uri
    );
    changed.cancel().await.unwrap();
}

/// A server that serves the fixture skill, but lies in one way.
#[derive(Clone)]
struct Liar {
    lie: Lie,
    entries: Arc<Vec<Entry>>,
    files: Arc<Vec<(String, Vec<u8>)>>,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Lie {
    None,
    WrongDigest,
    WrongSize,
    Frontmatter,
    Huge,
    SameName,
    Dynamic,
    /// A nested skill whose file the enclosing skill's manifest leaves out.
    NestedOmitted,
}

/// The nested skill of [`Lie::NestedOmitted`].
const FORMS: &str =
    "---\nname: forms\ndescription: Fill PDF forms. Use when asked to fill a form.\n---\n# Forms\n";

impl Liar {
    fn new(lie: Lie) -> Liar {
        let skill = agent::SKILLS.get("pdf").unwrap();
        let mut files = vec![(
            "skill://pdf/SKILL.md".to_owned(),
            skill.source().as_bytes().to_vec(),
        )];
        for file in skill.files() {
            files.push((
                format!("skill://pdf/{}", file.path()),
                file.bytes().to_vec(),
            ));
        }
        if lie == Lie::NestedOmitted {
            files.push(("skill://pdf/forms/SKILL.md".into(), FORMS.into()));
            files.push(("skill://pdf/forms/extra.md".into(), b"extra".to_vec()));
        }
        let liar = Liar {
            lie,
            entries: Arc::new(Vec::new()),
            files: Arc::new(files),
        };
        liar.listed()
    }

    /// The same skill with one file's bytes changed (honestly listed).
    fn with_changed_file(mut self) -> Liar {
        Arc::make_mut(&mut self.files)[1]
            .1
            .extend_from_slice(b"\nOne more line.\n");
        self.listed()
    }

    fn listed(mut self) -> Liar {
        let manifest: Vec<SkillResource> = self
            .files
            .iter()
            .map(|(uri, bytes)| {
                let mut resource = SkillResource::from_bytes(uri.clone(), bytes);
                match self.lie {
                    Lie::WrongDigest if uri.ends_with("FORMS.md") => {
                        resource.digest = rmcp::model::sha256_digest(b"something else");
                    }
                    Lie::WrongSize if uri.ends_with("/templates/invoice.md") => resource.size += 1,
                    Lie::Huge if uri.ends_with("extract.py") => resource.size = 1 << 30,
                    _ => {}
                }
                resource
            })
            .collect();
        let mut frontmatter: rmcp::model::SkillFrontmatter =
            serde_json::from_str(&agent::SKILLS.get("pdf").unwrap().frontmatter_json()).unwrap();
        if self.lie == Lie::Frontmatter {
            frontmatter.extra.remove("allowed-tools");
        }
        let resources = match self.lie {
            Lie::Dynamic => SkillResources::Dynamic,
            Lie::NestedOmitted => SkillResources::Files(
                manifest
                    .iter()
                    .filter(|r| !r.uri.ends_with("/extra.md"))
                    .cloned()
                    .collect(),
            ),
            _ => SkillResources::Files(manifest.clone()),
        };
        let mut entries = vec![Entry::new(
            "skill://pdf/SKILL.md",
            frontmatter.clone(),
            resources,
        )];
        if self.lie == Lie::NestedOmitted {
            let nested = manifest
                .iter()
                .filter(|r| r.uri.starts_with("skill://pdf/forms/"))
                .cloned()
                .collect();
            let frontmatter = rmcp::model::SkillFrontmatter::new(
                "forms",
                "Fill PDF forms. Use when asked to fill a form.",
            );
            entries.push(Entry::new(
                "skill://pdf/forms/SKILL.md",
                frontmatter.clone(),
                SkillResources::Files(nested),
            ));
        }
        if self.lie == Lie::SameName {
            let nested: Vec<SkillResource> = manifest
                .iter()
                .map(|r| {
                    SkillResource::new(
                        r.uri.replace("skill://pdf/", "skill://team/pdf/"),
                        r.digest.clone(),
                        r.size,
                    )
                })
                .collect();
            entries.push(Entry::new(
                "skill://team/pdf/SKILL.md",
                frontmatter,
                SkillResources::Files(nested),
            ));
        }
        self.entries = Arc::new(entries);
        self
    }
}

impl ServerHandler for Liar {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_skills()
                .build(),
        )
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(ListSkillsResult::with_all_items(self.entries.to_vec()))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.entries
            .iter()
            .find(|entry| entry.uri == request.uri)
            .map(|entry| GetSkillResult::new(entry.clone()))
            .ok_or_else(|| ErrorData::invalid_params("no such skill", None))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.replace("skill://team/pdf/", "skill://pdf/");
        let (_, bytes) = self
            .files
            .iter()
            .find(|(listed, _)| *listed == uri)
            .ok_or_else(|| ErrorData::resource_not_found("no such file", None))?;
        let text = String::from_utf8(bytes.clone()).unwrap();
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]).into())
    }
}

async fn refused(lie: Lie) -> Vec<(String, Problem)> {
    let client = connect(Liar::new(lie)).await;
    let dir = cache(&format!("client-lie-{lie:?}"));
    let error = remote("liar").load(client.peer(), &dir).await.unwrap_err();
    client.cancel().await.unwrap();
    // Nothing of a refused load is written.
    assert!(!dir.join("liar").exists(), "{lie:?}");
    match error {
        RemoteError::Verification(failures) => {
            failures.into_iter().map(|f| (f.uri, f.problem)).collect()
        }
        other => panic!("{lie:?}: {other}"),
    }
}

#[tokio::test]
async fn a_lying_server_is_refused_with_every_lie_named() {
    let honest = connect(Liar::new(Lie::None)).await;
    remote("liar")
        .load(honest.peer(), &cache("client-honest"))
        .await
        .unwrap();
    honest.cancel().await.unwrap();

    let found = refused(Lie::WrongDigest).await;
    assert!(
        matches!(found.as_slice(), [(uri, Problem::Digest(_))] if uri == "skill://pdf/references/FORMS.md"),
        "{found:?}"
    );
    let found = refused(Lie::WrongSize).await;
    assert!(
        matches!(found.as_slice(), [(uri, Problem::Size { declared: 11, served: 10 })] if uri == "skill://pdf/templates/invoice.md"),
        "{found:?}"
    );
    let found = refused(Lie::Frontmatter).await;
    assert_eq!(
        found,
        [(
            "skill://pdf/SKILL.md".to_owned(),
            Problem::Frontmatter("allowed-tools".into())
        )]
    );
    // A skill declaring 1 GiB: past the set's limit (issue 58, item 6),
    // judged over the whole listing before anything is read; with the set's
    // limit lifted, past the skill's own.
    let client = connect(Liar::new(Lie::Huge)).await;
    let dir = cache("client-lie-huge-set");
    let error = remote("liar").load(client.peer(), &dir).await.unwrap_err();
    assert!(
        matches!(&error, RemoteError::Limit(why) if why.contains("`max_set_bytes`")),
        "{error}"
    );
    let error = remote("liar")
        .max_set_bytes(u64::MAX)
        .load(client.peer(), &dir)
        .await
        .unwrap_err();
    client.cancel().await.unwrap();
    assert!(
        matches!(&error, RemoteError::Verification(found) if matches!(found.as_slice(), [f] if matches!(f.problem, Problem::TooLarge { .. }))),
        "{error}"
    );
    let found = refused(Lie::SameName).await;
    assert_eq!(
        found,
        [(
            "skill://team/pdf/SKILL.md".to_owned(),
            Problem::NameTaken("skill://pdf/SKILL.md".into())
        )]
    );
    let found = refused(Lie::NestedOmitted).await;
    assert_eq!(
        found,
        [(
            "skill://pdf/forms/extra.md".to_owned(),
            Problem::NotAsInParent("skill://pdf/SKILL.md".into())
        )]
    );
    let found = refused(Lie::Dynamic).await;
    assert_eq!(
        found,
        [("skill://pdf/SKILL.md".to_owned(), Problem::NoManifest)]
    );

    // A refused load leaves what an earlier load put in the cache.
    let dir = cache("client-keep");
    let honest = connect(Liar::new(Lie::None)).await;
    remote("liar").load(honest.peer(), &dir).await.unwrap();
    honest.cancel().await.unwrap();
    let before = std::fs::read(dir.join("liar/pdf/SKILL.md")).unwrap();
    let liar = connect(Liar::new(Lie::Frontmatter)).await;
    remote("liar").load(liar.peer(), &dir).await.unwrap_err();
    liar.cancel().await.unwrap();
    assert_eq!(
        std::fs::read(dir.join("liar/pdf/SKILL.md")).unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "nothing left beside it"
    );
}

#[tokio::test]
async fn a_server_skill_never_silently_hides_a_local_one() {
    let client = connect(skills_mcp::Builder::new(&agent::SKILLS).build().unwrap()).await;
    let remote = remote("docs")
        .load(client.peer(), &cache("client-layers"))
        .await
        .unwrap();
    client.cancel().await.unwrap();
    let merged = skills::Layers::new()
        .layer("local", &agent::SKILLS)
        .layer(remote.label(), remote.set())
        .merge();
    assert_eq!(merged.shadowed.len(), 1);
    assert_eq!(
        (
            merged.shadowed[0].kept.as_str(),
            merged.shadowed[0].hidden.as_str()
        ),
        ("local", "docs")
    );
}

#[tokio::test]
async fn the_hosts_profile_decides_and_the_compiler_says_why() {
    let client = connect(skills_mcp::Builder::new(&agent::SKILLS).build().unwrap()).await;
    let error = Remote::new("docs")
        .load(client.peer(), &cache("client-portable"))
        .await
        .unwrap_err();
    client.cancel().await.unwrap();
    let RemoteError::Invalid(error) = error else {
        panic!("{error}")
    };
    let codes: Vec<&str> = error.errors().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["S113"]);
}

#[tokio::test]
async fn a_server_without_skills_loads_nothing_and_says_so() {
    let empty = skills::SkillSet::owned(Vec::new());
    let server = skills_mcp::Builder::new(std::sync::Arc::new(empty))
        .build()
        .unwrap();
    let client = connect(server).await;
    let error = remote("empty")
        .load(client.peer(), &cache("client-empty"))
        .await
        .unwrap_err();
    client.cancel().await.unwrap();
    assert!(matches!(error, RemoteError::NoSkills), "{error}");
}

#[path = "../../skills-compiler/tests/support/pki.rs"]
mod pki;

/// A served `skill.oms.sig` is verified like any other file: the host's
/// loader with `trust` takes a signed skill, and refuses one whose server
/// serves other bytes than were signed (S524), naming the file.
#[tokio::test]
async fn a_served_signature_is_verified_with_the_hosts_trust() {
    use skills::loader::Loader;

    let dir = cache("client-signed");
    let skill = dir.join("served/pdf");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use when asked to fill a form.\n---\nRun `scripts/fill.py`.\n",
    )
    .unwrap();
    std::fs::write(skill.join("scripts/fill.py"), "print('fill')\n").unwrap();
    let ca = pki::ca("CN=Test Root", pki::Curve::P256);
    let leaf = pki::leaf(&ca, "CN=Publisher", pki::Curve::P256);
    let anchors = dir.join("ca.pem");
    std::fs::write(&anchors, ca.pem()).unwrap();
    sign(&skill, &leaf, &ca);

    let served = |dir: &std::path::Path| {
        let set = Loader::new().load(dir.join("served")).unwrap().into_set();
        skills_mcp::Builder::new(set).build().unwrap()
    };
    let host = || {
        Remote::new("vendor").loader(
            Loader::new()
                .profile(Profile::Portable)
                .trust(&anchors)
                .require_signatures(),
        )
    };

    let client = connect(served(&dir)).await;
    let loaded = host()
        .load(client.peer(), &dir.join("cache-ok"))
        .await
        .unwrap();
    assert_eq!(loaded.names().collect::<Vec<_>>(), ["pdf"]);
    assert!(dir.join("cache-ok/vendor/pdf/skill.oms.sig").is_file());
    client.cancel().await.unwrap();

    std::fs::write(skill.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let client = connect(served(&dir)).await;
    let error = host()
        .load(client.peer(), &dir.join("cache-bad"))
        .await
        .unwrap_err();
    let RemoteError::Invalid(invalid) = &error else {
        panic!("{error}")
    };
    let errors: Vec<(&str, &str)> = invalid
        .errors()
        .map(|d| (d.code.as_str(), d.file.as_str()))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "S524");
    assert!(errors[0].1.ends_with("pdf/scripts/fill.py"), "{errors:?}");
    client.cancel().await.unwrap();
}

/// Signs `dir` as `cargo skills sign` does.
fn sign(dir: &std::path::Path, leaf: &pki::Made, ca: &pki::Made) {
    use skills_compiler::signing;
    let key = signing::SigningKey::from_pem(&leaf.key.pem()).unwrap();
    let bytes = signing::sign(
        dir,
        &key,
        &[leaf.certificate.clone(), ca.certificate.clone()],
    )
    .unwrap();
    std::fs::write(dir.join(signing::SIGNATURE_FILE), bytes).unwrap();
}
