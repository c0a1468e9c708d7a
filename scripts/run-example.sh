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
# on this machine's measured roofline. Each variant's time is the median of
# single calls made back to back for --min-time seconds (at least --reps
# calls), in its own process, one variant after another. A 64^3 call takes
# about 3 us, so even 0.05 s gives ~15,000 calls: the count is not the
# problem, the window is. All of a variant's calls then come from one 50 ms
# stretch of a shared machine and each variant gets a different stretch, so
# a burst of other work during one of them moves its median (tiled 3.68 us
# against a minimum of 2.85 in one such run). Half a second spans many
# scheduler time slices, so the variants' medians see a similar mix of load;
# it adds about 4 s to the run.
host="${XDG_CONFIG_HOME:-$HOME/.config}/roofline/host.yaml"
if [ ! -f "$host" ]; then
  echo
  echo "no measured host machine at $host: measuring a rough one now"
  echo "(roofline-probe --quick --save, seconds; run roofline-probe --save for trustworthy numbers)"
  build/bin/roofline-probe --quick --save --no-progress > /dev/null
fi
echo
build/bin/roofline-run --machine=host --target=cpu --reps=5 --min-time=0.5 \
  --emit-dir=build/roofline-run --plot=build/roofline-run.html kernels/gemm.cpp
