#!/usr/bin/env bash
# ./scripts/fuzz.sh [SECONDS]: builds the libFuzzer targets of fuzz/ with clang under ASan and
# UBSan (in build-fuzz/, apart from the Release build) and runs each for SECONDS (default 20) from
# its committed seed corpus fuzz/corpus/<target>/.  New inputs go to a temporary folder, so the
# committed corpus changes only by hand; a crash, leak, timeout or oversized allocation fails the
# run and leaves the input in build-fuzz/artifacts/ (turn it into a regression test).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-20}"
source "$root/scripts/bootstrap.sh"
SLING_PACKAGES+=(clang)  # the fuzz run only: libFuzzer comes with Debian's clang
sling_install_missing
CC=clang CXX=clang++ sling_build build-fuzz RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
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
