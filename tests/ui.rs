//! trybuild: the expansion compiles under the hygiene constraints (pass), and
//! invalid skills fail the build with every diagnostic at file:line:col (fail).
//!
//! trybuild compiles each case as a crate in `target/tests/trybuild/skills-tests`,
//! so the cases name their skills directories relative to that: `../../../../tests/...`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    cases.compile_fail("ui/fail/*.rs");
}
