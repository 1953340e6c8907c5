#!/usr/bin/env bash
# README command 1: install what is missing, build walksim (Release) and run the default
# experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWALKSIM_TESTS=OFF >/dev/null
cmake --build build --target walksim -j"$(nproc)"
./scripts/default-experiment.sh
