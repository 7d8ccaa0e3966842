mod agent {
    skills::include_skills!("ui-skills/missing-frontmatter", track = false);
}

fn main() {}
