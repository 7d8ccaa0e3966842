#!/usr/bin/env bash
# The README's test command on a fresh machine: a clean clone of HEAD, an
# empty CARGO_HOME (so nothing an earlier command downloaded can help) and the
# crates.io registry. Every crate a test needs must be fetched by the test
# command itself; a test that runs `cargo --offline` on crates no build of the
# workspace needed fails here.
#
#   bash tests/fresh-machine.sh            # the README's test command
#   bash tests/fresh-machine.sh -p skills-tests --test budget_build   # a part
#
# It downloads and builds everything, so it takes as long as a first CI run.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/skills-fresh.XXXXXX")"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$repo" "$work/clone"
# The corpus beside the repository is optional; a user's clone has none, and
# the tests that read it say they were skipped.
mkdir "$work/cargo-home"

# The README's second set-up command, read from the README so that this
# script runs what it promises.
command="$(sed -n '/^```sh$/,/^```$/p' "$repo/README.md" | sed -n 3p | sed 's/ *#.*//')"
case "$command" in
    "cargo test --workspace"*) ;;
    *) echo "the README's second command is not a test command: $command" >&2; exit 2 ;;
esac
if [ "$#" -gt 0 ]; then
    command="cargo test $*"
fi

cd "$work/clone"
echo "fresh machine: CARGO_HOME=$work/cargo-home, running: $command" >&2
# rustup's proxies find their toolchain through RUSTUP_HOME, not CARGO_HOME.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
env -u CARGO_TARGET_DIR CARGO_HOME="$work/cargo-home" $command
