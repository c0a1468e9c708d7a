#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/, clang-19, ASan+UBSan, ROOFLINE_FUZZ=ON)
# and runs each for a while on a copy of its seed corpus (fuzz/corpus/<target>/;
# the front end's is the test suite's small .cpp files, gathered at run time).
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 s, all four)
# Environment: FUZZ_JOBS (build jobs, default 2), FUZZ_OUT (where corpora,
# crashes and logs go, default build-fuzz/runs), FUZZ_SUMMARY (file for the
# summary table, default stdout only).
# A crash leaves crash-*/timeout-*/oom-* files in $FUZZ_OUT/<target>/ and
# makes this script exit 1; reproduce with build-fuzz/fuzz/fuzz-<target> FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(machine config counts frontend)
OUT=${FUZZ_OUT:-build-fuzz/runs}

if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 -DROOFLINE_FUZZ=ON
fi
nice ninja -C build-fuzz -j "${FUZZ_JOBS:-2}" fuzzers

status=0
summary="target     seconds  executions  exec/s  corpus  crashes"
for T in "${TARGETS[@]}"; do
  BIN=build-fuzz/fuzz/fuzz-$T
  DIR=$OUT/$T
  rm -rf "$DIR"
  mkdir -p "$DIR/corpus"
  if [ "$T" = frontend ]; then
    # Seeded from the test suite's own C++ at run time, not from committed
    # copies of it (the harness takes at most 4 KiB per input).
    find test kernels -name '*.cpp' -size -4k -not -path '*/Output/*' \
      -exec sh -c 'for f; do cp "$f" "$0/$(echo "$f" | tr / _)"; done' "$DIR/corpus" {} +
  else
    cp fuzz/corpus/$T/* "$DIR/corpus/"
  fi
  # The front end parses real headers per input: a generous per-input
  # timeout; leaks are checked only where our code owns all allocations.
  EXTRA=(-timeout=10 -rss_limit_mb=4096)
  [ "$T" = frontend ] && EXTRA=(-timeout=20 -rss_limit_mb=4096 -detect_leaks=0 -max_len=4096)
  set +e
  nice "$BIN" "$DIR/corpus" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
    -artifact_prefix="$DIR/" "${EXTRA[@]}" > "$DIR/log.txt" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$DIR/log.txt" | grep -o '[0-9]*$' || echo "?")
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$DIR/log.txt" | grep -o '[0-9]*$' || echo "?")
  ncorp=$(ls "$DIR/corpus" | wc -l)
  crashes=$(ls "$DIR" | grep -cE '^(crash|timeout|oom|leak)-' || true)
  summary+=$(printf '\n%-10s %7s  %10s  %6s  %6s  %7s' "$T" "$SECONDS_EACH" "$execs" "$rate" "$ncorp" "$crashes")
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    status=1
    echo "fuzz-$T: exit $rc; see $DIR/log.txt" >&2
    grep -m5 -E 'ERROR|mismatch|SUMMARY|abort|round-trip|stable' "$DIR/log.txt" >&2 || true
  fi
done
echo "$summary"
[ -n "${FUZZ_SUMMARY:-}" ] && echo "$summary" > "$FUZZ_SUMMARY"
exit $status
