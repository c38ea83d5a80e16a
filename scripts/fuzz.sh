#!/usr/bin/env bash
# ./scripts/fuzz.sh [SECONDS]: builds the libFuzzer targets of fuzz/ with clang under ASan and
# UBSan (in build-fuzz/, apart from the Release build) and runs each for SECONDS (default 20) from
# its committed seed corpus fuzz/corpus/<target>/.  New inputs go to a temporary folder, so the
# committed corpus changes only by hand; a crash, leak, timeout, oversized allocation, sanitizer
# report or an error that is not one line in Sling's words (fuzz/fuzz_check.h) fails the run and
# leaves the input in build-fuzz/artifacts/ (turn it into a regression test in tests/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-20}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS]  (a positive number of seconds per target)" >&2
  exit 2
fi
source "$root/scripts/bootstrap.sh"
# The fuzz run only: clang, and libclang-rt-14-dev for libFuzzer and the sanitizer runtimes (clang-14
# only recommends it, and the bootstrap installs with --no-install-recommends).
SLING_PACKAGES+=(clang libclang-rt-14-dev)
sling_install_missing
# -O1 with line tables only: quicker to build than -O2 -g, and stack traces keep file and line.
# No -DNDEBUG: every assert (FixedVector's capacity among them) is checked.
CC=clang CXX=clang++ sling_build build-fuzz RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DSLING_FUZZ=ON -DSLING_BUILD_TESTS=OFF -DSLING_BUILD_BENCH=OFF -- sling_fuzz
mkdir -p "$root/build-fuzz/artifacts"
status=0
for target in "$root"/fuzz/fuzz_*.cpp; do
  name="$(basename "$target" .cpp)"
  work="$(mktemp -d)"
  echo "fuzz: $name for ${seconds}s" >&2
  if ! "$root/build-fuzz/fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 -print_final_stats=0 \
        -artifact_prefix="$root/build-fuzz/artifacts/$name-" \
        "$work" "$root/fuzz/corpus/$name" >"$work.log" 2>&1; then
    tail -n 40 "$work.log" >&2
    echo "fuzz: $name FAILED (input in build-fuzz/artifacts/)" >&2
    status=1
  fi
  rm -rf "$work" "$work.log"
done
exit "$status"
