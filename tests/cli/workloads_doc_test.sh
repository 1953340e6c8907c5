#!/usr/bin/env bash
# docs/experiments.md's workload parameter tables are exactly the workloads' parameter tables
# (walksim workloads --describe --markdown): a parameter added to a workload's table without its
# doc string in the docs, or a doc edited by hand, fails here.
set -euo pipefail
walksim="$1"
src="$2"
want=$("$walksim" workloads --describe --markdown)
have=$(awk '/^### Parameters of each workload/ {on = 1; next} /^##? / {on = 0} on' "$src/docs/experiments.md" |
  sed -n '/^#### /,$p' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')
if [[ "$want" != "$have" ]]; then
  echo "docs/experiments.md's workload parameter tables differ from 'walksim workloads --describe --markdown':"
  diff <(echo "$want") <(echo "$have") || true
  exit 1
fi
# Every workload kind has its table, and an unknown kind is an error naming the nearest one.
kinds=$("$walksim" workloads | awk 'NF && !/^walksim/ {print $1}')
for k in $kinds; do grep -q "^#### \`$k\`" "$src/docs/experiments.md"; done
if out=$("$walksim" workloads --describe stat-lop 2>&1); then
  echo "an unknown workload was described: $out"
  exit 1
fi
grep -q "did you mean 'stat-loop'" <<<"$out"
echo "workload parameters documented: $(grep -c '^#### ' <<<"$want") workloads"
