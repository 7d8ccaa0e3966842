#!/usr/bin/env bash
# The engine behind `pattern` (issue 24, item 4): what regex-lite costs a
# binary against regex, side by side in one run. Three throw-away crates, each
# a release build from clean: one that compares two strings (the baseline),
# one that compiles and matches one pattern with regex-lite, one with regex.
# Prints the build time and the stripped size of each.
#
#   bash tests/benches/pattern-engine.sh
set -euo pipefail
work="$(mktemp -d "${TMPDIR:-/tmp}/skills-pattern-engine.XXXXXX")"
trap 'rm -rf "$work"' EXIT

make_crate() { # name dependency crate-path
    cargo new -q --vcs none "$work/$1"
    if [ -n "$2" ]; then
        (cd "$work/$1" && cargo add -q "$2")
        printf 'fn main() {\n    let args: Vec<String> = std::env::args().collect();\n    let re = %s::Regex::new(&args[1]).unwrap();\n    println!("{}", re.is_match(&args[2]));\n}\n' "$3" > "$work/$1/src/main.rs"
    else
        printf 'fn main() {\n    let args: Vec<String> = std::env::args().collect();\n    println!("{}", args[1] == args[2]);\n}\n' > "$work/$1/src/main.rs"
    fi
    (cd "$work/$1" && cargo fetch -q)
}

make_crate baseline "" ""
make_crate with-regex-lite regex-lite regex_lite
make_crate with-regex regex regex

printf '%-16s %10s %14s\n' crate "build (s)" "stripped (B)"
for name in baseline with-regex-lite with-regex; do
    cd "$work/$name"
    start=$(date +%s.%N)
    cargo build -q --release
    end=$(date +%s.%N)
    strip -o "$work/$name.stripped" "target/release/$name"
    printf '%-16s %10.1f %14d\n' "$name" "$(echo "$end - $start" | bc)" "$(stat -c %s "$work/$name.stripped")"
done
