#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build everything with warnings as errors, under
# AddressSanitizer and UndefinedBehaviorSanitizer, and run every test with ctest.
#
# One build serves all of CI. Until 2026-12-03 this script built the tree with g++ and
# scripts/sanitize.sh built it again with clang and the sanitizers: two full builds of ~300 s each
# on two cores put CI at 885-912 s against its 15 minutes. Now the suite runs once, sanitized (a
# memory error or undefined behaviour in any test fails it), with clang's warnings as errors, and the
# build carries libFuzzer's coverage instrumentation so that scripts/fuzz.sh reuses it
# (scripts/configure-test-build.sh). Release builds (scripts/quickstart.sh, walksim bench) use g++ -O2
# and are unaffected.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/configure-test-build.sh
cmake --build build-test -j"$(nproc)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-test --output-on-failure -j"$(nproc)"
