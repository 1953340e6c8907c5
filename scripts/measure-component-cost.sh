#!/usr/bin/env bash
# Measures what one path component costs this machine's kernel (bench/host/stat_depth.c: lstat of a
# cached file at 1 to 17 path components, the slope of time against components), for names of 1, 5 and 9
# characters, pinned to one CPU. The numbers of a run are in docs/reference/component-cost.md.
#   scripts/measure-component-cost.sh [DIR]    # DIR: where to build the trees (default: a temporary one)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir="${1:-$work/tree}"
mkdir -p "$dir"
cc -O2 -o "$work/stat_depth" bench/host/stat_depth.c
echo "# $(uname -srv)"
echo "# $(grep -m1 'model name' /proc/cpuinfo) (family $(grep -m1 'cpu family' /proc/cpuinfo | awk '{print $NF}'), model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | awk '{print $NF}'))"
echo "# filesystem of $dir: $(stat -f -c %T "$dir")"
cpu=$(($(nproc) - 1))
taskset -c "$cpu" "$work/stat_depth" "$dir" 16 20000 d dfile drivers_x
