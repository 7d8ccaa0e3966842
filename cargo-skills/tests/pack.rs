//! `cargo skills pack` (issue 43, item 2): bundles read back by a real
//! `unzip` and by the `zip` crate, file for file; the same input gives the
//! same bytes from any checkout; a bundle over the upload limit is refused
//! before any is written.

mod support;

use std::io::Read;
use std::path::Path;
use std::process::Command;

use support::{deploy_and_notes, files_with_modes, fresh_dir};

fn pack(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args(["skills", "pack", "--from", "skills"])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn bundles_unzip_to_the_skill_exactly() {
    let dir = fresh_dir("pack-roundtrip");
    deploy_and_notes(&dir);
    let output = pack(&dir, &["--out", "dist"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in ["deploy", "notes"] {
        let zip = dir.join(format!("dist/{name}.zip"));
        let unzipped = dir.join(format!("unzipped-{name}"));
        let status = Command::new("unzip")
            .arg("-q")
            .arg(&zip)
            .arg("-d")
            .arg(&unzipped)
            .status()
            .unwrap();
        assert!(status.success());
        // One top-level folder named after the skill, SKILL.md at its root.
        let top: Vec<String> = std::fs::read_dir(&unzipped)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(top, [name]);
        assert_eq!(
            files_with_modes(&unzipped.join(name)),
            files_with_modes(&dir.join("skills").join(name))
        );
    }

    // The `zip` crate reads the same entries, names sorted, modes kept.
    let bytes = std::fs::read(dir.join("dist/deploy.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut read = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        read.push((
            entry.name().unwrap().to_string(),
            content,
            entry.unix_mode().unwrap() & 0o111 != 0,
        ));
    }
    let expected: Vec<(String, Vec<u8>, bool)> = files_with_modes(&dir.join("skills/deploy"))
        .into_iter()
        .map(|(path, bytes, executable)| (format!("deploy/{path}"), bytes, executable))
        .collect();
    assert_eq!(read, expected);
}

#[test]
fn the_same_skill_gives_the_same_bytes_from_any_checkout() {
    let one = fresh_dir("pack-same-1");
    let two = fresh_dir("pack-same-2");
    deploy_and_notes(&one);
    deploy_and_notes(&two);
    // Other modification times: nothing of them reaches the bundle.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(
        two.join("skills/notes/SKILL.md"),
        std::fs::read(one.join("skills/notes/SKILL.md")).unwrap(),
    )
    .unwrap();
    assert!(pack(&one, &["--out", "dist"]).status.success());
    assert!(pack(&two, &["--out", "dist"]).status.success());
    for name in ["deploy.zip", "notes.zip"] {
        assert_eq!(
            std::fs::read(one.join("dist").join(name)).unwrap(),
            std::fs::read(two.join("dist").join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_bundle_over_the_upload_limit_is_refused_before_any_is_written() {
    let dir = fresh_dir("pack-too-large");
    deploy_and_notes(&dir);
    // 9 MB that deflate cannot shrink (xorshift noise).
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..9_000_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    std::fs::write(dir.join("skills/deploy/assets/video.bin"), noise).unwrap();
    let output = pack(&dir, &["--out", "dist"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("skills/deploy: error[S523]: the bundle of `deploy` is "),
        "{stderr}"
    );
    assert!(
        stderr.contains("not under the Anthropic Skills API upload limit of 8000000 bytes"),
        "{stderr}"
    );
    assert!(
        !dir.join("dist").exists(),
        "nothing is written, not even notes.zip"
    );
}

#[test]
fn an_unknown_name_is_refused_with_a_did_you_mean() {
    let dir = fresh_dir("pack-names");
    deploy_and_notes(&dir);
    let output = pack(&dir, &["notse"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: there is no skill named `notse`; did you mean `notes`?\n"
    );
}
