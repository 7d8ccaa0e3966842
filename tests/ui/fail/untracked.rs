// Without a build script that tracks the directory, the macro says what to add.
mod agent {
    skills::include_skills!("../../../../tests/ui/skills/one-bad-one-good");
}

fn main() {}
