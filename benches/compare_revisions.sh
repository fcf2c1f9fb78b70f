#!/bin/sh
# Compare engine throughput of two git revisions, measured in the same run.
#
#   benches/compare_revisions.sh [REV_A [REV_B [ROUNDS]]]     (default: main HEAD 5)
#
# Exports each revision's tree (git archive), builds benches/compare/main.rs against its
# kingdoms-core with the project's release profile (fat LTO; FAST=1 for a quicker build
# without it), then runs the two binaries alternately ROUNDS times (A, B, A, B, ...) and
# prints the median of each figure: simulate games/s (one thread) and ISMCTS iterations/s per
# game, and B/A. Run it on a quiet machine, under `nice` if others share it.
set -eu
A=${1:-main}
B=${2:-HEAD}
ROUNDS=${3:-5}
ROOT=$(git rev-parse --show-toplevel)
WORK=${WORK:-$(mktemp -d /tmp/kingdoms-compare.XXXXXX)}
export CARGO_TARGET_DIR="$WORK/target"
if [ "${FAST:-0}" = 1 ]; then LTO=false; CGU=16; else LTO='"fat"'; CGU=1; fi

build() { # build REV LABEL -> $WORK/LABEL.bin
    rev=$1; label=$2; src="$WORK/src-$label"; crate="$WORK/bench-$label"
    rm -rf "$src" "$crate"; mkdir -p "$src" "$crate/src"
    git -C "$ROOT" archive "$rev" Cargo.toml Cargo.lock rust data | tar -x -C "$src"
    cp "$ROOT/benches/compare/main.rs" "$crate/src/main.rs"
    cp "$src/Cargo.lock" "$crate/Cargo.lock"
    cat > "$crate/Cargo.toml" <<TOML
[package]
name = "kingdoms-compare"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
kingdoms-core = { path = "$src/rust/core" }

[profile.release]
lto = $LTO
codegen-units = $CGU
TOML
    echo "building $rev ($(git -C "$ROOT" rev-parse --short "$rev")) ..." >&2
    cargo build --quiet --release --manifest-path "$crate/Cargo.toml"
    cp "$CARGO_TARGET_DIR/release/kingdoms-compare" "$WORK/$label.bin"
}

build "$A" a
build "$B" b
: > "$WORK/results"
i=1
while [ "$i" -le "$ROUNDS" ]; do
    for label in a b; do
        "$WORK/$label.bin" | sed "s/^/$label /" >> "$WORK/results"
    done
    echo "round $i of $ROUNDS done" >&2
    i=$((i + 1))
done

echo "medians over $ROUNDS alternating rounds: A = $A, B = $B"
printf '%-11s %-24s %14s %14s %7s\n' game metric A B B/A
python3 - "$WORK/results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, game, metric, value = line.split()
    runs.setdefault((game, metric), {}).setdefault(label, []).append(float(value))
for (game, metric), by in runs.items():
    a, b = statistics.median(by["a"]), statistics.median(by["b"])
    print(f"{game:<11} {metric:<24} {a:>14.1f} {b:>14.1f} {b / a:>7.3f}")
PY
