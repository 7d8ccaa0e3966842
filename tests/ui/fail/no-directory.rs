// Without a directory there is no skill to emit, but `SKILLS` still exists.
mod agent {
    skills::include_skills!(42);
}

fn main() {
    let _ = agent::SKILLS.len();
}
