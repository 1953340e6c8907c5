#!/usr/bin/env bash
# Configures build-test, the one build of scripts/test.sh and scripts/fuzz.sh: clang with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation, warnings as
# errors. -O1 with line tables only: reports name file and line, at a fraction of -O2 -g's compile
# time; assertions stay on.
set -euo pipefail
cd "$(dirname "$0")/.."
# A build-test configured with another compiler (g++, by test.sh before 2026-12-03) cannot be switched
# in place: CMake keeps the cached compiler, or drops the other options when told a new one. Start over.
if [[ -f build-test/CMakeCache.txt ]] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang++$' build-test/CMakeCache.txt; then
  echo "build-test was configured with another compiler: configuring it again with clang"
  rm -rf build-test
fi
CC=clang CXX=clang++ cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DWALKSIM_FUZZ=ON -DWALKSIM_WERROR=ON >/dev/null
