// The expansion compiles with warnings denied and without the prelude.
#![deny(warnings)]
#![no_implicit_prelude]

mod zoo {
    ::skills::include_skills!("workspace/tests/fixtures/codegen", track = false);
}

mod example {
    ::skills::include_skills!("workspace/examples/issue-tracker/skills", track = false);
}

fn main() {
    let _ = &zoo::SKILLS;
    let _ = example::github_issues::ToolCall::parse("list_issues", "{}");
    let _ = zoo::schema_zoo::SearchSort::ALL;
}
