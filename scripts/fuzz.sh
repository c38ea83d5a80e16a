#!/usr/bin/env bash
# ./scripts/fuzz.sh [SECONDS]: builds the libFuzzer targets of fuzz/ with clang under ASan and
# UBSan (in build-fuzz/, apart from the Release build) and runs each for SECONDS (default 20) from
# its committed seed corpus fuzz/corpus/<target>/, with its own options (fuzz/<target>.options: one
# libFuzzer flag a line, such as -max_len) and dictionary (fuzz/dict/<target>.dict) where it has
# them.  New inputs go to a temporary folder, so the committed corpus changes only by hand.  Inputs
# nested far past the JSON depth limit are made at each run (deep_seeds below): those at the size
# limit are run once before fuzzing, smaller ones join the corpus.  A crash, leak, timeout,
# oversized allocation, sanitizer report or an error that is not one line in Sling's words
# (fuzz/fuzz_check.h) fails the run and leaves the input in build-fuzz/artifacts/ (turn it into a
# regression test in tests/).
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

# The target's own libFuzzer flags into `options`: fuzz/<target>.options, one flag a line (# starts
# a comment), and its dictionary.  A line that is not a flag stops the run rather than being passed
# on as a corpus folder.
target_options() {
  local name="$1" file="$root/fuzz/$1.options" line
  options=()
  max_len=0
  if [ -f "$file" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      line="${line%%#*}"
      line="${line//[[:space:]]/}"
      [ -z "$line" ] && continue
      if [[ "$line" != -* ]]; then
        echo "fuzz: $file: '$line' is not a libFuzzer flag" >&2
        exit 2
      fi
      [[ "$line" == -max_len=* ]] && max_len="${line#-max_len=}"
      options+=("$line")
    done <"$file"
  fi
  if [ -f "$root/fuzz/dict/$name.dict" ]; then options+=("-dict=$root/fuzz/dict/$name.dict"); fi
}

# TEXT written COUNT times.
repeat() {
  awk -v text="$1" -v count="$2" 'BEGIN { for (i = 0; i < count; i++) printf "%s", text }'
}

# deep_seeds NAME DIR LEVELS OPEN: inputs of target NAME nested far past kMaxJsonDepth
# (engine/core/cereal_json.h) into DIR: LEVELS levels of arrays, closed, and OPEN levels of objects
# ({"a": each) left open, where the target reads JSON.  They are made at each run rather than
# committed: the ones at the size limit would add about 19 MB of brackets to the repository, for
# text this function writes in a fraction of a second.
deep_seeds() {
  local name="$1" dir="$2" deep objects game
  deep="$(repeat '[' "$3")$(repeat ']' "$3")"
  objects="$(repeat '{"a":' "$4")"
  case "$name" in
    fuzz_protocol)
      # As an agent's answer, in a host's message, and as a whole line.
      printf '{"type":"action","id":1,"actions":%s}\n' "$deep" >"$dir/deep-answer"
      printf '{"type":"new_game","game":"pig","rules":{"goal":%s}}\n' "$deep" >"$dir/deep-new-game"
      printf '%s\n' "$objects" >"$dir/deep-line-left-open"
      ;;
    fuzz_http_body)
      # The first byte picks the route (fuzz_http_body.cpp): the nesting as a body, inside a field,
      # and inside the text of a save or a records line that a field carries (read a second time).
      printf '\000%s' "$deep" >"$dir/deep-games-body"
      printf '\000{"game":"pig","rules":%s}' "$deep" >"$dir/deep-games-rules"
      printf '\001{"record":"{\\"history\\":%s}"}' "$deep" >"$dir/deep-replays-record-text"
      printf '\002{"records":"{\\"game_id\\":0,\\"record\\":%s}"}' "$deep" >"$dir/deep-records-line"
      printf '\003\001\000\000{"action":%s}' "$deep" >"$dir/deep-act"
      printf '\004\000\000\000{"x":%s}' "$deep" >"$dir/deep-point"
      printf '\000%s' "$objects" >"$dir/deep-body-left-open"
      ;;
    fuzz_rules)
      # The first byte picks the game.
      for game in 0 1 2; do printf "\\00$game%s" "$deep" >"$dir/deep-rules-$game"; done
      printf '\002%s' "$objects" >"$dir/deep-rules-left-open"
      ;;
    fuzz_record | fuzz_map | fuzz_state | fuzz_tournament)
      # In an object: a record or a records line that does not start with "{" is read as binary.
      printf '{"history":%s}' "$deep" >"$dir/deep-arrays"
      printf '%s' "$objects" >"$dir/deep-objects-left-open"
      ;;
  esac
}

# fuzz_run LOG ARGS...: runs a target; on a failure shows the end of its log and fails the run.
fuzz_run() {
  local log="$1"
  shift
  if "$root/build-fuzz/fuzz/$name" "${options[@]}" -timeout=10 -rss_limit_mb=2048 \
      -malloc_limit_mb=1024 -artifact_prefix="$root/build-fuzz/artifacts/$name-" "$@" \
      >"$log" 2>&1; then
    return 0
  fi
  tail -n 40 "$log" >&2
  echo "fuzz: $name FAILED (input in build-fuzz/artifacts/)" >&2
  status=1
  return 1
}

mkdir -p "$root/build-fuzz/artifacts"
status=0
for target in "$root"/fuzz/fuzz_*.cpp; do
  name="$(basename "$target" .cpp)"
  # The target's options come first: the run's time and failure limits after them hold for all.
  target_options "$name"
  work="$(mktemp -d)"
  mkdir "$work/corpus" "$work/limit"
  # At the size limit: 400,000 levels (800 kB), and objects left open up to max_len.  Each is run
  # once, not fuzzed: in the corpus, inputs this large and their offspring took most of the time
  # (fuzz_protocol ran 214 inputs in 20 s instead of 30,000, and covered less).
  if [ "$max_len" -gt 0 ]; then
    deep_seeds "$name" "$work/limit" 400000 $(((max_len - 5) / 5))
    if [ -n "$(ls -A "$work/limit")" ]; then
      echo "fuzz: $name on its deep inputs at the size limit" >&2
      fuzz_run "$work/limit.log" "$work/limit"/* || true
    fi
  fi
  # In the corpus: 1,000 levels, cheap to mutate, from which the dictionary's brackets go deeper.
  deep_seeds "$name" "$work/corpus" 1000 1000
  echo "fuzz: $name for ${seconds}s ${options[*]//$root\//}" >&2
  if fuzz_run "$work/fuzz.log" -max_total_time="$seconds" -print_final_stats=0 "$work/corpus" \
      "$root/fuzz/corpus/$name"; then
    # libFuzzer's last status line: executions, coverage, corpus, length limit, speed, memory.
    summary="$(grep -E '^#[0-9]+' "$work/fuzz.log" | tail -n 1 | tr -s ' \t' ' ')"
    echo "fuzz: $name passed: $summary" >&2
  fi
  rm -rf "$work"
done
exit "$status"
