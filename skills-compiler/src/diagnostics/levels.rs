//! Lint levels, in cargo's `[lints]` convention: each advisory lint (a `W`
//! code) may be `allow`ed, left a `warn`ing, or made an error (`deny`).
//!
//! Levels come from `[package.metadata.skills.lints]` (`W008 = "allow"`),
//! from the macro's and the loader's `lints` option (`["allow W008"]`), and
//! from a skill's own `metadata.skills-lints` (`"allow W008 W010"`), which
//! wins for that skill's files. `S` codes are errors of the format, not
//! lints: they cannot be allowed.

use std::collections::BTreeMap;

use super::{Code, Diagnostic, Severity};

/// What a lint does when it fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Dropped: not shown, not an error.
    Allow,
    /// A warning (every lint's default).
    Warn,
    /// An error: the build fails.
    Deny,
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Level, String> {
        match text {
            "allow" => Ok(Level::Allow),
            "warn" => Ok(Level::Warn),
            "deny" => Ok(Level::Deny),
            other => Err(format!(
                "unknown lint level `{other}`: expected `allow`, `warn` or `deny`"
            )),
        }
    }
}

/// A level per lint code; codes not named keep their default.
///
/// ```
/// use skills_compiler::diagnostics::levels::{Level, LintLevels};
/// use skills_compiler::Code;
///
/// let levels: LintLevels = "allow W008 W010; deny W009".parse().unwrap();
/// assert_eq!(levels.level(Code::NoWhenToUse), Some(Level::Allow));
/// assert_eq!(levels.level(Code::SimilarDescriptions), Some(Level::Deny));
/// assert!("allow S101".parse::<LintLevels>().unwrap_err().contains("not a lint"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LintLevels(BTreeMap<Code, Level>);

impl LintLevels {
    /// The level set for `code`, if any.
    pub fn level(&self, code: Code) -> Option<Level> {
        self.0.get(&code).copied()
    }

    /// Whether no level is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sets one code's level; refuses what is not a lint.
    pub fn set(&mut self, code: &str, level: Level) -> Result<(), String> {
        let code: Code = code.parse().map_err(|_| {
            format!("unknown lint `{code}`: `cargo skills explain` lists the codes")
        })?;
        if !code.as_str().starts_with('W') {
            return Err(format!(
                "`{}` is an error of the format, not a lint: it cannot be allowed or denied; fix what it says",
                code.as_str()
            ));
        }
        self.0.insert(code, level);
        Ok(())
    }

    /// `self` wins for the codes it names; `base` keeps the rest.
    pub fn over(mut self, base: &LintLevels) -> LintLevels {
        for (code, level) in &base.0 {
            self.0.entry(*code).or_insert(*level);
        }
        self
    }

    /// Each diagnostic at its level: allowed lints are dropped, denied ones
    /// become errors. `per_skill` holds each skill's own levels with the
    /// prefix of its files (`skills/pdf/`, or a flat file's path), which
    /// win over `self` for the diagnostics in those files.
    ///
    /// A skill's own level never lowers what the package raised (a `deny`,
    /// or every warning when `package_denies_warnings`), and never lowers
    /// a security lint ([`SECURITY_LINTS`]) at all: the skill's text is
    /// what the lint guards against, so it cannot vouch for itself.
    pub fn apply(
        &self,
        diagnostics: &mut Vec<Diagnostic>,
        per_skill: &[(String, LintLevels)],
        package_denies_warnings: bool,
    ) {
        if self.is_empty() && per_skill.is_empty() {
            return;
        }
        diagnostics.retain_mut(|diagnostic| {
            if !diagnostic.code.as_str().starts_with('W') {
                return true;
            }
            let package = self.level(diagnostic.code);
            let own = per_skill
                .iter()
                .find(|(prefix, _)| in_skill(&diagnostic.file, prefix))
                .and_then(|(_, levels)| levels.level(diagnostic.code));
            let floor = match package {
                Some(level) => level,
                None if package_denies_warnings => Level::Deny,
                None if SECURITY_LINTS.contains(&diagnostic.code) => Level::Warn,
                None => Level::Allow,
            };
            let own = own.map(|own| {
                if SECURITY_LINTS.contains(&diagnostic.code)
                    || package.is_some()
                    || package_denies_warnings
                {
                    own.max(floor)
                } else {
                    own
                }
            });
            match own.or(package) {
                Some(Level::Allow) => false,
                Some(Level::Deny) => {
                    diagnostic.severity = Severity::Error;
                    true
                }
                Some(Level::Warn) | None => true,
            }
        });
    }
}

/// The lints a skill's own `metadata.skills-lints` cannot lower: what
/// they find (hidden text a model reads and a reviewer does not see) is
/// the skill's own doing.
pub const SECURITY_LINTS: &[Code] = &[Code::HiddenText];

/// Whether `file` is the skill at `prefix`: a folder's files, or the flat file.
fn in_skill(file: &str, prefix: &str) -> bool {
    match prefix.strip_suffix('/') {
        Some(dir) => file.starts_with(prefix) || file == dir,
        None => file == prefix,
    }
}

/// `"allow W008 W010; deny W009"`: a level, then the codes it applies to.
impl std::str::FromStr for LintLevels {
    type Err = String;

    fn from_str(text: &str) -> Result<LintLevels, String> {
        let mut levels = LintLevels::default();
        for clause in text
            .split([';', '\n'])
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            let mut words = clause.split([' ', ',', '\t']).filter(|w| !w.is_empty());
            let level: Level = words.next().unwrap_or_default().parse()?;
            let mut any = false;
            for code in words {
                levels.set(code, level)?;
                any = true;
            }
            if !any {
                return Err(format!("`{clause}` names no code: write `allow W008`"));
            }
        }
        Ok(levels)
    }
}

/// From `[package.metadata.skills.lints]` (`W008 = "allow"`), or from the
/// macro's list (`lints = ["allow W008"]`).
impl<'de> serde::Deserialize<'de> for LintLevels {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Shape {
            Table(BTreeMap<String, String>),
            List(Vec<String>),
        }
        let mut levels = LintLevels::default();
        match Shape::deserialize(deserializer)? {
            Shape::Table(table) => {
                for (code, level) in table {
                    let level = level.parse().map_err(serde::de::Error::custom)?;
                    levels.set(&code, level).map_err(serde::de::Error::custom)?;
                }
            }
            Shape::List(clauses) => {
                for clause in clauses {
                    let parsed: LintLevels = clause.parse().map_err(serde::de::Error::custom)?;
                    levels = parsed.over(&levels);
                }
            }
        }
        Ok(levels)
    }
}
