#!/usr/bin/env bash
# A/B of the small gemm paths at the seed's 64^3 (kernels/gemm.cpp): the
# emitted `tiled`, `bf16` and `int8` built against REV's
# kernels/runtime/roofline_gemm.h ("base", default HEAD; REV may also be a
# file, a copy of the header to compare with) and against the working
# tree's ("new"), and OpenBLAS (OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE unset, 1 thread), timed in one process in interleaved
# rounds (scripts/bench-small-gemm-ab.cpp): first with 256 rotated operand
# sets (in L3, as roofline-run times a 64^3 gemm), then with one set (in
# L1). On a shared machine compare the per-round ratios, not the times.
#   scripts/bench-small-gemm-ab.sh [REV] [ROUNDS] [CALLS] [LETTERS]
# LETTERS: a b tiled (base, new), c d bf16, e f int8, o OpenBLAS (default
# abo); ratios against OpenBLAS and against the new tiled of each round.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD} ROUNDS=${2:-21} CALLS=${3:-5000} LETTERS=${4:-abo}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
build/bin/roofline-lint --emit="$W/e" kernels/gemm.cpp > /dev/null
mkdir -p "$W/base"
if [ -f "$REV" ]; then
  cp "$REV" "$W/base/roofline_gemm.h"
else
  git show "$REV:kernels/runtime/roofline_gemm.h" > "$W/base/roofline_gemm.h"
fi
# Each build in its own namespace (rl renamed), so that the two copies of
# the runtime's inline functions do not merge at link time.
build() { # VARIANT LETTER RUNTIME_DIR
  nice -n 10 c++ -std=c++17 -O3 -march=native -fopenmp -I"$3" -I"$W/e/runtime" -Drl=rl_"$2" \
    -Drl_gemm_64_L12_"$1"=$1_"$2" -Drl_gemm_64_L12_"$1"_prepare=$1_prepare_"$2" \
    -c "$W/e/gemm_64_L12/$1.cpp" -o "$W/$1_$2.o"
}
OBJS=()
for V in tiled:ab bf16:cd int8:ef; do
  case "$LETTERS" in *[${V#*:}]*) ;; *) continue ;; esac
  build "${V%:*}" a "$W/base"
  build "${V%:*}" b kernels/runtime
  OBJS+=("$W/${V%:*}_a.o" "$W/${V%:*}_b.o")
done
nice -n 10 c++ -std=c++17 -O2 scripts/bench-small-gemm-ab.cpp "${OBJS[@]}" \
  -fopenmp -lopenblas -o "$W/bench"
echo "base: $REV ($([ -f "$REV" ] && sha1sum "$REV" | cut -c1-12 || git rev-parse --short "$REV")); new: the working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- kernels/runtime || echo ', modified'))"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for B in 256 1; do
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    "$W/bench" "$ROUNDS" "$CALLS" "$B" "$LETTERS"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
