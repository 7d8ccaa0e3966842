mod agent {
    skills::include_skills!("../../../../tests/ui/skills/missing-frontmatter", track = false);
}

fn main() {}
