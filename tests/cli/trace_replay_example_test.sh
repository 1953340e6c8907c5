#!/usr/bin/env bash
# docs/traces.md's example cannot rot: its two code blocks are the shipped files, and the shipped
# experiment loads, runs, and measures 180 operations per process (3 processes, 2 kernels).
# Usage: trace_replay_example_test.sh WALKSIM SOURCE_DIR
set -u
walksim="$1"
src="$2"
fail=0
# The fenced block that follows the line "<!-- FILE -->" in the doc.
block() {
  awk -v marker="<!-- $1 -->" '
    $0 == marker { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$src/docs/traces.md"
}
for f in experiments/examples/trace-replay.yaml experiments/examples/traces/two-writers.trace; do
  if ! diff <(block "$f") "$src/$f" >/dev/null; then
    echo "FAIL: the block of docs/traces.md marked $f differs from $f:"; diff <(block "$f") "$src/$f" | head -10; fail=1
  elif [ -z "$(block "$f")" ]; then
    echo "FAIL: docs/traces.md has no block marked $f"; fail=1
  else
    echo "ok: docs/traces.md shows $f as shipped"
  fi
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! "$walksim" run "$src/experiments/examples/trace-replay.yaml" -q --out "$out/res" >"$out/log" 2>&1; then
  echo "FAIL: the example experiment did not run:"; head -5 "$out/log"; fail=1
else
  # Each point: 3 processes x (200 ops - 20 warm-up) measured, and no call failed.
  points=$(grep -cE '"ops": [0-9]+,' "$out/res/results.json")
  measured=$(grep -c '"ops": 540,' "$out/res/results.json")
  failed=$(grep -c '"failed_calls": 0,' "$out/res/results.json")
  if [ "$points" -ne 2 ] || [ "$measured" -ne 2 ] || [ "$failed" -ne 2 ]; then
    echo "FAIL: expected 2 points with 540 measured ops and no failed call; got $points points, $measured, $failed"
    fail=1
  else
    echo "ok: the example measures 180 operations per process on both kernels"
  fi
fi
exit $fail
