#!/usr/bin/env bash
# The main job on the default example: builds roofline-lint and runs it on
# the seed's kernels against the default machine (the seed's RTX A6000),
# then measures the seed's gemm variants with roofline-run on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
NINJA_TARGETS="roofline-lint roofline-probe roofline-run" bash scripts/setup.sh
build/bin/roofline-lint --verbosity=normal kernels/*.cpp

# Then the evidence: roofline-run builds, checks and times the variants of
# the seed's gemm (64x64x64) on this machine, beside OpenBLAS, and plots them
# on this machine's measured roofline. The timing runs in 5 interleaved
# rounds (docs/roofline-run.md, "Timing"): each round times every variant
# and baseline once, in its own process, the order rotating, for 0.1 s
# (--min-time / --rounds) of back-to-back calls; a variant's time is the
# median of its rounds', each speedup the median of the ratios within a
# round. A 64^3 call takes about 3 us, so the count of calls is not the
# problem, the window is: a burst of other work on a shared machine (other
# builds) during one variant's block moved its median when each variant
# was timed in one block; in rounds it falls on one round of every variant
# alike and the ratio of that round is still fair.
host="${XDG_CONFIG_HOME:-$HOME/.config}/roofline/host.yaml"
if [ ! -f "$host" ]; then
  echo
  echo "no measured host machine at $host: measuring a rough one now"
  echo "(roofline-probe --quick --save, seconds; run roofline-probe --save for trustworthy numbers)"
  build/bin/roofline-probe --quick --save --no-progress > /dev/null
fi
echo
build/bin/roofline-run --machine=host --target=cpu --reps=5 --min-time=0.5 --rounds=5 \
  --emit-dir=build/roofline-run --plot=build/roofline-run.html kernels/gemm.cpp
