#!/bin/sh
# Writes docs/results/cuda-resource-usage.txt: every CUDA variant of the
# test nests (test/CodeGen/Inputs/cuda-variants.cpp) compiled with
# nvcc --resource-usage for sm_75 (T4), sm_86 (A6000) and sm_90 (H100/H200):
# registers, shared memory, stack and spill bytes per kernel
# (scripts/cuda-build.py; exit 1 on a spill or a compile error).
#   scripts/cuda-resource-usage.sh [BUILD_DIR] [ARCHS]
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ARCHS=${2:-sm_75,sm_86,sm_90}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$BUILD/bin/roofline-lint" --emit="$OUT/emit" --target=cuda \
  "$ROOT/test/CodeGen/Inputs/cuda-variants.cpp" -- -std=c++17 > /dev/null
mkdir -p "$ROOT/docs/results"
exec python3 "$ROOT/scripts/cuda-build.py" --dir "$OUT/emit" --arch "$ARCHS" \
  --jobs "${JOBS:-2}" --results "$ROOT/docs/results/cuda-resource-usage.txt"
