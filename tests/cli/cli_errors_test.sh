#!/usr/bin/env bash
# Command-line contract: bad input ends with exit code 2 and one message naming what is wrong
# (file:line:column and key for YAML); good input works. Usage: cli_errors_test.sh WALKSIM SOURCE_DIR
set -u
walksim="$1"
src="$2"
source "$(dirname "$0")/lib.sh"
expect 2 "unknown machine 'barcelona'.*did you mean 'barcelona-2s8c'" -- probe --machine barcelona
expect 2 "bad-unknown-key.yaml:[0-9]+:[0-9]+: key '.*'" -- probe --machine "$src/models/machine/testdata/bad-unknown-key.yaml"
expect 2 "bad-syntax.yaml:[0-9]+:[0-9]+" -- probe --machine "$src/models/machine/testdata/bad-syntax.yaml"
expect 2 "give --machine NAME or --all" -- probe
expect 2 "" -- probe --no-such-flag
expect 2 "" -- no-such-command
expect 2 "unknown syscall 'sttat'" -- trace --kernel linux-2.6.38 --syscall "sttat ./f"
expect 2 "unknown kernel 'linux-2.6.36'.*did you mean 'linux-2.6.35'" -- trace --kernel linux-2.6.36 --syscall "stat ./f"
expect 2 "bad-two-lines.yaml:7:[0-9]+: key 'layouts.dentry\[1\]\[4\]'" -- trace --kernel "$src/models/kernel/testdata/bad-two-lines.yaml" --syscall "stat ./f"
expect 2 "" -- trace --kernel linux-2.6.38
expect 2 "" -- model ticketlock --cores 0 --think 1us --hold 1us --handoff 1ns
expect 2 "--repeat: Value 0 not in range" -- bench --repeat 0
expect 2 "--scenario" -- bench --scenario no-such-scenario
expect 0 "totals: 13 atomic RMW" -- trace --kernel linux-2.6.35 --syscall "stat ./file"
expect 0 '"atomic_rmw": 4' -- trace --kernel linux-2.6.38 --syscall "stat ./file" --json
expect 0 "speed-up" -- model ticketlock --cores 4 --think 2us --hold 100ns --handoff 50ns
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$scratch/never
expect 2 "bad-threads.yaml:[0-9]+:[0-9]+: key 'threads': thread count 32 is outside 1..16" -- run "$src/tools/experiment/testdata/bad-threads.yaml" --out "$out"
if [ -e "$out" ]; then echo "FAIL: a failed run left $out"; fail=1; fi
expect 0 "results in" -- run "$src/tools/experiment/testdata/small.yaml" --out "$out" --jobs 2
for f in results.json results.csv hotlines.csv meta.json; do [ -s "$out/$f" ] || { echo "FAIL: $out/$f missing"; fail=1; }; done
if grep -q '"approximation"' "$out/results.json"; then echo "FAIL: an exact run's results.json says approximation"; fail=1; fi
# The opt-in run-ahead: a bad window is refused before anything runs; an approximate run says so in
# its summary, results.json and meta.json.
expect 2 "--run-ahead.*must be longer than 0" -- run "$src/tools/experiment/testdata/small.yaml" --out "$out.ra" --run-ahead 0ns
expect 2 "--run-ahead.*at most 1us" -- run "$src/tools/experiment/testdata/small.yaml" --out "$out.ra" --run-ahead 2us
expect 2 "--run-ahead.*unit" -- bench --run-ahead 20
expect 2 "key '--run-ahead': docs/validation.md reports the exact model" -- validate --write-doc --run-ahead 20ns --doc "$out.md"
if [ -e "$out.ra" ] || [ -e "$out.md" ]; then echo "FAIL: a refused run-ahead left output"; fail=1; fi
expect 0 "APPROXIMATE: run-ahead 20 ns" -- run "$src/tools/experiment/testdata/small.yaml" --out "$out.ra" --run-ahead 20ns --jobs 2
grep -q '"run_ahead_ps": 20000' "$out.ra/results.json" || { echo "FAIL: results.json does not give the run-ahead"; fail=1; }
grep -q 'run-ahead 20ns' "$out.ra/meta.json" || { echo "FAIL: meta.json's command does not give the run-ahead"; fail=1; }
# Ctrl-C during a run: exit 130, and neither the results nor a temporary directory are left.
rm -rf "$out"
"$walksim" run "$src/experiments/dbench-scaling.yaml" --out "$out" -q >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
code=$?
if [ "$code" -ne 130 ]; then echo "FAIL: interrupted run exited $code, expected 130"; fail=1; else echo "ok: interrupted run exits 130"; fi
if [ -e "$out" ] || ls -a "$(dirname "$out")" | grep -q '\.never\.tmp'; then echo "FAIL: an interrupted run left files"; fail=1; fi
expect 0 "round trip" -- probe --machine nehalem-ep-2s8c
expect 0 '"entries"' -- probe --machine barcelona-2s8c --json
expect 0 "barcelona-2s8c" -- machines
expect 0 "probe" -- --help
expect 0 "^walksim [0-9]+\.[0-9]+\.[0-9]+" -- --version
expect 2 "unknown subcommand 'runn' \(did you mean 'run'\?\)" -- runn x.yaml
expect 2 "key '--configs': '/nonexistent' is not a directory" -- --configs /nonexistent machines
expect 2 "key '--configs': '/etc' holds neither machines/ nor kernels/" -- --configs /etc machines
exit $fail
