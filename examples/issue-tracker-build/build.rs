// Validates the skills and writes $OUT_DIR/skills.rs; invalid skills fail the
// build with every diagnostic, before rustc starts.
fn main() {
    skills_build::compile("../issue-tracker/skills");
}
