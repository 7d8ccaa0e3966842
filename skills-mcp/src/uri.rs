//! `skill://` URIs (SEP-2640): `skill://<name>/<path>` for a file of a skill
//! and `skill://<name>[/<folder>]` for one of its directories, each segment
//! percent-encoded.

use skills::Skill;

/// What a URI cannot hold as it is (RFC 3986), and what would change its
/// meaning: every path segment is percent-encoded with it.
const ENCODED: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The skill file's path in its URIs.
pub(crate) const SKILL_MD: &str = Skill::FILE;

/// `skill://<skill path>/<path>` of a file of `skill`.
pub(crate) fn file(skill: &Skill, path: &str) -> String {
    directory(skill, path)
}

/// `skill://<skill path>/SKILL.md`.
pub(crate) fn skill(skill: &Skill) -> String {
    file(skill, SKILL_MD)
}

/// `skill://<skill path>` for the skill's root (`path` empty), or
/// `skill://<skill path>/<path>`: a directory's URI has no trailing slash.
/// The skill path is the name, after the prefix of a nested skill
/// (`skill://pdf/forms/SKILL.md`).
pub(crate) fn directory(skill: &Skill, path: &str) -> String {
    let mut uri = String::from("skill://");
    let segments = skill.skill_path().into_owned();
    let segments = segments.split('/').chain(path.split('/'));
    for (at, segment) in segments.filter(|s| !s.is_empty()).enumerate() {
        if at > 0 {
            uri.push('/');
        }
        uri.extend(percent_encoding::utf8_percent_encode(segment, ENCODED));
    }
    uri
}

/// The path segments a `skill://` URI names, each decoded: the skill path
/// and then the path within the skill (which skill holds it is the
/// server's to find, the longest skill path first). `None` for anything
/// else: another scheme, a query or fragment, a trailing slash, a segment
/// that decodes to a separator, and (through `Skill::file`) `..`, `.` and
/// empty segments, encoded or not.
pub(crate) fn parse(uri: &str) -> Option<Vec<String>> {
    let rest = uri.strip_prefix("skill://")?;
    if rest.contains(['?', '#']) || rest.ends_with('/') {
        return None;
    }
    rest.split('/')
        .map(|segment| {
            let decoded = percent_encoding::percent_decode_str(segment)
                .decode_utf8()
                .ok()?;
            (!decoded.contains(['/', '\\'])).then(|| decoded.into_owned())
        })
        .collect()
}
