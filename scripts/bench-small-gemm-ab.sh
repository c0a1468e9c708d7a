#!/usr/bin/env bash
# A/B of the small gemm path at the seed's 64^3 (kernels/gemm.cpp): the
# emitted `tiled` built against REV's kernels/runtime/roofline_gemm.h
# ("base", default HEAD) and against the working tree's ("new"), and
# OpenBLAS (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, 1 thread), timed
# in one process in interleaved rounds (scripts/bench-small-gemm-ab.cpp):
# first with 256 rotated operand sets (in L3, as roofline-run times a 64^3
# gemm), then with one set (in L1). On a shared machine compare the
# per-round ratios, not the times.
#   scripts/bench-small-gemm-ab.sh [REV] [ROUNDS] [CALLS]
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD} ROUNDS=${2:-21} CALLS=${3:-5000}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
build/bin/roofline-lint --emit="$W/e" kernels/gemm.cpp > /dev/null
mkdir -p "$W/base"
git show "$REV:kernels/runtime/roofline_gemm.h" > "$W/base/roofline_gemm.h"
# Each build in its own namespace (rl renamed), so that the two copies of
# the runtime's inline functions do not merge at link time.
build() { # LETTER RUNTIME_DIR
  nice -n 10 c++ -std=c++17 -O3 -march=native -fopenmp -I"$2" -I"$W/e/runtime" -Drl=rl_"$1" \
    -Drl_gemm_64_L12_tiled=tiled_"$1" -c "$W/e/gemm_64_L12/tiled.cpp" -o "$W/tiled_$1.o"
}
build a "$W/base"
build b kernels/runtime
nice -n 10 c++ -std=c++17 -O2 scripts/bench-small-gemm-ab.cpp "$W/tiled_a.o" "$W/tiled_b.o" \
  -fopenmp -lopenblas -o "$W/bench"
echo "base: $REV ($(git rev-parse --short "$REV")); new: the working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- kernels/runtime || echo ', modified'))"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for B in 256 1; do
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    "$W/bench" "$ROUNDS" "$CALLS" "$B" abo
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
