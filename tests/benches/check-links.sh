#!/usr/bin/env bash
# `cargo skills check` over every skill directory of ../shared/corpus, as a
# user runs it (release binary, every core, human diagnostics on stderr),
# with link checking on and with `check_links = false`, the two runs
# interleaved ROUNDS times. Prints the median wall time of each and the
# ratio (issue 22: at most 1.15x). The criterion bench beside it
# (`cargo bench -p skills-compiler --bench links`) times the compiler alone.
#
#     bash tests/benches/check-links.sh              # 15 rounds
#     ROUNDS=31 bash tests/benches/check-links.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
ROUNDS=${ROUNDS:-15}
corpus="$workspace/../shared/corpus"
if [ ! -d "$corpus" ]; then
    echo "skipped: no corpus at $corpus (a fresh clone has no ../shared)" >&2
    exit 0
fi
cargo build --release --quiet -p cargo-skills
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin="$target_dir/release/cargo-skills"
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-check-links.XXXXXX")
trap 'rm -rf "$root"' EXIT
# One package per configuration: its manifest is the configuration that
# `check` reads for paths given on the command line.
for mode in on off; do
    mkdir -p "$root/$mode"
    printf '[package]\nname = "corpus"\nversion = "0.1.0"\n\n[package.metadata.skills]\nprofile = "lenient"\n' > "$root/$mode/Cargo.toml"
done
echo 'check_links = false' >> "$root/off/Cargo.toml"
find "$corpus" -name SKILL.md -printf '%h\n' | LC_ALL=C sort > "$root/dirs.txt"
echo "$(wc -l < "$root/dirs.txt") skill directories, $ROUNDS rounds" >&2

# Wall time of one check in tenths of a millisecond (diagnostics discarded;
# the exit status is that of a corpus with errors).
run() {
    local start end
    start=$(date +%s%N)
    (cd "$root/$1" && xargs -a "$root/dirs.txt" "$bin" skills check > /dev/null 2>&1 || true)
    end=$(date +%s%N)
    echo $(((end - start) / 100000))
}
median() { sort -n | sed -n "$(((ROUNDS + 1) / 2))p"; }

run on > /dev/null # warm the page cache
on=() off=()
for _ in $(seq "$ROUNDS"); do
    on+=("$(run on)")
    off+=("$(run off)")
done
on_median=$(printf '%s\n' "${on[@]}" | median)
off_median=$(printf '%s\n' "${off[@]}" | median)
awk -v on="$on_median" -v off="$off_median" 'BEGIN {
    printf "| check_links = false | %.1f ms |\n| links checked | %.1f ms |\n| ratio | %.3fx |\n", off / 10, on / 10, on / off
}'
