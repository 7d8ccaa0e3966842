// Rejected schemas: a pure `$ref` cycle, a constraint beside `$ref`, an enum
// value its own length bounds exclude.
mod agent {
    skills::include_skills!("ui-skills/ref-cycle", track = false);
}

fn main() {}
