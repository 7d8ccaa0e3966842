// New or deleted skills rebuild the crate (edits are tracked by the macro itself).
fn main() {
    skills_build::track("skills");
}
