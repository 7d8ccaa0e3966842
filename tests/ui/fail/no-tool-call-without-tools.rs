mod agent {
    skills::include_skills!("ui-skills/only-good", track = false);
}

// A skill without tools expands to no tool code: it has no `ToolCall`.
fn main() {
    let _ = agent::good::SKILL.name();
    let _ = agent::good::ToolCall::NAMES;
}
