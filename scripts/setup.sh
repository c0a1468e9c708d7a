#!/usr/bin/env bash
# Installs the Debian packages roofline-lint builds and tests with, then
# configures and builds it in build/. Idempotent: installs only what is
# missing, reconfigures only when needed.
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-jsonschema validates the SARIF output, python3-yaml reads the
# pre-commit and GitHub Actions definitions (test/CI, test/Integration);
# libopenblas-dev and libblis-dev are the sgemm baselines of
# scripts/bench-cpu-variants.py and of roofline-run (its OpenBLAS and BLIS
# rows and test/Runner); git runs under roofline-lint --diff
# (test/CI/diff.test); zlib1g-dev gives the static LLVM link (the default,
# ROOFLINE_STATIC_LLVM) its libz.so.
PACKAGES=(llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 llvm-19-tools cmake ninja-build
          libgtest-dev g++ python3 python3-jsonschema python3-yaml libopenblas-dev libblis-dev git
          zlib1g-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-}
fi
ninja -C "$BUILD_DIR" ${NINJA_TARGETS:-all}
