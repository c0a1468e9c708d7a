#!/usr/bin/env bash
# Builds scripts/bench-amx.cpp against kernels/runtime and runs it:
#   scripts/bench-amx.sh [N] [ROUNDS]
# (AMX vs VNNI int8 and AMX vs AVX512-BF16 bf16 gemms in one process; prints
# a line and exits 0 on a CPU without AMX.)
set -euo pipefail
cd "$(dirname "$0")/.."
Out=$(mktemp -d)
trap 'rm -rf "$Out"' EXIT
c++ -std=c++17 -O3 -march=native -Ikernels/runtime scripts/bench-amx.cpp -o "$Out/bench-amx"
echo "load: $(uptime)"
"$Out/bench-amx" "$@"
