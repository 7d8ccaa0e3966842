# Helpers of the build-cost scripts (sourced, not run, with $workspace and
# $root set): a package manifest, the runtime's source, the median of timed
# rebuilds, and the edit that forces one.

manifest() {
    local name=$1 dependency=$2
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n' "$name" "$dependency"
}

# How the benchmark crates get the runtime, by RUNTIME:
#   registry (default): as its users get it. This checkout's crates are
#     packed (`cargo package`) and served, with every dependency they have,
#     from a directory source that replaces crates.io. Cargo builds registry
#     crates once, without incremental compilation, in 16 codegen units, and
#     does not re-check their sources' modification times on every build.
#   path: the checkout's crates as path dependencies (incremental, every
#     source file stat'ed on every build): a change to the runtime measured
#     before it is packed, and how BENCHMARKS.md measured before 2026-12-02.
# Sets $runtime and $build, the dependency lines of skills-runtime and of
# skills-build.
runtime_source() {
    RUNTIME=${RUNTIME:-registry}
    local path_runtime="skills-runtime = { path = \"$workspace/skills\" }"
    local path_build="skills-build = { path = \"$workspace/skills-build\" }"
    if [ "$RUNTIME" = path ]; then
        runtime=$path_runtime
        build=$path_build
        return
    fi
    local vendor="$root/vendor" seed="$root/vendor-seed" version crate
    version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$workspace/Cargo.toml" | head -1)
    mkdir -p "$seed/src"
    { manifest vendor-seed "$path_runtime"; printf '\n[build-dependencies]\n%s\n\n[workspace]\n' "$path_build"; } > "$seed/Cargo.toml"
    touch "$seed/src/lib.rs"
    cp "$workspace/Cargo.lock" "$seed/Cargo.lock"
    # Every dependency is in the cache once the workspace has been built;
    # a machine that built for one platform only fetches the others' here.
    (cd "$seed" && { cargo vendor --offline --quiet "$vendor" || cargo vendor --quiet "$vendor"; } > /dev/null)
    CARGO_TARGET_DIR="$root/package" cargo package --offline --quiet --no-verify --allow-dirty \
        -p skills-core -p skills-compiler -p skills-macros -p skills-build -p skills-runtime
    for crate in "$root"/package/package/*.crate; do
        tar -xzf "$crate" -C "$vendor"
        crate=$(basename "$crate" .crate)
        mv "$vendor/$crate" "$vendor/${crate%-"$version"}"
    done
    # No checksums: the packed crates have none to give (a directory source
    # would ask for one per file), and a registry's unpacked crates are not
    # checked again after they are unpacked either.
    for crate in "$vendor"/*/; do
        printf '{"files":{},"package":null}' > "$crate.cargo-checksum.json"
    done
    # Cargo knows a registry crate by its name and version alone: in a
    # target directory shared by runs (BENCH_TARGET) it would keep what
    # another checkout packed under the same version. When the packed
    # crates differ from the last run's, they are built again.
    local packed stamp="$CARGO_TARGET_DIR/packed-runtime.sha256"
    packed=$(cat "$root"/package/package/*.crate | sha256sum | cut -d' ' -f1)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$packed" ]; then
        rm -rf "$CARGO_TARGET_DIR"/*/.fingerprint/skills-{core,compiler,macros,build,runtime}-*
    fi
    mkdir -p "$CARGO_TARGET_DIR"
    echo "$packed" > "$stamp"
    runtime="skills-runtime = \"=$version\""
    build="skills-build = \"=$version\""
}

# Points the benchmark workspace at $1 to the runtime's source.
use_runtime_source() {
    local dir=$1
    if [ "$RUNTIME" = path ]; then
        cp "$workspace/Cargo.lock" "$dir/Cargo.lock"
        return
    fi
    mkdir -p "$dir/.cargo"
    printf '[source.crates-io]\nreplace-with = "packed"\n\n[source.packed]\ndirectory = "%s"\n' "$root/vendor" > "$dir/.cargo/config.toml"
}

now() { date +%s%N; }

# Median of RUNS builds of crate $1 after running "$2" (an edit) each time, in ms.
timed() {
    local dir=$1 edit=$2 times=()
    for run in $(seq "$RUNS"); do
        (cd "$dir" && eval "$edit $run")
        local start end
        start=$(now)
        (cd "$dir" && cargo build --offline --quiet)
        end=$(now)
        times+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

edit_main() { sed -i "1s/.*/\/\/ edit $1/" src/main.rs; }

# rustc's own account (-Ztime-passes, nightly) of a rebuild of binary $2 in
# crate directory $1 after touching main.rs, as Markdown rows `| $3 | pass |
# time |` for the passes matching $5, built in target directory $4. The
# first rebuild with the flag is not counted: a new flag makes rustc redo
# every codegen unit once, which a touch of main.rs does not.
time_passes() {
    local dir=$1 bin=$2 label=$3 target=$4 passes=$5
    local build=(cargo +nightly rustc --offline --quiet --bin "$bin" -- -Ztime-passes)
    (cd "$dir" && edit_main warm && CARGO_TARGET_DIR="$target" "${build[@]}" > /dev/null 2>&1 &&
        edit_main profile && CARGO_TARGET_DIR="$target" "${build[@]}" 2>&1 |
        grep -E "time: .*\s($passes)$" | awk -v k="$label" '{ printf "| %s | %s | %s ms |\n", k, $NF, $2 * 1000 }')
}

# 64 real skills in $1: Anthropic's whole skill directories from $2
# (claude-api left out, its description is over the limit) and the first
# skills of the flat collection $3, padded with files of random bytes
# (256 KiB each, all different: identical files would be merged by the
# linker and flatter a release figure) until their resources reach $4
# megabytes. Sets $count; `resource_bytes` measures what was padded.
real_skills() {
    skills=$1
    local dirs=$2 flat=$3 megabytes=$4
    mkdir -p "$skills"
    for dir in "$dirs"/*/; do
        name=$(basename "$dir")
        [ "$name" = claude-api ] && continue
        cp -a "$dir" "$skills/$name"
    done
    count=$(ls "$skills" | wc -l)
    while IFS= read -r skill_md; do
        [ "$count" -ge 64 ] && break
        dir=$(dirname "$skill_md")
        name=$(basename "$dir")
        [ -e "$skills/$name" ] && continue
        mkdir -p "$skills/$name"
        cp "$skill_md" "$skills/$name/SKILL.md"
        count=$((count + 1))
    done < <(find "$flat" -name SKILL.md | LC_ALL=C sort)
    local i=0
    while [ "$(resource_bytes)" -lt $((megabytes * 1000 * 1000)) ]; do
        for skill in $(ls "$skills" | LC_ALL=C sort); do
            mkdir -p "$skills/$skill/assets/padding"
            head -c 262144 /dev/urandom > "$skills/$skill/assets/padding/blob-$i.bin"
            i=$((i + 1))
            [ "$(resource_bytes)" -ge $((megabytes * 1000 * 1000)) ] && break
        done
    done
}
resource_bytes() { find "$skills" -type f ! -name SKILL.md -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
