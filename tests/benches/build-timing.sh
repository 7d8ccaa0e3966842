# Helpers of the build-cost scripts (sourced, not run): a package manifest,
# the median of timed rebuilds, and the edit that forces one.

manifest() {
    local name=$1 dependency=$2
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n' "$name" "$dependency"
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
