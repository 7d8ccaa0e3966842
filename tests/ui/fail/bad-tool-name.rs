mod agent {
    skills::include_skills!("ui-skills/bad-tool-name", track = false);
}

fn main() {}
