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

/// `skill://<name>/<path>` of a file of `skill`.
pub(crate) fn file(skill: &Skill, path: &str) -> String {
    directory(skill, path)
}

/// `skill://<name>/SKILL.md`.
pub(crate) fn skill(skill: &Skill) -> String {
    file(skill, SKILL_MD)
}

/// `skill://<name>` for the skill's root (`path` empty), or
/// `skill://<name>/<path>`: a directory's URI has no trailing slash.
pub(crate) fn directory(skill: &Skill, path: &str) -> String {
    let mut uri = String::from("skill://");
    uri.extend(percent_encoding::utf8_percent_encode(skill.name(), ENCODED));
    for segment in path.split('/').filter(|segment| !segment.is_empty()) {
        uri.push('/');
        uri.extend(percent_encoding::utf8_percent_encode(segment, ENCODED));
    }
    uri
}

/// The skill name and path a `skill://` URI names, decoded segment by
/// segment; the path is empty for `skill://<name>`. `None` for anything
/// else: another scheme, a query or fragment, a trailing slash, a segment
/// that decodes to a separator, and (through `Skill::file`) `..`, `.` and
/// empty segments, encoded or not.
pub(crate) fn parse(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix("skill://")?;
    if rest.contains(['?', '#']) || rest.ends_with('/') {
        return None;
    }
    let mut segments = rest.split('/').map(|segment| {
        let decoded = percent_encoding::percent_decode_str(segment)
            .decode_utf8()
            .ok()?;
        (!decoded.contains(['/', '\\'])).then(|| decoded.into_owned())
    });
    let name = segments.next()??;
    let path: Option<Vec<String>> = segments.collect();
    Some((name, path?.join("/")))
}
