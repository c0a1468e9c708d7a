#!/bin/sh
# Writes docs/results/cuda-resource-usage.txt: every CUDA variant emitted
# for the kernels of kernels/ and the CodeGen test inputs, compiled with
# nvcc --resource-usage for sm_75 (T4), sm_86 (A6000) and sm_90
# (H100/H200): registers, static shared memory, stack and spill bytes per
# kernel and architecture (scripts/cuda-build.py --merge, as
# test/CodeGen/cuda-compile-all.test; exit 1 on a spill or a compile error).
#   scripts/cuda-resource-usage.sh [BUILD_DIR] [ARCHS]
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ARCHS=${2:-sm_75,sm_86,sm_90}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
DIRS=""
for F in "$ROOT"/kernels/*.cpp "$ROOT"/test/CodeGen/Inputs/variants.cpp \
         "$ROOT"/test/CodeGen/Inputs/cuda-variants.cpp; do
  N=$(basename "$F" .cpp)
  "$BUILD/bin/roofline-lint" --emit="$OUT/$N" --target=cuda "$F" -- -std=c++17 > /dev/null
  DIRS="$DIRS --dir $OUT/$N"
done
mkdir -p "$ROOT/docs/results"
# shellcheck disable=SC2086
python3 "$ROOT/scripts/cuda-build.py" $DIRS --arch "$ARCHS" --merge 12 \
  --jobs "${JOBS:-2}" > "$OUT/usage.txt" || STATUS=$?
# The temporary directory's name is not part of the result.
sed "s|$OUT/||g" "$OUT/usage.txt" > "$ROOT/docs/results/cuda-resource-usage.txt"
cat "$ROOT/docs/results/cuda-resource-usage.txt" | tail -1
exit ${STATUS:-0}
