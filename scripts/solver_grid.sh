#!/usr/bin/env bash
# scripts/solver_grid.sh [OUT.md] [MAX_SECONDS]: solves the duel on every board from 14 to 30 cm
# in steps of 2 at lattice pitches 5 down to 1 and writes a Markdown table of the certified
# brackets (docs/solver.md, "The board grid").  A board is not tried at a finer pitch when that
# solve would likely run longer than MAX_SECONDS (default 300): it is estimated at 16 times the
# last solve's time (about the growth of the state count; measured 4 to 15 times from 2 cm to
# 1 cm on the 16 to 22 cm boards).  Needs the Release build (./sling builds it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-solver-grid.md}"
max_seconds="${2:-300}"
sling="$root/build/sling"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

json_field() {  # json_field FILE KEY: the value of a top-level key of the solve's JSON
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(str(v).lower() if isinstance(v,bool) else v)' "$1" "$2"
}

{
  echo "| board | pitch | states | with God | gap | without God | gap | certified | seconds |"
  echo "|---|---|---|---|---|---|---|---|---|"
} > "$out"
for board in 14 16 18 20 22 24 26 28 30; do
  for pitch in 5 4 3 2 1; do
    rules="$work/rules.json"
    echo "{\"board_cm\": $board, \"pitch_cm\": $pitch}" > "$rules"
    start=$(date +%s.%N)
    status=0
    "$sling" solve duel --rules "$rules" --json --skip-termination --out "$work/s.sol" \
      > "$work/s.json" 2> "$work/err.txt" || status=$?
    seconds=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
    if [ "$status" -ne 0 ] && [ "$status" -ne 4 ]; then
      echo "| $board | $pitch | | | | | | error: $(head -c 200 "$work/err.txt") | $seconds |" >> "$out"
      continue
    fi
    f() { json_field "$work/s.json" "$1"; }
    certified="yes"
    if [ "$(f certified)" != "true" ] || [ "$(f certified_without_god)" != "true" ]; then
      certified="**no**: $(f failed_pass) pass, $(f failed_layer)"
    fi
    printf '| %s | %s | %s | %s | %.1e | %s | %.1e | %s | %s |\n' "$board" "$pitch" "$(f states)" \
      "$(f lower_bound)" "$(f gap)" "$(f lower_bound_without_god)" "$(f gap_without_god)" \
      "$certified" "$seconds" >> "$out"
    echo "board $board pitch $pitch: $certified ($seconds s)" >&2
    growth=16
    if python3 -c "import sys; sys.exit(0 if $seconds * $growth > $max_seconds else 1)"; then
      break
    fi
  done
done
echo "Wrote $out" >&2
