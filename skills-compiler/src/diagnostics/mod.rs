//! Located, coded problems and their renderers.
//!
//! Every rule of the compiler reports through [`Diagnostic`]; nothing panics or
//! stops at the first problem. A diagnostic stores byte offsets and, resolved
//! once when it is made, the 1-based line and column they stand for.

mod codes;
mod diagnostic;
pub mod levels;
mod plain;
pub mod render;
pub mod sarif;
pub mod source;

pub use codes::{Code, explain, reference_markdown};
pub use diagnostic::{
    Applicability, Diagnostic, Edit, FixIt, Label, Severity, Span, closest, deny_warnings, sort,
};

#[cfg(test)]
mod tests {
    use super::source::SourceFile;
    use super::*;

    #[test]
    fn closest_finds_near_misses_only() {
        let keys = ["name", "description", "license"];
        assert_eq!(closest("descripton", keys), Some("description"));
        assert_eq!(closest("nmae", keys), Some("name"));
        assert_eq!(closest("zzzzzz", keys), None);
    }

    #[test]
    fn spans_cover_whole_characters_and_stay_in_the_file() {
        let file = SourceFile::new("f", "a\u{feff}b");
        assert_eq!(Span::new(&file, 2..3).bytes, 1..4);
        assert_eq!(Span::new(&file, 3..99).bytes, 1..5);
        assert_eq!(Span::new(&file, 99..99).bytes, 5..5);
    }

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen = std::collections::BTreeSet::new();
        for &code in Code::ALL {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert_eq!(code.as_str().parse::<Code>(), Ok(code));
            assert!(explain(code).contains(code.title()));
        }
    }
}
