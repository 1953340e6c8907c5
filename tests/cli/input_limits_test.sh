#!/usr/bin/env bash
# Input sanity from the command line (docs/robustness.md, review defects 4, 5, 6, 11, 20, 21): absurd
# sizes and times, control characters and broken YAML files end with exit code 2 and a message that
# names the file and key, never a crash, a hang, negative results or raw control bytes on the terminal.
# Usage: input_limits_test.sh WALKSIM SOURCE_DIR
set -u
walksim="$1"
src="$2"
source "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1


machine() {  # machine NAME BODY: a machine extending nehalem-ep-2s8c
  printf 'name: %s\nextends: nehalem-ep-2s8c\ndescription: "x"\n%s\n' "$1" "$2" > "$1.yaml"
}
kernel() {  # kernel NAME BODY: a kernel extending linux-2.6.35
  printf 'name: %s\nextends: linux-2.6.35\ndescription: "x"\n%s\n' "$1" "$2" > "$1.yaml"
}
experiment() {  # experiment NAME WORKLOAD [EXTRA]: a one-point stat experiment
  printf 'name: %s\ndescription: "x"\nmachine: nehalem-ep-2s8c\nkernels: [%s]\nworkload: %s\nthreads: [1, 2]\nrun: {ops_per_process: 50, warmup_ops: 0}\n%s\n' \
    "$1" "${4:-linux-2.6.38}" "$2" "${3:-}" > "$1.yaml"
}
src_of() { printf '{value: %s, source: "estimate: attack"}' "$1"; }

# Defect 4: the CPU count wrapped in 32 bits (to 8: segmentation fault; to 0: "no CPUs").
machine wrap "layout:
  threads_per_core: $(src_of 536870913)"
expect 2 "wrap.yaml:4:1: key 'layout': nodes x sockets_per_node x cores_per_socket x threads_per_core = 2 x 1 x 4 x 536870913 = 4294967304 CPUs, above the limit of 65536 CPUs" -- probe -m wrap.yaml
machine wrap0 "layout:
  sockets_per_node: $(src_of 65536)
  cores_per_socket: $(src_of 32768)"
expect 2 "key 'layout': .* = 8589934592 CPUs, above the limit of 65536 CPUs" -- probe -m wrap0.yaml

# Defect 5: times that overflowed picoseconds.
machine slow "memory:
  dram_access: $(src_of 9000000s)"
expect 2 "slow.yaml:5:24: key 'memory.dram_access.value': time '9000000s' is above the limit of 1s for a hardware latency" -- probe -m slow.yaml
machine l1 "caches:
  - {name: L1D, shared_by: $(src_of 1), size: $(src_of 32KiB), ways: $(src_of 8), latency: $(src_of 9000000000000000000ps)}"
expect 2 "key 'caches\[0\].latency.value': time '9000000000000000000ps' \(9000000s\) is above the limit of 1s" -- probe -m l1.yaml
experiment ovf "{kind: stat-loop, params: {user_time: 9000000s}}"
expect 2 "ovf.yaml:5:[0-9]+: key 'workload.params.user_time': time '9000000s' is above the limit of 1s for the user time of one operation" -- run ovf.yaml -q -o out
experiment think "{kind: lock-loop, params: {think_time: 9000000s}}"
expect 2 "key 'workload.params.think_time': time '9000000s' is above the limit of 1s" -- run think.yaml -q -o out
printf 'process p0 cwd=/mnt/ram\nfile /mnt/ram/f\np0 user 9000000s\np0 stat ./f\n' > ovf.trace
experiment tovf "{kind: trace-replay, params: {file: ovf.trace}}"
sed -i 's/threads: \[1, 2\]/threads: [1]/' tovf.yaml
expect 2 "ovf.trace:3:9: user time before one call adds up to more than 1s" -- run tovf.yaml -q -o out
# A run whose sum of (individually allowed) times would still pass the end of the clock stops.
kernel kslow "cpu_costs:
  syscall: {cycles: 1e9, source: \"estimate: attack\"}"
experiment sum "{kind: stat-loop}" "cpu_cost_scale: 1000" "$tmp/kslow.yaml"
sed -i 's/threads: \[1, 2\]/threads: [1]/; s/ops_per_process: 50,/ops_per_process: 100000,/' sum.yaml
expect 2 "simulated time overflowed on CPU 0: .* a time input .* is too large" -- run sum.yaml -q -o out
[ -e out ] && { echo "FAIL: an overflowed run left results"; fail=1; }

# Defect 6: huge factors zeroed, an infinite clock accepted; and M4, a tiny clock blamed on a cache.
kernel kbig "cpu_costs:
  syscall: {cycles: 1e300, source: \"estimate: attack\"}"
expect 2 "kbig.yaml:5:[0-9]+: key 'cpu_costs.syscall.cycles': cycles 1e300 is above the limit of 1e9" -- trace -m nehalem-ep-2s8c -k kbig.yaml -s "stat ./f"
machine fast "clock: $(src_of 1e300GHz)"
expect 2 "fast.yaml:4:16: key 'clock.value': frequency '1e300GHz' is too large" -- probe -m fast.yaml
machine tiny "clock: $(src_of 1e-300Hz)"
expect 2 "tiny.yaml:4:16: key 'clock.value': clock 1e-300Hz is outside the supported 1MHz..100GHz" -- probe -m tiny.yaml

# Defect 11: sizes that ran out of memory or hung; M16, "bad cache geometry" without a location.
l3() { printf 'caches:
  - {name: L1D, shared_by: %s, size: %s, ways: %s, latency: %s}
  - {name: L3, shared_by: %s, size: %s, ways: %s, latency: %s, inclusion: inclusive}' \
  "$(src_of 1)" "$(src_of 32KiB)" "$(src_of 8)" "$(src_of 4cycles)" "$(src_of 4)" "$(src_of "$1")" "$(src_of "$2")" "$(src_of 40cycles)"; }
machine ways "$(l3 1GiB 16777216)"
expect 2 "key 'caches\[1\].ways.value': ways 16777216 is above the limit of 1024" -- probe -m ways.yaml
machine huge "$(l3 8000000TiB 16)"
expect 2 "key 'caches\[1\].size.value': size 8000000TiB is .* lines of 64 B, above the limit of 16777216 lines per cache instance" -- probe -m huge.yaml
machine many "layout:
  nodes: $(src_of 100000)"
expect 2 "key 'layout.nodes.value': 'nodes' 100000 is above the limit of 1024 NUMA nodes" -- probe -m many.yaml
sed 's/^name: synthetic-1024c/name: spines/; s/spines: {value: 4,/spines: {value: 100000000,/' \
  "$src/configs/machines-synthetic/synthetic-1024c.yaml" > spines.yaml
expect 2 "key 'interconnect.generator.spines.value': 8 leaves and 100000000 spines are 100000008 routers, above the limit of 4096 routers" -- probe -m spines.yaml
printf 'layouts:\n  dentry:\n    - [d_count, d_flags, d_lock, d_mounted, d_inode, d_hash, d_parent, d_name]\n' > klines.body
for _ in $(seq 200); do printf '    - []\n' >> klines.body; done
kernel klines "$(cat klines.body)"
expect 2 "key 'layouts.dentry': the layout of dentry has 201 lines, above the limit of 64" -- trace -k klines.yaml -s "stat ./f"
experiment gd "{kind: git-diff, params: {files: 10000000}}"
expect 2 "key 'workload.params.files': files must be 1..300000" -- run gd.yaml -q -o out

# Defect 20: control characters echoed raw (E9: an unknown key; T1: a binary trace file).
experiment esc "{kind: stat-loop}" '"\e]0;TITLE\a\e[31mRED": 1'
expect 2 "key '.x1b\]0;TITLE.x07.x1b\[31mRED': unknown key" -- run esc.yaml -q -o out
head -c 4096 "$walksim" > binary.trace  # the bytes of a binary file: an ELF header, NULs, DEL
experiment bin "{kind: trace-replay, params: {file: binary.trace}}"
sed -i 's/threads: \[1, 2\]/threads: [1]/' bin.yaml
expect 2 "binary.trace:1:[0-9]+: .*x7fELF" -- run bin.yaml -q -o out

# Defect 21: a boot node the machine lacks was clamped silently.
kernel kboot "placement:
  boot_objects_node: 99"
expect 2 "kboot.yaml:5:22: key 'placement.boot_objects_node': node 99 does not exist on machine 'nehalem-ep-2s8c', which has 2 NUMA nodes \(valid values: 0..1\)" -- trace -m nehalem-ep-2s8c -k kboot.yaml -s "stat ./f"

# Cosmetic messages: yaml-cpp's depth limit, a symlink loop, a second document.
head -c 100000 /dev/zero | tr '\0' '[' > deep.yaml
expect 2 "deep.yaml(:[0-9]+:[0-9]+)?: lists and mappings are nested too deeply" -- run deep.yaml
ln -s loop2.yaml loop1.yaml && ln -s loop1.yaml loop2.yaml
expect 2 "loop1.yaml: too many levels of symbolic links" -- run loop1.yaml
experiment two "{kind: stat-loop}" $'---\nname: other'
expect 2 "two.yaml:8:1: a second YAML document starts here" -- run two.yaml -q -o out

# The limits leave room: a machine at the edge still probes.
machine edge "memory:
  dram_access: $(src_of 1s)"
expect 0 "round trip" -- probe -m edge.yaml
exit $fail
