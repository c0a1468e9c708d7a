#!/usr/bin/env bash
# Builds roofline-lint with AddressSanitizer + UndefinedBehaviorSanitizer in
# its own build directory and runs the whole test suite (ctest: the
# GoogleTest units and the lit suite) against the instrumented tools.
#
#   bash scripts/sanitize.sh            # build-asan/, ninja -j2
#   BUILD_DIR=/tmp/asan JOBS=8 bash scripts/sanitize.sh
#
# Only our code (lib/, tools/, the unit tests) is instrumented: Debian's
# libclang-cpp and libLLVM are not, so a bug inside Clang is not caught here,
# but our misuse of its API (bad pointers handed to it, reads of freed AST
# memory from our side) is. The variants roofline-run compiles and executes
# are built with the system compiler's ordinary flags and are not sanitized.
#
# Needs the packages scripts/setup.sh installs (run that first on a bare
# machine). Exit status: ctest's (0 = every test passed under the
# sanitizers).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-2}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined"
fi
ninja -C "$BUILD_DIR" -j "$JOBS"

# abort_on_error/halt_on_error: a finding fails the test that hit it
# (lit and ctest see a non-zero exit and the report on stderr).
# detect_leaks: see the note below, decided by a run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$BUILD_DIR"
ctest --output-on-failure
