#!/usr/bin/env bash
# Builds everything and runs every test: GoogleTest units and the lit suite,
# all through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure
