#!/usr/bin/env bash
# The default experiment: until the experiment layer exists, the latency probe of every machine.
set -euo pipefail
cd "$(dirname "$0")/.."
./build/walksim probe --all
