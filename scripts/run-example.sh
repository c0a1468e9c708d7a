#!/usr/bin/env bash
# The main job on the default example: builds roofline-lint and runs it on
# the seed's kernels against the default machine (the seed's RTX A6000),
# then measures the seed's gemm variants with roofline-run on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
NINJA_TARGETS="roofline-lint roofline-probe roofline-run" bash scripts/setup.sh
build/bin/roofline-lint --verbosity=normal kernels/*.cpp

# Then the evidence: roofline-run builds, checks and times the variants of
# the seed's gemm (64x64x64, few repetitions: quick) on this machine, beside
# OpenBLAS, and plots them on this machine's measured roofline.
host="${XDG_CONFIG_HOME:-$HOME/.config}/roofline/host.yaml"
if [ ! -f "$host" ]; then
  echo
  echo "no measured host machine at $host: measuring a rough one now"
  echo "(roofline-probe --quick --save, seconds; run roofline-probe --save for trustworthy numbers)"
  build/bin/roofline-probe --quick --save --no-progress > /dev/null
fi
echo
build/bin/roofline-run --machine=host --target=cpu --reps=3 --min-time=0.05 \
  --emit-dir=build/roofline-run --plot=build/roofline-run.html kernels/gemm.cpp
