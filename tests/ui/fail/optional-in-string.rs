// A placeholder inside a JSON string must name a required parameter: an
// absent value leaves out its member, but a string has no member to leave out.
mod agent {
    skills::include_skills!("ui-skills/optional-in-string", track = false);
}

fn main() {}
