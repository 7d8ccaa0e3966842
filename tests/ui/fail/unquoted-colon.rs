mod agent {
    skills::include_skills!("ui-skills/unquoted-colon", track = false);
}

fn main() {}
