#!/usr/bin/env bash
# What the lock costs (issue 39), as users run it (release binary):
#
# 1. `cargo skills check` of 500 real skills against `check --locked` and
#    `verify`, beside `sha256sum` over the same files (the named
#    alternative: hashing the bytes, nothing else). Target: the lock's
#    share (`check --locked` less `check`) at most 1.2x hashing them.
# 2. `cargo skills add --all` of a 20-skill local repository over
#    `file://`, beside `git clone --depth 1` of it alone and from a folder.
#
# Skills come from ../shared/corpus (copied to a temporary folder, never
# into the project). Medians of ROUNDS runs, interleaved.
#
#     bash tests/benches/lock-cost.sh            # 11 rounds
#     ROUNDS=21 bash tests/benches/lock-cost.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
ROUNDS=${ROUNDS:-11}
corpus="$workspace/../shared/corpus"
if [ ! -d "$corpus" ]; then
    echo "skipped: no corpus at $corpus (a fresh clone has no ../shared)" >&2
    exit 0
fi
cargo build --release --quiet -p cargo-skills
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin="$target_dir/release/cargo-skills"
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-lock-cost.XXXXXX")
trap 'rm -rf "$root"' EXIT

# A package whose root holds the first 500 corpus skills whose folder names
# are unique (a root holds one skill per name).
package() {
    local dir=$1 count=$2
    mkdir -p "$dir/src" "$dir/skills"
    printf '[package]\nname = "bench"\nversion = "0.1.0"\nedition = "2021"\n\n[package.metadata.skills]\nprofile = "lenient"\nmax_skills = 1000\ncheck_links = false\n' > "$dir/Cargo.toml"
    echo 'fn main() {}' > "$dir/src/main.rs"
    local copied=0
    while read -r skill; do
        name=$(basename "$skill")
        [ -e "$dir/skills/$name" ] && continue
        cp -r "$skill" "$dir/skills/$name"
        copied=$((copied + 1))
        [ "$copied" -ge "$count" ] && break
    done < "$root/corpus-skills.txt"
}
find "$corpus" -name SKILL.md -printf '%h\n' | LC_ALL=C sort > "$root/corpus-skills.txt"
package "$root/five-hundred" 500
(cd "$root/five-hundred" && "$bin" skills lock > /dev/null 2>&1)
files=$(find "$root/five-hundred/skills" -type f | wc -l)
bytes=$(find "$root/five-hundred/skills" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "500 skills: $files files, $bytes bytes; $ROUNDS rounds" >&2

# Wall time of a command in package $1, in tenths of a millisecond.
run() {
    local dir=$1
    shift
    local start end
    start=$(date +%s%N)
    (cd "$dir" && "$@" > /dev/null 2>&1 || true)
    end=$(date +%s%N)
    echo $(((end - start) / 100000))
}
median() { sort -n | sed -n "$(((ROUNDS + 1) / 2))p"; }
ms() { awk -v t="$1" 'BEGIN { printf "%.1f ms", t / 10 }'; }

dir="$root/five-hundred"
# Two ways to hash the same bytes: a digest per file (what the lock
# records), and one stream through one process (the floor).
hash_files() { find skills -type f -print0 | xargs -0 sha256sum; }
hash_stream() { find skills -type f -print0 | xargs -0 cat | sha256sum; }
run "$dir" "$bin" skills check skills > /dev/null # warm the page cache
check=() locked=() verify=() sha=() stream=()
for _ in $(seq "$ROUNDS"); do
    check+=("$(run "$dir" "$bin" skills check skills)")
    locked+=("$(run "$dir" "$bin" skills check --locked skills)")
    verify+=("$(run "$dir" "$bin" skills verify)")
    sha+=("$(run "$dir" bash -c "$(declare -f hash_files); hash_files")")
    stream+=("$(run "$dir" bash -c "$(declare -f hash_stream); hash_stream")")
done
c=$(printf '%s\n' "${check[@]}" | median)
l=$(printf '%s\n' "${locked[@]}" | median)
v=$(printf '%s\n' "${verify[@]}" | median)
s=$(printf '%s\n' "${sha[@]}" | median)
t=$(printf '%s\n' "${stream[@]}" | median)
echo "check:               $(ms "$c")"
echo "check --locked:      $(ms "$l")"
echo "verify:              $(ms "$v")"
echo "sha256sum per file:  $(ms "$s")"
echo "sha256sum, one stream: $(ms "$t")"
awk -v c="$c" -v l="$l" -v s="$s" -v t="$t" 'BEGIN { printf "the lock'"'"'s share: %.1f ms = %.2fx sha256sum per file, %.2fx one stream (target <= 1.2x); check --locked / check = %.2fx\n", (l - c) / 10, (l - c) / s, (l - c) / t, l / c }'

# 2. add: a 20-skill repository, as a bare clone served over file://.
package "$root/source" 20
repo="$root/source"
rm -rf "$repo/src" "$repo/Cargo.toml"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=b -c user.email=b@example.com commit -q -m skills
git clone -q --bare "$repo" "$root/source.git"
fresh() {
    rm -rf "$root/app"
    mkdir -p "$root/app/src"
    printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[package.metadata.skills]\nprofile = "lenient"\ncheck_links = false\n' > "$root/app/Cargo.toml"
    echo 'fn main() {}' > "$root/app/src/main.rs"
}
add_git=() add_dir=() clone=()
for _ in $(seq "$ROUNDS"); do
    fresh
    add_git+=("$(run "$root/app" "$bin" skills add "file://$root/source.git" --all)")
    fresh
    add_dir+=("$(run "$root/app" "$bin" skills add ../source --all)")
    rm -rf "$root/clone"
    clone+=("$(run "$root" git clone -q --depth 1 --no-tags "file://$root/source.git" clone)")
done
echo "add --all, 20 skills over file://: $(ms "$(printf '%s\n' "${add_git[@]}" | median)")"
echo "add --all, 20 skills from a folder: $(ms "$(printf '%s\n' "${add_dir[@]}" | median)")"
echo "git clone --depth 1 alone:          $(ms "$(printf '%s\n' "${clone[@]}" | median)")"
