#!/usr/bin/env bash
# Runs every shipped experiment (validation included) with ./build/walksim (or $WALKSIM) and compares each
# results.json byte for byte with the one in REF_DIR/<experiment>/. For performance work: a change
# that only makes the simulator faster must leave every results.json identical.
#   scripts/compare-results.sh --save /tmp/ref    # before the change
#   scripts/compare-results.sh /tmp/ref           # after it; exit 1 if any differs
#   scripts/compare-results.sh --ignore config.workload_params,config.kernels[].params /tmp/ref
#                                                 # a change that adds keys: everything else identical
#   scripts/compare-results.sh --keep /tmp/new /tmp/ref
#                                                 # also keep the new results (else a temporary
#                                                 # directory); then scripts/rows-moved.py /tmp/ref
#                                                 # /tmp/new lists the rows a model change moved
#   scripts/compare-results.sh --run-args "--run-ahead off" /tmp/ref
#                                                 # every run with these options of `walksim run`
#                                                 # (here: stepped, against the default run-ahead)
set -euo pipefail
cd "$(dirname "$0")/.."
save=false
ignore=""
keep=""
run_args=()
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --save) save=true; shift ;;
    --ignore) ignore="${2:?--ignore needs KEY[,KEY...]}"; shift 2 ;;
    --keep) keep="${2:?--keep needs a directory}"; shift 2 ;;
    --run-args) read -r -a run_args <<< "${2:?--run-args needs the options}"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
ref="${1:?usage: scripts/compare-results.sh [--save | --keep NEW_DIR] [--ignore KEYS] DIR}"
if [[ -n "$keep" ]]; then
  if $save; then echo "--keep and --save: --save already keeps the results (in DIR)" >&2; exit 2; fi
  mkdir -p "$keep"
  out="$keep"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
walksim="${WALKSIM:-./build/walksim}"  # another binary: WALKSIM=/path/to/walksim
status=0
declare -A seen=()
for e in experiments/*.yaml experiments/lock-handoff/*.yaml experiments/validation/*.yaml experiments/validation-libslock/*.yaml; do
  n=$(basename "$e" .yaml)
  # Results are kept by file name, so file names must be unique across the directories.
  if [[ -n "${seen[$n]:-}" ]]; then echo "two experiments named $n: ${seen[$n]} and $e" >&2; exit 2; fi
  seen[$n]=$e
  dir="$out/$n"
  # A directory walksim wrote is replaced by it (its .walksim-results marker); with --keep nothing
  # else is removed, so a foreign directory of an experiment's name makes that run fail.
  if $save; then dir="$ref/$n"; rm -rf "$dir"; fi
  if ! "$walksim" run -q ${run_args[@]+"${run_args[@]}"} "$e" -o "$dir" >/dev/null; then
    echo "FAILED to run $e"
    status=1
    continue
  fi
  if ! $save; then
    if [[ ! -f "$ref/$n/results.json" ]]; then
      echo "NEW       $n (no results of it under $ref)"
      status=1
    elif cmp -s "$ref/$n/results.json" "$dir/results.json"; then
      echo "same      $n"
    elif [[ -n "$ignore" ]] && python3 scripts/json-equal-except.py "$ref/$n/results.json" "$dir/results.json" "$ignore"; then
      echo "same      $n (but for the keys added: $ignore)"
    else
      echo "DIFFERENT $n"
      status=1
    fi
  fi
done
$save && echo "saved results of every experiment under $ref"
exit $status
