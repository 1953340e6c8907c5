#!/usr/bin/env bash
# The whole test suite built with clang, AddressSanitizer and UndefinedBehaviorSanitizer (CI runs
# it). The build also carries libFuzzer's coverage instrumentation, so that scripts/fuzz.sh reuses
# it instead of compiling everything a third time (CI must stay within 15 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# -O1 with line tables only: sanitizer reports name file and line, at a fraction of -O2 -g's compile time;
# assertions stay on.
CC=clang CXX=clang++ cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DWALKSIM_FUZZ=ON >/dev/null
cmake --build build-san -j"$(nproc)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-san --output-on-failure -j"$(nproc)"
