#!/usr/bin/env bash
# The main job on the default example: builds roofline-lint and runs it on
# the seed's kernels against the default machine (the seed's RTX A6000).
set -euo pipefail
cd "$(dirname "$0")/.."
NINJA_TARGETS=roofline-lint bash scripts/setup.sh
build/bin/roofline-lint kernels/*.cpp
