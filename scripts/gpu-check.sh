#!/bin/sh
# One call on a GPU machine: build, check and time every CUDA variant
# against cuBLAS (docs/cuda.md). Options: scripts/gpu-check.py --help.
exec python3 "$(dirname "$0")/gpu-check.py" "$@"
