#!/usr/bin/env bash
# docs/experiments.md's metric table lists exactly the metric table of the code, in its order:
# a metric added to tools/experiment/metrics.cpp without its documentation fails here.
set -euo pipefail
walksim="$1"
src="$2"
want=$("$walksim" metrics --markdown)
have=$(awk '/^### Metrics/ {on = 1; next} /^### / {on = 0} on' "$src/docs/experiments.md" |
  grep -E '^\| `[a-z0-9_]+` \|' | grep -v '^| `rcu_lookups`' || true)
if [[ "$want" != "$have" ]]; then
  echo "docs/experiments.md's metric table differs from 'walksim metrics --markdown':"
  diff <(echo "$want") <(echo "$have") || true
  exit 1
fi
# Every name is one the results carry under that name.
grep -q '^| `memory_stall_s` | s | mean | no |' "$src/docs/experiments.md"
echo "metric table documented: $(echo "$want" | wc -l) metrics"
