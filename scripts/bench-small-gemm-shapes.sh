#!/usr/bin/env bash
# A/B of the f32 small gemm path over shapes: a generic row-major variant
# (rl::gemm::sgemm<6, 64>, sizes at run time, as `tiled` instantiates it)
# built against REV's kernels/runtime/roofline_gemm.h ("a", default HEAD;
# REV may be a file) and the working tree's ("b"), and OpenBLAS (native
# core, 1 thread), timed in one process in interleaved rounds
# (scripts/bench-small-gemm-shapes.cpp) with BUFFERS rotated operand sets,
# for each shape M N K. On a shared machine compare the per-round ratios.
#   scripts/bench-small-gemm-shapes.sh [REV] [ROUNDS] [CALLS] [BUFFERS...] -- [M N K]...
# e.g. scripts/bench-small-gemm-shapes.sh 41a38cf 9 3000 1 256 -- 64 64 64 48 48 48
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD} ROUNDS=${2:-9} CALLS=${3:-3000}
shift $(($# < 3 ? $# : 3))
BUFS=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do BUFS+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#BUFS[@]} -gt 0 ] || BUFS=(1 256)
SHAPES=("$@")
[ ${#SHAPES[@]} -gt 0 ] || SHAPES=(64 64 64)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/base"
if [ -f "$REV" ]; then
  cp "$REV" "$W/base/roofline_gemm.h"
else
  git show "$REV:kernels/runtime/roofline_gemm.h" > "$W/base/roofline_gemm.h"
fi
cat > "$W/gen.cpp" <<'CPP'
#include "roofline_kernel.h"
#include "roofline_gemm.h"
RL_EXPORT void rl_generic_tiled(void *const *rl_args, const int64_t *rl_sizes) {
  const int64_t K = rl_sizes[0], M = rl_sizes[1], N = rl_sizes[2];
  static const rl::gemm::path P =
      rl::gemm::path_of(rl::pick({rl::isa::avx512, rl::isa::avx2, rl::isa::portable}));
  const rl::gemm::strided g{M, N, K, static_cast<const float *>(rl_args[1]), K, 1,
                            static_cast<const float *>(rl_args[2]), N, 1,
                            static_cast<float *>(rl_args[0]), N, 1, true};
  rl::gemm::sgemm<6, 64>(P, g, rl::gemm::blocks{120, 512, 512}, false, rl::gemm::no_epi(),
                         rl::gemm::no_block_epi());
}
CPP
# Each build in its own namespace (rl renamed) so the two copies of the
# runtime's inline functions do not merge at link time.
build() { # LETTER RUNTIME_DIR
  nice -n 10 c++ -std=c++17 -O3 -march=native -fopenmp -I"$2" -Ikernels/runtime -Drl=rl_"$1" \
    -Drl_generic_tiled=tiled_"$1" -c "$W/gen.cpp" -o "$W/tiled_$1.o"
}
build a "$W/base"
build b kernels/runtime
nice -n 10 c++ -std=c++17 -O2 scripts/bench-small-gemm-shapes.cpp "$W/tiled_a.o" "$W/tiled_b.o" \
  -fopenmp -lopenblas -o "$W/bench"
echo "a: $REV ($([ -f "$REV" ] && sha1sum "$REV" | cut -c1-12 || git rev-parse --short "$REV")); b: the working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- kernels/runtime || echo ', modified'))"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((s = 0; s + 2 < ${#SHAPES[@]}; s += 3)); do
  for B in "${BUFS[@]}"; do
    echo -n "M N K = ${SHAPES[s]} ${SHAPES[s+1]} ${SHAPES[s+2]}: "
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
      "$W/bench" "$ROUNDS" "$CALLS" "$B" -1 abo "${SHAPES[s]}" "${SHAPES[s+1]}" "${SHAPES[s+2]}"
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
