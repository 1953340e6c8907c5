#!/usr/bin/env bash
# The default experiment: stat and dbench scaling curves on the 64-core Altix (ref-walk against
# rcu-walk against the store-free walk), with summaries, hot lines and plots under results/.
set -euo pipefail
cd "$(dirname "$0")/.."
./build/walksim run experiments/stat-scaling.yaml
echo
./build/walksim run experiments/dbench-scaling.yaml
