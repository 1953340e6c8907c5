#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build everything with warnings as errors,
# run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# -g1: backtraces with functions and lines, without the full debug info that costs a third of the
# compile time (CI runs this on two cores within its 15 minutes).
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DWALKSIM_WERROR=ON >/dev/null
cmake --build build-test -j"$(nproc)"
ctest --test-dir build-test --output-on-failure -j"$(nproc)"
