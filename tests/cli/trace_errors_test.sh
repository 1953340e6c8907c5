#!/usr/bin/env bash
# Traces and `walksim trace` at the command line: bad input ends with exit code 2 and a message
# naming the file (and line) or flag; calls that fail in the kernel (ELOOP, rename's EINVAL) are
# counted, not errors. Usage: trace_errors_test.sh WALKSIM SOURCE_DIR
set -u
walksim="$1"
source "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# experiment NAME TRACE THREADS: an experiment replaying TRACE (relative to $dir) until 60 ops.
experiment() {
  cat >"$dir/$1.yaml" <<YAML
name: $1
description: "x"
machine: nehalem-ep-2s8c
kernels: [linux-2.6.38]
workload: {kind: trace-replay, params: {file: $2, loops: 0}}
threads: [$3]
run: {ops_per_process: 60, warmup_ops: 0}
YAML
  echo "$dir/$1.yaml"
}

expect 2 "key '--cwd': must be an absolute path such as '/home/user', not 'relative'" -- \
  trace -k linux-2.6.38 --cwd relative -s "stat ./f"
expect 2 "key '--cwd': must be an absolute path" -- trace -k linux-2.6.38 --cwd "" -s "stat ./f"
expect 2 "key '--cwd': '/a/../b' has a '.' or '..' component" -- trace -k linux-2.6.38 --cwd /a/../b -s "stat ./f"
expect 0 "cwd /srv/x" -- trace -k linux-2.6.38 --cwd /srv/x -s "stat ./f"
expect 2 "key '--syscall': byte count '-5' is not a whole number of bytes" -- trace -k linux-2.6.38 -s "write ./f -5"
expect 2 "at most 2147479552 bytes" -- trace -k linux-2.6.38 -s "read ./f 99999999999999999999"

# --contend: another CPU holds one of the call's locks (docs/model.md "Watching one contended call").
ob=(trace -m x86-32way-2007 -k linux-2.6.20 --cwd /mnt/ram -s "open ./openbench.1 O_WRONLY|O_CREAT")
expect 0 "mutex_lock       load-sleep" -- "${ob[@]}" --contend i_mutex
expect 0 "mutex_unlock     rmw-xchg     runqueue of cpu 0" -- "${ob[@]}" --contend i_mutex
expect 2 "key '--contend': 'open ./openbench.1 O_WRONLY\|O_CREAT' takes no lock named 'i_mutx' \(did you mean 'i_mutex'\?\); it takes: file_lock, i_mutex" -- \
  "${ob[@]}" --contend i_mutx
expect 2 "key '--hold': applies only with --contend LOCK" -- "${ob[@]}" --hold 100
expect 2 "key '--holder-cpu': the holder CPU must be another CPU than the caller's \(0\): 1..31" -- \
  "${ob[@]}" --contend i_mutex --holder-cpu 0
expect 2 "key '--hold': must be 1 ns to 1 s, not 0" -- "${ob[@]}" --contend i_mutex --hold 0

# --disk: a stat's last dput on an unpinned tree takes 2.6.35's dcache_lock; calls that open are refused.
expect 0 "spin_lock        rmw-xadd     globals                           0  dcache_lock" -- \
  trace -k linux-2.6.35 -s "lstat a/b/file" --disk
expect 2 "key '--disk': a disk filesystem's tree \(--disk\) is modelled for stat and lstat only, not 'open ./f O_RDONLY'" -- \
  trace -k linux-2.6.35 -s "open ./f O_RDONLY" --disk

mkfifo "$dir/f.trace"
expect 2 "f.trace: not a regular file \(a FIFO\)" -- run "$(experiment fifo f.trace 1)" -q -o "$dir/out"
expect 2 "/dev/zero: not a regular file \(a device\)" -- run "$(experiment zero /dev/zero 1)" -q -o "$dir/out"

printf 'process a cwd=/mnt/ram\nsymlink /mnt/ram/l1 -> /mnt/ram/l2\nsymlink /mnt/ram/l2 -> /mnt/ram/l1\na stat ./l1\n' \
  >"$dir/loop.trace"
expect 0 "results in" -- run "$(experiment loop loop.trace 1)" -q -o "$dir/loop"
grep -q '"failed_calls": 60,' "$dir/loop/results.json" || { echo "FAIL: the ELOOP stats were not counted as failed"; fail=1; }

printf 'process a cwd=/mnt\ndir /mnt/a/b\na rename /mnt/a /mnt/a/b/c\na stat /mnt/a\na stat /mnt/a/b\n' >"$dir/ren.trace"
expect 0 "results in" -- run "$(experiment ren ren.trace 1)" -q -o "$dir/ren"
# 60 calls, of which the 20 renames fail (EINVAL) and the stats find both directories.
grep -q '"failed_calls": 20,' "$dir/ren/results.json" || { echo "FAIL: rename into a subdirectory did not fail"; fail=1; }

printf 'process a cwd=/mnt\nfile /mnt/f\na open ./f O_RDWR\na write ./f -5\n' >"$dir/neg.trace"
expect 2 "neg.trace:4:3: byte count '-5' is not a whole number of bytes" -- run "$(experiment neg neg.trace 1)" -q -o "$dir/out"

for i in $(seq 0 16); do echo "process p$i cwd=/a"; done >"$dir/p17.trace"
expect 2 "p17.trace:17:1: the trace declares 17 processes but the machine has 16 CPUs" -- \
  run "$(experiment p17 p17.trace 16)" -q -o "$dir/out"
if [ -e "$dir/out" ]; then echo "FAIL: a failed run left $dir/out"; fail=1; fi
exit $fail
