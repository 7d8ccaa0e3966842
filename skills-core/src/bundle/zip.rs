//! The zip writer: about a hundred lines of the ZIP format (APPNOTE 6.3).

use std::io::Write;

use super::path::UnsafePath;
use crate::file::is_file_path;
use crate::skill::Skill;

/// The DOS date of every entry: 1980-01-01, the format's first day.
const DOS_DATE: u16 = (1 << 5) | 1;
/// The DOS time of every entry: midnight.
const DOS_TIME: u16 = 0;
/// General-purpose flags: names are UTF-8 (bit 11).
const FLAGS: u16 = 1 << 11;
/// Version needed to extract: 2.0 (deflate, folders).
const VERSION_NEEDED: u16 = 20;
/// Version made by: Unix (3) and 2.0, so that readers take the mode from
/// the external attributes.
const VERSION_MADE_BY: u16 = (3 << 8) | 20;

/// Where a zip puts the skill's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZipLayout {
    /// Under one top-level folder named after the skill: what the hosted
    /// APIs take ([`Skill::zip`](crate::Skill::zip)).
    InFolder,
    /// At the archive's root: what a `.well-known/agent-skills` archive
    /// holds ([`well_known`](crate::well_known)).
    AtRoot,
}

impl Skill {
    /// The skill as a zip bundle: `name/SKILL.md` and every file of the
    /// skill under `name/`, sorted, execute bits kept, timestamps fixed;
    /// the same bytes `cargo skills pack` writes (feature `zip`). An error,
    /// and no bytes, when a name or path could unpack outside the folder.
    pub fn zip(&self) -> Result<Vec<u8>, UnsafePath> {
        self.zip_as(ZipLayout::InFolder)
    }

    /// The skill as a zip with its files laid out as `layout` says;
    /// otherwise as [`Skill::zip`].
    pub fn zip_as(&self, layout: ZipLayout) -> Result<Vec<u8>, UnsafePath> {
        let unsafe_path = |path: &str| UnsafePath {
            skill: self.name().to_owned(),
            path: path.to_owned(),
        };
        if !is_file_path(self.name()) || self.name().contains('/') {
            return Err(unsafe_path(self.name()));
        }
        if let Some(bad) = self.files().iter().find(|file| !is_file_path(file.path())) {
            return Err(unsafe_path(bad.path()));
        }
        let mut files: Vec<(&str, &[u8], bool)> = self
            .files()
            .iter()
            .map(|file| (file.path(), file.bytes(), file.is_executable()))
            .collect();
        files.push((Skill::FILE, self.source().as_bytes(), false));
        files.sort_by(|a, b| a.0.cmp(b.0));
        let mut zip = Zip::default();
        for (path, bytes, executable) in files {
            match layout {
                ZipLayout::InFolder => {
                    zip.add(&format!("{}/{path}", self.name()), bytes, executable)
                }
                ZipLayout::AtRoot => zip.add(path, bytes, executable),
            }
        }
        Ok(zip.finish())
    }
}

/// A zip archive being written in memory.
#[derive(Default)]
struct Zip {
    out: Vec<u8>,
    central: Vec<u8>,
    entries: u16,
}

impl Zip {
    fn add(&mut self, name: &str, bytes: &[u8], executable: bool) {
        let crc = crc32fast::hash(bytes);
        let deflated = deflate(bytes);
        let (method, data): (u16, &[u8]) = match &deflated {
            Some(deflated) if deflated.len() < bytes.len() => (8, deflated),
            _ => (0, bytes),
        };
        let offset = self.out.len() as u32;
        let name = name.as_bytes();
        // Local file header.
        put32(&mut self.out, 0x0403_4b50);
        put16(&mut self.out, VERSION_NEEDED);
        put16(&mut self.out, FLAGS);
        put16(&mut self.out, method);
        put16(&mut self.out, DOS_TIME);
        put16(&mut self.out, DOS_DATE);
        put32(&mut self.out, crc);
        put32(&mut self.out, data.len() as u32);
        put32(&mut self.out, bytes.len() as u32);
        put16(&mut self.out, name.len() as u16);
        put16(&mut self.out, 0);
        self.out.extend_from_slice(name);
        self.out.extend_from_slice(data);
        // Its central directory record.
        let mode: u32 = if executable { 0o100_755 } else { 0o100_644 };
        put32(&mut self.central, 0x0201_4b50);
        put16(&mut self.central, VERSION_MADE_BY);
        put16(&mut self.central, VERSION_NEEDED);
        put16(&mut self.central, FLAGS);
        put16(&mut self.central, method);
        put16(&mut self.central, DOS_TIME);
        put16(&mut self.central, DOS_DATE);
        put32(&mut self.central, crc);
        put32(&mut self.central, data.len() as u32);
        put32(&mut self.central, bytes.len() as u32);
        put16(&mut self.central, name.len() as u16);
        put16(&mut self.central, 0); // extra
        put16(&mut self.central, 0); // comment
        put16(&mut self.central, 0); // disk
        put16(&mut self.central, 0); // internal attributes
        put32(&mut self.central, mode << 16);
        put32(&mut self.central, offset);
        self.central.extend_from_slice(name);
        self.entries += 1;
    }

    fn finish(mut self) -> Vec<u8> {
        let offset = self.out.len() as u32;
        let size = self.central.len() as u32;
        self.out.extend_from_slice(&self.central);
        put32(&mut self.out, 0x0605_4b50);
        put16(&mut self.out, 0);
        put16(&mut self.out, 0);
        put16(&mut self.out, self.entries);
        put16(&mut self.out, self.entries);
        put32(&mut self.out, size);
        put32(&mut self.out, offset);
        put16(&mut self.out, 0);
        self.out
    }
}

/// Raw deflate at the default level; `None` if the encoder fails.
fn deflate(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
}

fn put16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}
