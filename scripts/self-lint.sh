#!/usr/bin/env bash
# Self-hosting check (.ci/run): roofline-lint over its own lib/ and tools/
# with the build's compile_commands.json (a GCC build on CI, so its
# GCC-only flags are exercised). Passes when every file parses and the run
# exits 0. It checks exit codes and compile errors only, never how many
# nests are analyzed or refused: that changes as the analysis grows.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
report="$BUILD_DIR/self-lint.json"
errors="$BUILD_DIR/self-lint.err"

start=$(date +%s)
set +e
"$BUILD_DIR/bin/roofline-lint" -p "$BUILD_DIR" -j "$(nproc)" --quiet \
  --output="json:$report" lib tools 2> "$errors"
rc=$?
set -e
seconds=$(( $(date +%s) - start ))

fail() {
  echo "self-lint: $1" >&2
  grep -E 'error:' "$errors" | head -n 40 >&2 || true
  exit 1
}
[ "$rc" -eq 0 ] || fail "roofline-lint exited $rc on lib/ and tools/"
if grep -qE '(^|: )(fatal )?error:' "$errors"; then
  fail "compile errors in roofline-lint's own sources"
fi
read -r files file_errors < <(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(s["files"], s["file_errors"])' "$report")
[ "$file_errors" -eq 0 ] || fail "$file_errors files not analyzed"
echo "self-lint: ok: $files files of lib/ and tools/ parsed, exit 0, ${seconds}s"
