//! A compiled skill's tables packed into bytes, and the skill they unpack to
//! on first use.
//!
//! Generated code used to spell every table as a nested `static` literal:
//! about 30 fields a skill, one constructor a heading, schema node or
//! template part. rustc type-checks each of those and keeps it in its
//! incremental graph, and a position-independent binary stores a relocation
//! per borrowed string: most of a rebuild above linking the runtime, and
//! 0.3x of the raw text in a release binary (BENCHMARKS.md, issue 21). Now
//! the compiler packs each skill's tables into one byte string ([`pack`]),
//! the generated code holds it as one literal, and [`CompiledSkill`]
//! unpacks it into a [`Skill`] the first time the skill is used. Unpacking
//! reads no YAML and no markdown: it is a walk over lengths and offsets.
//!
//! Text is stored once. A string that appears as it is in the skill file's
//! frontmatter (a name, a description), or a heading's title in its line,
//! is an offset and a length into the file, which the binary holds anyway
//! (`include_str!`); the rest is inline in the bytes. JSON text made from
//! the frontmatter is packed value by value, so that its strings are such
//! offsets too (`json`). Numbers are LEB128 varints.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::endpoint::{Endpoint, Json, Part};
use crate::file::File;
use crate::policy::{Hints, Method, Policy};
use crate::schema::{Checks, Node, Pattern, Property, Schema};
use crate::skill::{Kind, Protocol, Section, Skill, Version};
use crate::tables::{List, Memo, Str};
use crate::tool::Tool;

mod json;
mod wire;

pub(crate) use wire::Unpacked;
use wire::{Reader, Writer};

/// The first byte of every packed table: a table packed by another layout
/// is refused, not misread.
const FORMAT: u8 = 3;

/// A skill compiled into the binary: its name, its file's text, its packed
/// tables and its files, all `'static`. It dereferences to the [`Skill`],
/// unpacked on first use.
///
/// ```
/// # fn show(skill: &'static skills_core::CompiledSkill) {
/// println!("{}: {}", skill.name(), skill.description());
/// # }
/// ```
pub struct CompiledSkill {
    name: &'static str,
    source: &'static str,
    packed: &'static [u8],
    files: &'static [File],
    /// Boxed: a `static` is stored whole in the binary's data, and an
    /// unboxed `Skill` would be 600 bytes of zeros a skill in the file.
    skill: OnceLock<Box<Skill>>,
}

impl CompiledSkill {
    /// What generated code writes: `packed` is [`pack`] of the skill whose
    /// file is `source`.
    #[doc(hidden)]
    pub const fn new(
        name: &'static str,
        source: &'static str,
        packed: &'static [u8],
        files: &'static [File],
    ) -> CompiledSkill {
        CompiledSkill {
            name,
            source,
            packed,
            files,
            skill: OnceLock::new(),
        }
    }

    /// The skill's name, without unpacking it (a set's index is built from
    /// the names alone).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The skill, unpacked on first use.
    ///
    /// # Panics
    ///
    /// When the bytes do not unpack, which only a binary that mixes two
    /// versions of `skills-core` could hold: the code generator and the
    /// runtime share this module, and the tests unpack every compiled
    /// fixture set and compare it with the loader's.
    pub fn skill(&self) -> &Skill {
        self.skill
            .get_or_init(|| match unpack(self.packed, self.source, self.files) {
                Ok(skill) => Box::new(skill),
                Err(error) => panic!(
                    "the compiled tables of skill `{}` do not unpack ({error}): \
                 the binary mixes versions of skills-core",
                    self.name
                ),
            })
    }
}

impl std::ops::Deref for CompiledSkill {
    type Target = Skill;

    fn deref(&self) -> &Skill {
        self.skill()
    }
}

impl std::fmt::Debug for CompiledSkill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// `skill`'s tables as bytes, for generated code. Its `source` and `files`
/// are not in them: the generated code passes those beside.
#[doc(hidden)]
pub fn pack(skill: &Skill) -> Vec<u8> {
    let window = 0..skill.body_start.min(skill.source.len());
    let mut out = Writer::new(&skill.source, skill.body_start, window);
    out.byte(FORMAT);
    pack_fields(skill, &mut out);
    out.bytes
}

/// The skill `packed` holds, whose file is `source` and whose files are
/// `files`.
pub(crate) fn unpack(
    packed: &'static [u8],
    source: &'static str,
    files: &'static [File],
) -> Result<Skill, Unpacked> {
    let r = &mut Reader::new(packed, source);
    if r.byte()? != FORMAT {
        return Err(r.error_before(1, "this version of the packed format"));
    }
    let skill = unpack_fields(r, source, files)?;
    if r.at() != packed.len() {
        return Err(r.error_before(0, "the end of the table"));
    }
    Ok(skill)
}

/// A field packed by its type's [`Packed`], or by `$codec`'s `pack` (a
/// module with `pack` and `unpack`, for a field whose type says too little:
/// a `Str` that holds JSON text).
macro_rules! pack_field {
    ($value:expr, $w:ident) => {
        $value.pack($w)
    };
    ($value:expr, $w:ident, $codec:ident) => {
        $codec::pack(&$value, $w)
    };
}

/// A field unpacked as [`pack_field!`] packed it.
macro_rules! unpack_field {
    ($r:ident) => {
        Packed::unpack($r)?
    };
    ($r:ident, $codec:ident) => {
        $codec::unpack($r)?
    };
}

/// The fields of a [`Skill`] that its tables hold, in their packed order:
/// [`pack`] and [`unpack`] are both made from this one list, so the two
/// cannot disagree on it. (`source` and `files` are passed beside the
/// tables; the caches start empty.)
macro_rules! skill_tables {
    ($($field:ident $(as $codec:ident)?),* $(,)?) => {
        fn pack_fields(skill: &Skill, w: &mut Writer<'_>) {
            $(pack_field!(skill.$field, w $(, $codec)?);)*
        }

        fn unpack_fields(
            r: &mut Reader,
            source: &'static str,
            files: &'static [File],
        ) -> Result<Skill, Unpacked> {
            $(let $field = unpack_field!(r $(, $codec)?);)*
            Ok(Skill {
                $($field,)*
                source: Cow::Borrowed(source),
                files: Cow::Borrowed(files),
                rendered: Memo::new(),
                sha256_hex: Memo::new(),
            })
        }
    };
}

skill_tables!(
    name,
    description,
    path,
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
    frontmatter as json,
    sections,
    tools,
    catalog_chars,
    location,
    prefix,
);

/// A value of the tables, written by [`pack`] and read back by [`unpack`].
trait Packed: Sized {
    fn pack(&self, w: &mut Writer<'_>);
    fn unpack(r: &mut Reader) -> Result<Self, Unpacked>;
}

impl Packed for bool {
    fn pack(&self, w: &mut Writer<'_>) {
        w.byte(u8::from(*self));
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        match r.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(r.error_before(1, "0 or 1")),
        }
    }
}

impl Packed for u8 {
    fn pack(&self, w: &mut Writer<'_>) {
        w.byte(*self);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        r.byte()
    }
}

impl Packed for u32 {
    fn pack(&self, w: &mut Writer<'_>) {
        w.varint(u64::from(*self));
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        let value = r.varint()?;
        u32::try_from(value).map_err(|_| r.error_before(1, "a number that fits u32"))
    }
}

impl Packed for u64 {
    fn pack(&self, w: &mut Writer<'_>) {
        w.varint(*self);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        r.varint()
    }
}

impl Packed for usize {
    fn pack(&self, w: &mut Writer<'_>) {
        w.count(*self);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        r.usize()
    }
}

impl Packed for f64 {
    fn pack(&self, w: &mut Writer<'_>) {
        w.bytes.extend_from_slice(&self.to_le_bytes());
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        let bytes = r.take(8)?;
        let bytes: [u8; 8] = bytes
            .try_into()
            .map_err(|_| r.error_before(8, "eight bytes"))?;
        Ok(f64::from_le_bytes(bytes))
    }
}

impl Packed for Str {
    fn pack(&self, w: &mut Writer<'_>) {
        w.text(self);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        r.text().map(Cow::Borrowed)
    }
}

impl<T: Packed> Packed for Option<T> {
    fn pack(&self, w: &mut Writer<'_>) {
        match self {
            None => w.byte(0),
            Some(value) => {
                w.byte(1);
                value.pack(w);
            }
        }
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        match bool::unpack(r)? {
            false => Ok(None),
            true => T::unpack(r).map(Some),
        }
    }
}

impl<A: Packed, B: Packed> Packed for (A, B) {
    fn pack(&self, w: &mut Writer<'_>) {
        self.0.pack(w);
        self.1.pack(w);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        Ok((A::unpack(r)?, B::unpack(r)?))
    }
}

impl<T: Packed + Clone> Packed for List<T> {
    fn pack(&self, w: &mut Writer<'_>) {
        w.count(self.len());
        for item in self.iter() {
            item.pack(w);
        }
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        let count = r.usize()?;
        // Every item is at least a byte: a count beyond the bytes left is
        // refused before anything is allocated for it.
        if count > r.left() {
            return Err(r.error_before(1, "a count no larger than the bytes left"));
        }
        let mut items = Vec::with_capacity(count);
        for _ in 0..count {
            items.push(T::unpack(r)?);
        }
        Ok(Cow::Owned(items))
    }
}

/// Fields in order, for the structs whose every field is packed.
macro_rules! packed_struct {
    ($type:ident { $($field:ident $(as $codec:ident)?),* $(,)? }) => {
        impl Packed for $type {
            fn pack(&self, w: &mut Writer<'_>) {
                $(pack_field!(self.$field, w $(, $codec)?);)*
            }

            fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
                Ok($type { $($field: unpack_field!(r $(, $codec)?)),* })
            }
        }
    };
}

/// Variants as a tag byte, followed by the variant's one value when it has
/// one: `Variant(value) = tag` or `Variant = tag`.
macro_rules! packed_variants {
    ($type:ident { $($variant:ident $(($value:ident))? = $tag:literal),* $(,)? }) => {
        impl Packed for $type {
            fn pack(&self, w: &mut Writer<'_>) {
                match self {
                    $($type::$variant $(($value))? => {
                        w.byte($tag);
                        $($value.pack(w);)?
                    })*
                }
            }

            fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
                match r.byte()? {
                    // `$value` only says whether the variant holds a value.
                    $($tag => Ok($type::$variant $(({
                        let _ = stringify!($value);
                        Packed::unpack(r)?
                    }))?),)*
                    _ => Err(r.error_before(1, concat!("a tag of ", stringify!($type)))),
                }
            }
        }
    };
}

/// A title is looked for in its heading's line, the section's first,
/// rather than in the frontmatter.
impl Packed for Section {
    fn pack(&self, w: &mut Writer<'_>) {
        let line = w.body_start + self.start;
        let end = w
            .source
            .get(line..)
            .map_or(line, |rest| line + rest.find('\n').unwrap_or(rest.len()));
        let frontmatter = std::mem::replace(&mut w.window, line..end);
        self.title.pack(w);
        w.window = frontmatter;
        self.level.pack(w);
        self.start.pack(w);
        self.end.pack(w);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        Ok(Section {
            title: Packed::unpack(r)?,
            level: Packed::unpack(r)?,
            start: Packed::unpack(r)?,
            end: Packed::unpack(r)?,
        })
    }
}

packed_struct!(Protocol {
    steps,
    post_checks,
    preconditions,
    on_deviation,
    on_blocked,
    on_already_done,
});
packed_struct!(Tool {
    name,
    title,
    description,
    policy,
    hints,
    endpoint,
    schema,
    parameters_json as json,
    strict,
});
packed_struct!(Hints {
    read_only,
    destructive,
    idempotent,
    open_world,
    consequential,
});
packed_struct!(Endpoint {
    method,
    origin,
    url,
    path,
    query,
    headers,
    body
});
packed_struct!(Schema { nodes });
packed_struct!(Property {
    name,
    node,
    required,
    default
});
packed_struct!(Pattern { source, regex });
packed_variants!(Policy {
    Allow = 0,
    Confirm = 1,
    Deny = 2
});
packed_variants!(Method {
    Get = 0,
    Head = 1,
    Options = 2,
    Post = 3,
    Put = 4,
    Patch = 5,
    Delete = 6,
});

/// Checks are mostly none, and those share the one `Checks::NONE`. A
/// varint of flags says which keywords follow, so that a node without
/// checks costs one byte.
impl Packed for Cow<'static, Checks> {
    fn pack(&self, w: &mut Writer<'_>) {
        let Checks {
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_length,
            max_length,
            min_items,
            max_items,
            unique_items,
            min_properties,
            max_properties,
            pattern,
        } = &**self;
        let floats = [
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
        ];
        let counts = [
            min_length,
            max_length,
            min_items,
            max_items,
            min_properties,
            max_properties,
        ];
        let present = floats
            .iter()
            .map(|value| value.is_some())
            .chain(counts.iter().map(|value| value.is_some()))
            .chain([*unique_items, pattern.is_some()]);
        let flags = present
            .enumerate()
            .fold(0u64, |flags, (bit, set)| flags | (u64::from(set) << bit));
        w.varint(flags);
        floats.into_iter().flatten().for_each(|value| value.pack(w));
        counts.into_iter().flatten().for_each(|value| value.pack(w));
        if let Some(pattern) = pattern {
            pattern.pack(w);
        }
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        let flags = r.varint()?;
        if flags == 0 {
            return Ok(Cow::Borrowed(&Checks::NONE));
        }
        if flags >> 13 != 0 {
            return Err(r.error_before(1, "flags of the thirteen checks"));
        }
        let mut bit = 0;
        let mut next = || {
            bit += 1;
            flags & (1 << (bit - 1)) != 0
        };
        let float = |r: &mut Reader, present: bool| present.then(|| f64::unpack(r)).transpose();
        let minimum = float(r, next())?;
        let maximum = float(r, next())?;
        let exclusive_minimum = float(r, next())?;
        let exclusive_maximum = float(r, next())?;
        let multiple_of = float(r, next())?;
        let count = |r: &mut Reader, present: bool| present.then(|| u64::unpack(r)).transpose();
        let min_length = count(r, next())?;
        let max_length = count(r, next())?;
        let min_items = count(r, next())?;
        let max_items = count(r, next())?;
        let min_properties = count(r, next())?;
        let max_properties = count(r, next())?;
        let unique_items = next();
        let pattern = next().then(|| Pattern::unpack(r)).transpose()?;
        Ok(Cow::Owned(Checks {
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_length,
            max_length,
            min_items,
            max_items,
            unique_items,
            min_properties,
            max_properties,
            pattern,
        }))
    }
}

packed_variants!(Kind {
    Skill = 0,
    Protocol(protocol) = 1,
});
packed_variants!(Version {
    Number(number) = 0,
    Semver(text) = 1,
    Text(text) = 2,
});
packed_variants!(Part {
    Text(text) = 0,
    Param(name) = 1,
});
packed_variants!(Json {
    Text(text) = 0,
    Param(name) = 1,
    String(parts) = 2,
    Object(members) = 3,
    Array(items) = 4,
});

impl Packed for Cow<'static, Protocol> {
    fn pack(&self, w: &mut Writer<'_>) {
        (**self).pack(w);
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        Protocol::unpack(r).map(Cow::Owned)
    }
}

impl Packed for Node {
    fn pack(&self, w: &mut Writer<'_>) {
        match self {
            Node::String(checks) => {
                w.byte(0);
                checks.pack(w);
            }
            Node::Integer(checks) => {
                w.byte(1);
                checks.pack(w);
            }
            Node::Number(checks) => {
                w.byte(2);
                checks.pack(w);
            }
            Node::Boolean => w.byte(3),
            Node::Enum(values) => {
                w.byte(4);
                values.pack(w);
            }
            Node::Array { items, checks } => {
                w.byte(5);
                items.pack(w);
                checks.pack(w);
            }
            Node::Map { values, checks } => {
                w.byte(6);
                values.pack(w);
                checks.pack(w);
            }
            Node::Object {
                properties,
                additional,
                checks,
            } => {
                w.byte(7);
                properties.pack(w);
                additional.pack(w);
                checks.pack(w);
            }
            Node::Nullable(inner) => {
                w.byte(8);
                inner.pack(w);
            }
        }
    }

    fn unpack(r: &mut Reader) -> Result<Self, Unpacked> {
        Ok(match r.byte()? {
            0 => Node::String(Packed::unpack(r)?),
            1 => Node::Integer(Packed::unpack(r)?),
            2 => Node::Number(Packed::unpack(r)?),
            3 => Node::Boolean,
            4 => Node::Enum(Packed::unpack(r)?),
            5 => Node::Array {
                items: Packed::unpack(r)?,
                checks: Packed::unpack(r)?,
            },
            6 => Node::Map {
                values: Packed::unpack(r)?,
                checks: Packed::unpack(r)?,
            },
            7 => Node::Object {
                properties: Packed::unpack(r)?,
                additional: Packed::unpack(r)?,
                checks: Packed::unpack(r)?,
            },
            8 => Node::Nullable(Packed::unpack(r)?),
            _ => return Err(r.error_before(1, "a tag of Node")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::borrow::Cow::Borrowed as B;

    const SOURCE: &str = "---\nname: deploy\ndescription: Ships the service to production\n---\n# Deploy\n\nRun it.\n## Roll back\nUndo it.\n";

    /// A skill with a protocol, a tool whose schema holds every kind of node
    /// and check, and an endpoint with every kind of template.
    fn skill() -> Skill {
        let body_start = SOURCE.find("# Deploy").unwrap();
        let pattern = Pattern {
            source: B("^v[0-9]+$"),
            regex: B("^v[0-9]+$"),
        };
        let checks = Checks {
            minimum: Some(1.5),
            exclusive_maximum: Some(1e300),
            max_length: Some(u64::MAX),
            unique_items: true,
            pattern: Some(pattern),
            ..Checks::NONE
        };
        let nodes = vec![
            Node::Object {
                properties: Cow::Owned(vec![Property {
                    name: B("version"),
                    node: 1,
                    required: true,
                    default: Some(B("\"v1\"")),
                }]),
                additional: true,
                checks: B(&Checks::NONE),
            },
            Node::String(Cow::Owned(checks.clone())),
            Node::Integer(B(&Checks::NONE)),
            Node::Number(Cow::Owned(checks)),
            Node::Boolean,
            Node::Enum(Cow::Owned(vec![B("a"), B("é")])),
            Node::Array {
                items: 4,
                checks: B(&Checks::NONE),
            },
            Node::Map {
                values: 2,
                checks: B(&Checks::NONE),
            },
            Node::Nullable(u32::MAX),
        ];
        let part = |text| Cow::Owned(vec![Part::Text(B(text)), Part::Param(B("version"))]);
        let endpoint = Endpoint {
            method: Method::Patch,
            origin: B("https://deploy.example.com"),
            url: B("https://deploy.example.com/v/{{version}}"),
            path: part("/v/"),
            query: Cow::Owned(vec![(B("q"), part(""))]),
            headers: Cow::Owned(vec![(B("X-Version"), part("v="))]),
            body: Some(Json::Object(Cow::Owned(vec![
                (
                    B("\"a\""),
                    Json::Array(Cow::Owned(vec![Json::Text(B("1"))])),
                ),
                (B("\"b\""), Json::Param(B("version"))),
                (B("\"c\""), Json::String(part("x"))),
            ]))),
        };
        let tool = Tool {
            name: B("deploy"),
            title: Some(B("Deploy")),
            description: B("Ships the service to production"),
            policy: Policy::Confirm,
            hints: Hints {
                read_only: false,
                destructive: true,
                idempotent: false,
                open_world: true,
                consequential: true,
            },
            endpoint: Some(endpoint),
            schema: Schema {
                nodes: Cow::Owned(nodes),
            },
            // Shares `properties` with the frontmatter: packed as a number.
            parameters_json: B(
                r#"{"additionalProperties":false,"properties":{"version":{"pattern":"^v[0-9]+$","type":"string"}},"type":"object"}"#,
            ),
            strict: false,
        };
        let protocol = Protocol {
            steps: Cow::Owned(vec![B("Build"), B("Ship")]),
            post_checks: Cow::Owned(vec![B("It answers")]),
            preconditions: B(&[]),
            on_deviation: B("Stop"),
            on_blocked: B("Ask"),
            on_already_done: B("Skip"),
        };
        Skill {
            name: B("deploy"),
            description: B("Ships the service to production"),
            path: B("skills/deploy/SKILL.md"),
            source: B(SOURCE),
            body_start,
            kind: Kind::Protocol(Cow::Owned(protocol)),
            version: Version::Semver(B("1.2.3")),
            license: Some(B("MIT")),
            compatibility: None,
            metadata: Cow::Owned(vec![(B("owner"), B("ops"))]),
            allowed_tools: Cow::Owned(vec![B("Bash")]),
            triggers: B(&[]),
            tags: Cow::Owned(vec![B("ops")]),
            area: None,
            app_slug: Some(B("deployer")),
            model_config: None,
            extras: Cow::Owned(vec![(B("x-team"), B("\"ops\""))]),
            // Every kind of JSON value, and strings found in the file.
            frontmatter: B(
                r#"{"license":"MIT","tools":[{"name":"deploy","parameters":{"properties":{"version":{"pattern":"^v[0-9]+$","type":"string"}}},"x":[1.5,-2,true,false,null,[],{}]}],"x-team":"ops"}"#,
            ),
            sections: Cow::Owned(vec![
                Section {
                    title: B("Deploy"),
                    level: 1,
                    start: 0,
                    end: 19,
                },
                Section {
                    title: B("Roll back"),
                    level: 2,
                    start: 19,
                    end: 41,
                },
            ]),
            tools: Cow::Owned(vec![tool]),
            files: B(&[]),
            catalog_chars: 240,
            location: B("skill://deploy"),
            prefix: Some(B("ops")),
            rendered: Memo::new(),
            sha256_hex: Memo::new(),
        }
    }

    fn leak(bytes: Vec<u8>) -> &'static [u8] {
        Box::leak(bytes.into_boxed_slice())
    }

    #[test]
    fn a_skill_unpacks_to_what_was_packed() {
        let skill = skill();
        let unpacked = unpack(leak(pack(&skill)), SOURCE, &[]).unwrap();
        // `Cow`'s Debug shows the value, borrowed or owned: every field.
        assert_eq!(format!("{unpacked:#?}"), format!("{skill:#?}"));
    }

    /// The description and the titles are offsets into the skill file, not
    /// copies of it; a string that is not in the frontmatter is inline.
    #[test]
    fn text_in_the_skill_file_is_stored_once() {
        let packed = pack(&skill());
        let contains = |text: &str| packed.windows(text.len()).any(|w| w == text.as_bytes());
        assert!(!contains("Ships the service"));
        assert!(!contains("Roll back"));
        assert!(contains("skill://deploy"));
        // Text not in the file is stored once, wherever it is used again
        // (the pattern's source and regex, its string in two JSON texts).
        let count = |text: &str| {
            packed
                .windows(text.len())
                .filter(|w| *w == text.as_bytes())
                .count()
        };
        assert_eq!(count("^v[0-9]+$"), 1);
        assert_eq!(count("additionalProperties"), 1);
        // One reference to the text: each use of a `const` may be a copy.
        let source: &'static str = SOURCE;
        let unpacked = unpack(leak(packed), source, &[]).unwrap();
        let within = |text: &str| source.as_bytes().as_ptr_range().contains(&text.as_ptr());
        assert!(within(&unpacked.description));
        assert!(within(&unpacked.sections[1].title));
        assert!(!within(&unpacked.location));
    }

    #[test]
    fn every_cut_table_is_refused() {
        let packed = pack(&skill());
        for len in 0..packed.len() {
            let cut = leak(packed[..len].to_vec());
            assert!(unpack(cut, SOURCE, &[]).is_err(), "{len}");
        }
        let mut longer = packed.clone();
        longer.push(0);
        assert!(unpack(leak(longer), SOURCE, &[]).is_err());
    }

    #[test]
    fn another_format_is_refused_by_name() {
        let mut packed = pack(&skill());
        packed[0] = FORMAT + 1;
        let error = unpack(leak(packed), SOURCE, &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 0: expected this version of the packed format"
        );
    }

    #[test]
    fn a_compiled_skill_unpacks_once_on_first_use() {
        static PACKED: OnceLock<Vec<u8>> = OnceLock::new();
        let packed = PACKED.get_or_init(|| pack(&skill()));
        let compiled: &'static CompiledSkill =
            Box::leak(Box::new(CompiledSkill::new("deploy", SOURCE, packed, &[])));
        assert_eq!(compiled.name(), "deploy");
        assert!(
            compiled.skill.get().is_none(),
            "the name needs no unpacking"
        );
        assert_eq!(compiled.description(), "Ships the service to production");
        assert!(std::ptr::eq(compiled.skill(), &**compiled));
    }

    /// A compiled skill is a `static` stored whole in the binary: its
    /// unpacked `Skill` must not be inside it.
    #[test]
    fn a_compiled_skill_is_a_few_words() {
        let words = std::mem::size_of::<CompiledSkill>() / std::mem::size_of::<usize>();
        assert!(words <= 10, "{words} words");
        assert!(std::mem::size_of::<Skill>() > 40 * std::mem::size_of::<usize>());
    }

    proptest! {
        /// Bytes that no generator wrote come back as an error, never a
        /// panic or an allocation their counts ask for.
        #[test]
        fn any_bytes_unpack_or_are_refused(tail in proptest::collection::vec(any::<u8>(), 0..256)) {
            let mut bytes = vec![FORMAT];
            bytes.extend(tail);
            let _ = unpack(leak(bytes), SOURCE, &[]);
        }

        /// Any one byte of a real table changed: an error or a skill, never
        /// a panic.
        #[test]
        fn a_changed_byte_never_panics(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
            let mut packed = pack(&skill());
            let at = at.index(packed.len());
            packed[at] = byte;
            let _ = unpack(leak(packed), SOURCE, &[]);
        }
    }
}
