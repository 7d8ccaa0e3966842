#!/usr/bin/env bash
# The cost of embedding whole skill directories, against the cheapest
# alternative: the same files as hand-written `include_bytes!` statics (no
# validation, no tables, no link checks).
#
#     bash tests/benches/files-cost.sh             # RUNS=5, 20 MB of resources
#     RUNS=3 MEGABYTES=20 bash tests/benches/files-cost.sh
#     CHECK_LINKS=false bash tests/benches/files-cost.sh   # the macro without link checks
#     OPTIMIZED_MACROS=1 bash tests/benches/files-cost.sh  # [profile.dev.build-override] opt-level = 3
#     RUNTIME=path bash tests/benches/files-cost.sh        # the checkout's crates as path dependencies
#
# 64 real skills: Anthropic's whole skill directories from
# ../shared/corpus-dirs (scripts, fonts, templates; claude-api left out, its
# description is over the limit) and the first skills of
# ../shared/corpus/davepoon-buildwithclaude, padded with files of random
# bytes (256 KiB each, all different: identical files would be merged by
# the linker and flatter the release figure) until the resources reach
# MEGABYTES. Two crates hold the
# same files in one target directory, beside the same two without their
# resources (SKILL.md only) and an empty baseline. Measured, as the median
# of RUNS real `cargo build --offline`:
#   - the crate's own debug rebuild after editing src/main.rs,
#   - the debug rebuild after editing one resource file,
#   - what the resources add to the rebuild (with them minus without them),
# and the stripped release binary's growth over the baseline, against the
# bytes of every file. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
RUNS=${RUNS:-5}
MEGABYTES=${MEGABYTES:-20}
CHECK_LINKS=${CHECK_LINKS:-true}
dirs="$workspace/../shared/corpus-dirs/anthropics-skills/skills"
flat="$workspace/../shared/corpus/davepoon-buildwithclaude"
if [ ! -d "$dirs" ] || [ ! -d "$flat" ]; then
    echo "skipped: the corpus is not beside the checkout (../shared)" >&2
    exit 0
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-files-cost.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$root"' EXIT; else echo "keeping $root" >&2; fi
export CARGO_TARGET_DIR="$root/target"

# shellcheck source=tests/benches/build-timing.sh
source "$workspace/tests/benches/build-timing.sh"
skills="$root/skills"
real_skills "$skills" "$dirs" "$flat" "$MEGABYTES"
resources=$(resource_bytes)
all=$(find "$skills" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
files=$(find "$skills" -type f | wc -l)
echo "$count skills, $files files, $resources resource bytes, $all bytes in all" >&2

runtime_source
edit_resource() { printf 'edit %s\n' "$1" > skills/algorithmic-art/templates/edited.txt; }

size_of() { stat -c %s "$CARGO_TARGET_DIR/release/$1"; }

dir="$root/crates"
mkdir -p "$dir"
printf '[workspace]\nmembers = ["macro", "statics", "macro-bare", "statics-bare", "empty"]\nresolver = "3"\n\n[profile.release]\nstrip = true\n' > "$dir/Cargo.toml"
if [ -n "${OPTIMIZED_MACROS:-}" ]; then
    printf '\n[profile.dev.build-override]\nopt-level = 3\n' >> "$dir/Cargo.toml"
fi
use_runtime_source "$dir"
for krate in macro statics; do
    mkdir -p "$dir/$krate/src"
    cp -a "$skills" "$dir/$krate/skills"
    # The file that `edit_resource` rewrites exists from the start.
    printf 'edit 0\n' > "$dir/$krate/skills/algorithmic-art/templates/edited.txt"
    # The same skills without their resources.
    mkdir -p "$dir/$krate-bare/src"
    for skill in "$skills"/*/; do
        name=$(basename "$skill")
        mkdir -p "$dir/$krate-bare/skills/$name"
        cp "$skill/SKILL.md" "$dir/$krate-bare/skills/$name/SKILL.md"
    done
done
manifest bench-files-macro-bare "$runtime" > "$dir/macro-bare/Cargo.toml"
# Links into the left-out resources would be errors: not what is measured.
cat > "$dir/macro-bare/src/main.rs" <<EOF
// edit 0
#[allow(deprecated)]
mod agent {
    skills::include_skills!("skills", track = false, profile = "lenient", check_links = false);
}

fn main() {
    let set = std::hint::black_box(&agent::SKILLS);
    let bytes: usize = set.iter().map(|s| s.body().len()).sum();
    println!("{} {bytes}", set.len());
}
EOF
manifest bench-files-macro "$runtime" > "$dir/macro/Cargo.toml"
cat > "$dir/macro/src/main.rs" <<EOF
// edit 0
#[allow(deprecated)] // the lenient corpus's warnings, shown once, not on every run
mod agent {
    skills::include_skills!("skills", track = false, profile = "lenient", check_links = $CHECK_LINKS);
}

fn main() {
    // black_box: the optimiser must keep every file, as a real user would.
    let set = std::hint::black_box(&agent::SKILLS);
    let bytes: usize = set
        .iter()
        .map(|s| s.body().len() + s.files().iter().map(|f| f.bytes().len()).sum::<usize>())
        .sum();
    println!("{} {bytes}", set.len());
}
EOF
statics() {
    local krate=$1 every
    mapfile -t every < <(cd "$dir/$krate" && find skills -type f | LC_ALL=C sort)
    echo "// edit 0"
    echo "static FILES: [&[u8]; ${#every[@]}] = ["
    for file in "${every[@]}"; do
        echo "    include_bytes!(\"../$file\"),"
    done
    echo "];"
    echo
    echo "fn main() {"
    echo "    let files = std::hint::black_box(&FILES);"
    echo "    let bytes: usize = files.iter().map(|f| f.len()).sum();"
    echo "    println!(\"{} {bytes}\", FILES.len());"
    echo "}"
}
manifest bench-files-statics "" > "$dir/statics/Cargo.toml"
statics statics > "$dir/statics/src/main.rs"
manifest bench-files-statics-bare "" > "$dir/statics-bare/Cargo.toml"
statics statics-bare > "$dir/statics-bare/src/main.rs"
mkdir -p "$dir/empty/src"
manifest bench-files-empty "" > "$dir/empty/Cargo.toml"
printf 'fn main() {\n    let bytes: usize = 0;\n    println!("{} {bytes}", 0);\n}\n' > "$dir/empty/src/main.rs"

(cd "$dir" && cargo build --offline --quiet --workspace && cargo build --offline --quiet --release --workspace)
macro_main=$(timed "$dir/macro" edit_main)
statics_main=$(timed "$dir/statics" edit_main)
macro_file=$(timed "$dir/macro" edit_resource)
statics_file=$(timed "$dir/statics" edit_resource)
macro_bare=$(timed "$dir/macro-bare" edit_main)
statics_bare=$(timed "$dir/statics-bare" edit_main)
(cd "$dir" && cargo build --offline --quiet --release --workspace)
empty=$(size_of bench-files-empty)
macro_growth=$(($(size_of bench-files-macro) - empty))
statics_growth=$(($(size_of bench-files-statics) - empty))
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'; }
echo "| skills, files | bytes (resources) | crate rebuild: include_skills! / include_bytes! | ratio | after editing a resource | ratio | without the resources | what the resources add | release growth: include_skills! / include_bytes! | growth ÷ bytes |"
echo "|---|---|---|---|---|---|---|---|---|---|"
echo "| $count, $files | $all ($resources) | $macro_main ms / $statics_main ms | $(ratio "$macro_main" "$statics_main") | $macro_file ms / $statics_file ms | $(ratio "$macro_file" "$statics_file") | $macro_bare ms / $statics_bare ms | $((macro_main - macro_bare)) ms / $((statics_main - statics_bare)) ms | $macro_growth / $statics_growth bytes | $(ratio "$macro_growth" "$all") / $(ratio "$statics_growth" "$all") |"
