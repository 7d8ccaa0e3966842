#!/usr/bin/env bash
# What `locked = true` costs a build (issue 39): two crates in one target
# directory embed the same 64 real skills with 20 MB of files through
# `include_skills!` with `skills_build::track`, one with `locked = true`
# and a `skills-lock.json` written by `cargo skills lock`, one without.
# Medians of RUNS real `cargo build --offline`, interleaved per case:
#   - a rebuild where nothing changed,
#   - a rebuild after editing src/main.rs,
#   - a rebuild after editing one skill's description (the build script
#     compiles the skills again; the locked crate checks every skill
#     against the lock, reading only the files that changed since the
#     last build, as OUT_DIR remembers them), its lock re-recorded first,
#   - the same with that memory removed first (every byte hashed again).
# Target: at most 1.05x on a rebuild where nothing changed.
#
#     bash tests/benches/locked-build.sh            # RUNS=5, 20 MB
#     RUNS=3 MEGABYTES=20 RUNTIME=path bash tests/benches/locked-build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
RUNS=${RUNS:-5}
MEGABYTES=${MEGABYTES:-20}
dirs="$workspace/../shared/corpus-dirs/anthropics-skills/skills"
flat="$workspace/../shared/corpus/davepoon-buildwithclaude"
if [ ! -d "$dirs" ] || [ ! -d "$flat" ]; then
    echo "skipped: the corpus is not beside the checkout (../shared)" >&2
    exit 0
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-locked-build.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$root"' EXIT; else echo "keeping $root" >&2; fi
cargo build --release --quiet -p cargo-skills
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
cli="$target_dir/release/cargo-skills"
export CARGO_TARGET_DIR="$root/target"

# shellcheck source=tests/benches/build-timing.sh
source "$workspace/tests/benches/build-timing.sh"
skills="$root/skills"
real_skills "$skills" "$dirs" "$flat" "$MEGABYTES"
all=$(find "$skills" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "$count skills, $(find "$skills" -type f | wc -l) files, $all bytes" >&2
runtime_source

dir="$root/crates"
mkdir -p "$dir"
printf '[workspace]\nmembers = ["unlocked", "locked"]\nresolver = "3"\n' > "$dir/Cargo.toml"
use_runtime_source "$dir"
for krate in unlocked locked; do
    mkdir -p "$dir/$krate/src"
    cp -a "$skills" "$dir/$krate/skills"
    locked=false
    [ "$krate" = locked ] && locked=true
    { manifest "bench-$krate" "$runtime"
      printf '\n[build-dependencies]\n%s\n\n[package.metadata.skills]\nprofile = "lenient"\ncheck_links = false\nlocked = %s\n' "$build" "$locked"
    } > "$dir/$krate/Cargo.toml"
    printf 'fn main() {\n    skills_build::track("skills");\n}\n' > "$dir/$krate/build.rs"
    cat > "$dir/$krate/src/main.rs" <<'EOF'
// edit 0
#[allow(deprecated)] // the lenient corpus's warnings
mod agent {
    skills::include_skills!("skills");
}

fn main() {
    let set = std::hint::black_box(&agent::SKILLS);
    println!("{}", set.len());
}
EOF
done
(cd "$dir/locked" && "$cli" skills lock > /dev/null 2>&1)
(cd "$dir" && cargo build --offline --quiet --workspace)

nothing() { :; }
# One description edited (and, in the locked crate, the lock re-recorded).
edit_description() {
    sed -i "s/^description: .*/description: Edited $1 times. Use when the benchmark asks./" skills/canvas-design/SKILL.md
    if grep -q 'locked = true' Cargo.toml; then "$cli" skills lock canvas-design > /dev/null 2>&1; fi
}
forget_hashes() {
    edit_description "$1"
    rm -f "$CARGO_TARGET_DIR"/debug/build/bench-*/out/skills-lock-hashes.txt
}
row() {
    local label=$1 edit=$2 unlocked locked
    unlocked=$(timed "$dir/unlocked" "$edit")
    locked=$(timed "$dir/locked" "$edit")
    echo "| $label | $unlocked ms | $locked ms | $(awk -v a="$locked" -v b="$unlocked" 'BEGIN { printf "%.3fx", a / b }') |"
}
echo "| rebuild | locked = false | locked = true | ratio |"
echo "|---|---|---|---|"
row "nothing changed" nothing
row "src/main.rs edited" edit_main
row "one description edited" edit_description
row "one description edited, hashes forgotten" forget_hashes
