mod agent {
    skills::include_skills!("ui-skills/unsupported-schema", track = false);
}

fn main() {}
