use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use skills_core::CompiledSkill;
use skills_core::Skill;
use skills_core::Tool;
use skills_core::ToolCallError;
use skills_core::{Arguments, Call};

/// Every skill of a skills directory (or of several layers), sorted by name.
/// Compiled sets live in a `static`; loaded and merged sets own their skills.
/// The name index and the catalogs are built on first use.
#[derive(Debug)]
pub struct SkillSet {
    skills: Skills,
    /// Open addressing: slot `fnv1a(name) & (len - 1)` onwards holds
    /// `index + 1` of the skill, 0 marks an empty slot. At most half full, so
    /// every probe sequence ends.
    index: OnceLock<Box<[u32]>>,
    catalog: OnceLock<String>,
    catalog_xml: OnceLock<String>,
    /// Each tool name with the (skill, tool) positions that declare it.
    tools: OnceLock<BTreeMap<String, Vec<(usize, usize)>>>,
    /// The offline router over the skills' names, descriptions and bodies.
    router: OnceLock<skills_core::route::Router>,
    /// The offline router over what a host lists only.
    listing_router: OnceLock<skills_core::route::Router>,
}

/// Where a set's skills are: in the binary, or owned.
#[derive(Debug)]
enum Skills {
    Static(&'static [&'static CompiledSkill]),
    /// Shared, so that a reload keeps the skills that did not change
    /// without copying them.
    Owned(Vec<Arc<Skill>>),
}

impl SkillSet {
    /// A compiled set: generated code builds it in a `static`.
    #[doc(hidden)]
    pub const fn compiled(skills: &'static [&'static CompiledSkill]) -> SkillSet {
        SkillSet::new(Skills::Static(skills))
    }

    /// A set that owns its skills, sorted here by name. The caller keeps
    /// names unique (the loader reports duplicates; layers keep the higher).
    #[doc(hidden)]
    pub fn owned(skills: Vec<Skill>) -> SkillSet {
        SkillSet::shared(skills.into_iter().map(Arc::new).collect())
    }

    /// A set of skills shared with another set, sorted here by name.
    pub(crate) fn shared(mut skills: Vec<Arc<Skill>>) -> SkillSet {
        skills.sort_by(|a, b| a.name().cmp(b.name()));
        SkillSet::new(Skills::Owned(skills))
    }

    /// The skills of a set that owns them, to share with the next one.
    #[cfg(feature = "loader")]
    pub(crate) fn shared_skills(&self) -> &[Arc<Skill>] {
        match &self.skills {
            Skills::Static(_) => &[],
            Skills::Owned(skills) => skills,
        }
    }

    const fn new(skills: Skills) -> SkillSet {
        SkillSet {
            skills,
            index: OnceLock::new(),
            catalog: OnceLock::new(),
            catalog_xml: OnceLock::new(),
            tools: OnceLock::new(),
            router: OnceLock::new(),
            listing_router: OnceLock::new(),
        }
    }

    fn tool_index(&self) -> &BTreeMap<String, Vec<(usize, usize)>> {
        self.tools.get_or_init(|| {
            let mut index: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
            for (s, skill) in self.iter().enumerate() {
                for (t, tool) in skill.tools().iter().enumerate() {
                    index
                        .entry(tool.name().to_owned())
                        .or_default()
                        .push((s, t));
                }
            }
            index
        })
    }

    /// The tool a model calls by `name`, whichever skill declares it, with
    /// that skill. Model APIs name tools only: a name that two skills declare
    /// is [`ToolCallError::AmbiguousTool`] ([`SkillSet::ambiguous_tools`]
    /// lists them ahead of time).
    pub fn find_tool(&self, name: &str) -> Result<(&Skill, &Tool), ToolCallError> {
        let found = self.tool_index().get(name).map(Vec::as_slice);
        match found {
            Some(&[(s, t)]) => self
                .at(s)
                .and_then(|skill| Some((skill, skill.tools().get(t)?)))
                .ok_or_else(|| self.unknown_tool(name)),
            Some(places) if places.len() > 1 => Err(ToolCallError::AmbiguousTool {
                name: name.to_owned(),
                skills: places
                    .iter()
                    .filter_map(|&(s, _)| self.at(s).map(|skill| skill.name().to_owned()))
                    .collect(),
            }),
            _ => Err(self.unknown_tool(name)),
        }
    }

    fn unknown_tool(&self, name: &str) -> ToolCallError {
        ToolCallError::UnknownTool {
            name: name.to_owned(),
            expected: self.tool_index().keys().cloned().collect(),
        }
    }

    /// Checks a model's tool call against the set: the tool by name across
    /// every skill, the arguments (JSON text or a parsed value) against its
    /// schema. The one way to parse an untyped call; a generated
    /// `ToolCall::parse` gives typed arguments, and
    /// [`ToolUse::parse`](crate::model::ToolUse::parse) reads a provider's
    /// response.
    ///
    /// ```
    /// # fn demo(set: &skills::SkillSet) -> Result<(), Box<dyn std::error::Error>> {
    /// let call = set.parse_call("get_issue", r#"{"repo": "a/b", "number": 1}"#)?;
    /// let same = set.parse_call("get_issue", &serde_json::json!({"repo": "a/b", "number": 1}))?;
    /// let request = call.request()?; // an http::Request<Vec<u8>>
    /// # let _ = (same, request); Ok(()) }
    /// ```
    pub fn parse_call<'a>(
        &self,
        name: &str,
        arguments: impl Into<Arguments<'a>>,
    ) -> Result<Call<'_>, ToolCallError> {
        self.find_tool(name)?.1.parse(arguments)
    }

    /// Tool names declared by more than one skill, each with those skills,
    /// in name order: calls of these cannot be dispatched by name.
    pub fn ambiguous_tools(&self) -> Vec<(String, Vec<String>)> {
        self.tool_index()
            .iter()
            .filter(|(_, places)| places.len() > 1)
            .map(|(name, places)| {
                let skills = places
                    .iter()
                    .filter_map(|&(s, _)| self.at(s).map(|skill| skill.name().to_owned()))
                    .collect();
                (name.clone(), skills)
            })
            .collect()
    }

    /// The skill named `name`: one hash of the name and, on average, about
    /// one comparison.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        let index = self.index.get_or_init(|| {
            build_index((0..self.len()).map(|i| self.name_at(i).unwrap_or_default()))
        });
        let mask = index.len().checked_sub(1)?;
        let mut slot = fnv1a(name.as_bytes()) as usize & mask;
        for _ in 0..index.len() {
            let at = (*index.get(slot)? as usize).checked_sub(1)?;
            if self.name_at(at)? == name {
                return self.at(at);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// The skill at `i`; a compiled one is unpacked on first use.
    fn at(&self, i: usize) -> Option<&Skill> {
        match &self.skills {
            Skills::Static(skills) => skills.get(i).map(|skill| skill.skill()),
            Skills::Owned(skills) => skills.get(i).map(|skill| &**skill),
        }
    }

    /// The name of the skill at `i`, without unpacking a compiled one.
    fn name_at(&self, i: usize) -> Option<&str> {
        match &self.skills {
            Skills::Static(skills) => skills.get(i).map(|skill| skill.name()),
            Skills::Owned(skills) => skills.get(i).map(|skill| skill.name()),
        }
    }

    /// Writes every skill's directory out under `dir` (`dir/<name>/SKILL.md`
    /// and its files, with execute bits), for hosts that run a skill's
    /// scripts from paths. See [`Skill::write_to`] for what is refused.
    pub fn write_to(
        &self,
        dir: impl AsRef<std::path::Path>,
        existing: skills_core::Overwrite,
    ) -> std::io::Result<()> {
        for skill in self.iter() {
            skill.write_to(dir.as_ref(), existing)?;
        }
        Ok(())
    }

    /// Installs every skill of the set into `dir` (an agent's folder, such
    /// as `.claude/skills`): each skill's directory as compiled, bytes and
    /// execute bits exact, with a record of what was installed, so that a
    /// later install knows exactly what it finds (missing, up to date,
    /// outdated, edited, foreign). See [`crate::install`].
    ///
    /// ```no_run
    /// # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
    /// use skills::install::{Install, State};
    ///
    /// for skill in agent::SKILLS.install(".claude/skills", Install::default())? {
    ///     if skill.state == State::Edited {
    ///         eprintln!("{} was edited since it was installed: left alone", skill.skill);
    ///     }
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn install(
        &self,
        dir: impl AsRef<std::path::Path>,
        how: skills_core::install::Install,
    ) -> std::io::Result<Vec<skills_core::install::Installed>> {
        skills_core::install::install(dir.as_ref(), self.iter(), how)
    }

    /// The skills in name order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            set: self,
            next: 0,
            end: self.len(),
        }
    }

    /// How many skills the set has.
    pub fn len(&self) -> usize {
        match &self.skills {
            Skills::Static(skills) => skills.len(),
            Skills::Owned(skills) => skills.len(),
        }
    }

    /// Whether the set has no skill.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A set of just the skills `names` names: one agent's own catalog,
    /// toolset and definitions, through which the others cannot be read.
    /// Each name must be a skill of this set (the error says which is not,
    /// with a did-you-mean); naming none is an error too, not an empty set.
    ///
    /// ```
    /// # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
    /// let support = agent::SKILLS.subset(["forms"])?;
    /// assert_eq!(support.names().collect::<Vec<_>>(), ["forms"]);
    /// assert!(agent::SKILLS.subset(["frms"]).unwrap_err().to_string().contains("did you mean `forms`?"));
    /// # Ok::<(), skills::SubsetError>(())
    /// ```
    pub fn subset<I>(&self, names: I) -> Result<SkillSet, SubsetError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut chosen: Vec<Skill> = Vec::new();
        for name in names {
            let name = name.as_ref();
            let Some(skill) = self.get(name) else {
                return Err(SubsetError::Unknown {
                    name: name.to_owned(),
                    suggestion: skills_core::closest(name, self.names()).map(str::to_owned),
                    known: self.names().map(str::to_owned).collect(),
                });
            };
            if chosen.iter().all(|kept| kept.name() != name) {
                chosen.push(skill.clone());
            }
        }
        if chosen.is_empty() {
            return Err(SubsetError::Empty);
        }
        Ok(SkillSet::owned(chosen))
    }

    /// The skills of this set that `names` names, known ones only, maybe
    /// none: what a routed toolset shows.
    pub(crate) fn subset_or_empty(&self, names: &[&str]) -> SkillSet {
        let chosen: Vec<Skill> = self
            .iter()
            .filter(|skill| names.contains(&skill.name()))
            .cloned()
            .collect();
        SkillSet::owned(chosen)
    }

    /// The names in order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.iter().map(Skill::name)
    }

    /// One `- name: description` line per skill; each description is clamped
    /// to one line of at most `catalog_chars` characters (240 by default).
    /// Made on first use.
    pub fn catalog(&self) -> &str {
        self.catalog
            .get_or_init(|| self.iter().map(Skill::catalog_line).collect())
    }

    /// The skills ranked for `query` by the offline router
    /// (`skills_core::route`), and the one it chooses, or none: for an
    /// agent whose catalogue is over its context budget, the few skills to
    /// show the model this turn ([`Toolset::routed`](crate::Toolset::routed)).
    ///
    /// Run time is not a host: the router reads everything a skill has.
    /// Each skill is read by its name, its description then its
    /// `when_to_use` (as Claude Code joins them, uncut), and its body at a
    /// low weight (on a publisher's 965 questions: top-1 0.831 and top-5
    /// 0.980, against 0.744 and 0.919 without the body; BENCHMARKS.md).
    /// A skill with `disable-model-invocation: true` is never chosen, but
    /// a request that starts with `/NAME` or `$NAME` invokes any skill.
    /// The index is built on first use (48 ms for 343 skills with their
    /// bodies). [`SkillSet::route_listing`] reads the listing only.
    ///
    /// ```
    /// # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
    /// let ranked = agent::SKILLS.route("fill in this PDF form");
    /// assert_eq!(ranked.chosen(), Some("forms"));
    /// assert_eq!(agent::SKILLS.route("what's the weather in Lisbon?").chosen(), None);
    /// assert_eq!(agent::SKILLS.route("/forms").chosen(), Some("forms"));
    /// ```
    pub fn route(&self, query: &str) -> skills_core::route::Ranked {
        self.router
            .get_or_init(|| self.index_router(true))
            .route(query)
    }

    /// [`SkillSet::route`] over what a host lists only, no body: Claude
    /// Code's line (`- name: description - when_to_use`) uncut, the text
    /// `cargo skills test` reads for Claude Code, so that both give the
    /// same scores to the last digit (the test reads the host's cut of it:
    /// the same text for a description under 1,536 characters).
    pub fn route_listing(&self, query: &str) -> skills_core::route::Ranked {
        self.listing_router
            .get_or_init(|| self.index_router(false))
            .route(query)
    }

    fn index_router(&self, with_body: bool) -> skills_core::route::Router {
        let mut hidden = Vec::new();
        let mut texts: Vec<(&str, String, &str)> = Vec::new();
        for skill in self.iter() {
            let extra = |key: &str| {
                skill
                    .extras()
                    .find(|(k, _)| *k == key)
                    .and_then(|(_, json)| serde_json::from_str::<serde_json::Value>(json).ok())
            };
            if extra("disable-model-invocation") == Some(serde_json::Value::Bool(true)) {
                hidden.push(skill.name());
                continue;
            }
            // Claude Code's line, uncut: the text the trigger tests read.
            let text = match extra("when_to_use").and_then(|v| v.as_str().map(str::to_owned)) {
                Some(when) => format!("- {}: {} - {when}\n", skill.name(), skill.description()),
                None => format!("- {}: {}\n", skill.name(), skill.description()),
            };
            texts.push((
                skill.name(),
                text,
                if with_body { skill.body() } else { "" },
            ));
        }
        let docs: Vec<skills_core::route::Doc<'_>> = texts
            .iter()
            .map(|(name, text, body)| skills_core::route::Doc::new(name, text).with_body(body))
            .collect();
        skills_core::route::Router::new(&docs).invoked_by(&['/', '$'], &hidden)
    }

    /// The Agent Skills `<available_skills>` block, XML-escaped. Made on
    /// first use.
    pub fn catalog_xml(&self) -> &str {
        self.catalog_xml.get_or_init(|| {
            let elements: Vec<String> = self.iter().map(Skill::catalog_xml_element).collect();
            skills_core::present::available_skills(elements.iter().map(String::as_str))
        })
    }
}

/// Why [`SkillSet::subset`] (or [`Toolset::only`](crate::Toolset::only))
/// made no set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubsetError {
    /// A name that is not a skill of the set.
    Unknown {
        /// The name asked for.
        name: String,
        /// The skill it is closest to, when it looks like a typo.
        suggestion: Option<String>,
        /// Every skill of the set, in order.
        known: Vec<String>,
    },
    /// No name at all: an agent with no skills is a mistake, not a set.
    Empty,
}

impl std::fmt::Display for SubsetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SubsetError::Unknown {
                name,
                suggestion: Some(suggestion),
                ..
            } => write!(
                f,
                "there is no skill named `{name}`; did you mean `{suggestion}`?"
            ),
            SubsetError::Unknown { name, known, .. } => write!(
                f,
                "there is no skill named `{name}`; the skills are: {}",
                known.join(", ")
            ),
            SubsetError::Empty => f.write_str("a subset names no skill: name at least one"),
        }
    }
}

impl std::error::Error for SubsetError {}

/// The skills of a set in name order.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    set: &'a SkillSet,
    next: usize,
    end: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Skill;

    fn next(&mut self) -> Option<&'a Skill> {
        if self.next >= self.end {
            return None;
        }
        self.next += 1;
        self.set.at(self.next - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> DoubleEndedIterator for Iter<'a> {
    fn next_back(&mut self) -> Option<&'a Skill> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        self.set.at(self.end)
    }
}

impl<'a> IntoIterator for &'a SkillSet {
    type Item = &'a Skill;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// A power of two at least twice the number of skills; each skill at the
/// first free slot from `fnv1a(name) & mask`.
fn build_index<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Box<[u32]> {
    let size = (names.len() * 2).max(1).next_power_of_two();
    let mask = size - 1;
    let mut table = vec![0u32; size];
    for (i, name) in names.enumerate() {
        let mut slot = fnv1a(name.as_bytes()) as usize & mask;
        while table[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    table.into_boxed_slice()
}

/// FNV-1a, 64 bits.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
