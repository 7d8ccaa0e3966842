// The expansion compiles with warnings denied and without the prelude.
#![deny(warnings)]
#![no_implicit_prelude]

// The fixtures warn on purpose (non-ASCII names, tool names differing in case):
// skill warnings are `deprecated` warnings, allowed here.
#[allow(deprecated)]
mod zoo {
    ::skills::include_skills!("workspace/tests/fixtures/codegen", track = false);
}

mod example {
    ::skills::include_skills!("workspace/examples/issue-tracker/skills", track = false);
}

use ::skills::TypedCall;

fn main() {
    let _ = &zoo::SKILLS;
    let _ = example::github_issues::ToolCall::parse("list_issues", "{}");
    let _ = zoo::schema_zoo::SearchSort::ALL;
}
