//! The resolver keeps rig at 0.44 under this workspace's `rust-version`
//! (the tool API `skills-rig` is written against), and rig reaches no crate
//! outside `rig/`: the other workspace's lock holds no rig package.

fn packages(lock: &str) -> Vec<(String, String)> {
    lock.split("[[package]]")
        .filter_map(|block| {
            let field = |key: &str| {
                block.lines().find_map(|line| {
                    line.strip_prefix(&format!("{key} = \""))
                        .and_then(|rest| rest.strip_suffix('"'))
                        .map(str::to_owned)
                })
            };
            Some((field("name")?, field("version")?))
        })
        .collect()
}

fn read(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn rig_is_0_44_here() {
    let lock = packages(&read("../Cargo.lock"));
    for name in ["rig-core", "rig-agent", "rig-http"] {
        let versions: Vec<&str> = lock
            .iter()
            .filter(|(package, _)| package == name)
            .map(|(_, version)| version.as_str())
            .collect();
        assert_eq!(versions.len(), 1, "{name}: {versions:?}");
        assert!(versions[0].starts_with("0.44."), "{name} {}", versions[0]);
    }
}

#[test]
fn rig_is_in_no_other_crates_tree() {
    let lock = packages(&read("../../Cargo.lock"));
    assert!(!lock.is_empty());
    let rig: Vec<&(String, String)> = lock
        .iter()
        .filter(|(name, _)| name.starts_with("rig-"))
        .collect();
    assert!(rig.is_empty(), "{rig:?}");
}
