//! `skill://` URIs (SEP-2640), made once for the catalog's `<location>`
//! and the MCP server: `skill://<skill path>/<path>` for a file of a
//! skill and `skill://<skill path>[/<folder>]` for one of its directories,
//! each segment percent-encoded (a non-ASCII name has one URI, not two).

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
pub const SKILL_MD: &str = crate::Skill::FILE;

/// `skill://<skill path>` for a skill's root (`path` empty), or
/// `skill://<skill path>/<path>`: a directory's URI has no trailing slash.
/// The skill path is the name, after the prefix of a nested skill
/// (`pdf/forms`).
///
/// ```
/// assert_eq!(skills_core::uri::of("pdf/forms", "SKILL.md"), "skill://pdf/forms/SKILL.md");
/// assert_eq!(skills_core::uri::of("café", "a b.md"), "skill://caf%C3%A9/a%20b.md");
/// ```
pub fn of(skill_path: &str, path: &str) -> String {
    let mut uri = String::from("skill://");
    let segments = skill_path.split('/').chain(path.split('/'));
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
pub fn parse(uri: &str) -> Option<Vec<String>> {
    let rest = uri.strip_prefix("skill://")?;
    if rest.ends_with('/') {
        return None;
    }
    segments(rest)
}

/// The segments of a URI's path `rest` (what follows `skill://` or a
/// skill's root URI), each decoded; `None` when it has a query or a
/// fragment, or a segment decodes to a separator or to no UTF-8.
pub fn segments(rest: &str) -> Option<Vec<String>> {
    if rest.contains(['?', '#']) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_reads_back_as_its_segments() {
        let uri = of("pdf/forms", "a b/c#d.md");
        assert_eq!(uri, "skill://pdf/forms/a%20b/c%23d.md");
        assert_eq!(parse(&uri).unwrap(), ["pdf", "forms", "a b", "c#d.md"]);
        assert_eq!(parse("skill://pdf/a%2Fb"), None);
        assert_eq!(parse("https://pdf/SKILL.md"), None);
    }
}
