#!/usr/bin/env bash
# walksim layout as a user meets it: import a BTF (the build's look-alike fixture, and this
# machine's own when it has one), trace a call on the imported kernel, show and diff layouts,
# reproduce the V-lockref pair with one move, and every bad input ending with code 2 and no file.
set -uo pipefail
walksim="$1"
src="$2"
source "$src/tests/cli/lib.sh"
fixtures="$(dirname "$walksim")/models/layout/btf-fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect 0 "wrote $tmp/look-alike.yaml" -- layout import --btf "$fixtures/lookalike.o" --kernel-version "look-alike 1.0" \
  --out "$tmp/look-alike.yaml"
expect 0 "d_lockref" -- trace --kernel "$tmp/look-alike.yaml" --syscall "stat ./file"
expect 0 "struct dentry \{  /\* size: 0xc0" -- layout show "$tmp/look-alike.yaml" --struct dentry
if [ -r /sys/kernel/btf/vmlinux ]; then
  expect 0 "wrote $tmp/host.yaml" -- layout import --btf /sys/kernel/btf/vmlinux --out "$tmp/host.yaml"
  expect 0 "lockref" -- trace --kernel "$tmp/host.yaml" --syscall "stat ./file"
  # The running kernel's dentry as imported, against pahole's listing of the same BTF (pahole 1.24
  # warns about BTF kinds newer than it knows, and still prints the struct).
  if command -v pahole >/dev/null; then
    pahole -C dentry /sys/kernel/btf/vmlinux 2>/dev/null >"$tmp/dentry.pahole"
    if python3 - "$tmp/host.yaml" "$tmp/dentry.pahole" <<'PY'
import re, sys
yaml, listing = open(sys.argv[1]).read(), open(sys.argv[2]).read()
dentry = yaml[yaml.index("  dentry:"):yaml.index("  inode:")]
pahole = {m[1]: int(m[2]) for m in re.finditer(r"(\w+)(?:\[\d+\])?;\s*/\*\s*(\d+)\s+\d+\s*\*/", listing)}
checked = 0
for field, off, member in re.findall(r"^\s+(\w+): (\d+)\s+#.*?line \d+: ([\w.]+)", dentry, re.M):
    name = member.split(".")[-1]
    if member.split(".")[0] in pahole and name in pahole:
        checked += 1
        if pahole[name] + (8 if field == "d_iname_tail" else 0) != int(off):
            sys.exit(f"{field}: imported at {off}, pahole says {pahole[name]}")
sys.exit(0 if checked >= 12 else f"only {checked} fields compared")
PY
    then ok "the imported dentry of the running kernel agrees with pahole -C dentry"; else no "imported dentry differs from pahole"; fi
  fi
else
  echo "skipped: no /sys/kernel/btf/vmlinux on this machine (its kernel has no CONFIG_DEBUG_INFO_BTF)"
fi

# The shipped import of Debian's 6.1: d_lockref on the line of the inline name's tail.
expect 0 "d_lockref; +/\* +0x58 +0x8 \*/" -- layout show linux-6.1-debian --struct dentry
expect 0 "dentry.d_lockref +line 1 \(0x58\) +line 2 \(0x80\)" -- layout diff linux-6.1-debian linux-6.18-fc --struct dentry

# V-lockref-2024 from one shipped layout: the move writes the other variant of the pair.
expect 0 "d_name from line 0 to line 1, swapped with d_op and d_sb" -- layout move linux-6.x --field dentry.d_name \
  --swap-with d_op,d_sb --out "$tmp/dname-on.yaml"
expect 0 "no field is on a different line" -- layout diff linux-6.x-dname-lockref-line "$tmp/dname-on.yaml"
sed "s|kernel: linux-6.x-dname-lockref-line|kernel: $tmp/dname-on.yaml|" "$src/experiments/validation/v-lockref.yaml" \
  | sed 's/ops_per_process: 2000/ops_per_process: 300/' >"$tmp/v-moved.yaml"
sed 's/ops_per_process: 2000/ops_per_process: 300/' "$src/experiments/validation/v-lockref.yaml" >"$tmp/v-shipped.yaml"
expect 0 "results in" -- run "$tmp/v-moved.yaml" --out "$tmp/r-moved" --quiet
expect 0 "results in" -- run "$tmp/v-shipped.yaml" --out "$tmp/r-shipped" --quiet
if cmp -s "$tmp/r-moved/results.csv" "$tmp/r-shipped/results.csv"; then
  ok "the moved layout's V-lockref results are the shipped variant's, byte for byte"
else
  no "the moved layout's V-lockref results differ from the shipped variant's"
  diff "$tmp/r-moved/results.csv" "$tmp/r-shipped/results.csv" | head -5
fi

# Bad input: code 2, a message, and nothing written (no file, no scratch directory left).
head -c 100 "$fixtures/lookalike.btf" >"$tmp/cut.btf"
expect 2 "not BTF" -- layout import --btf "$src/README.md" --out "$tmp/bad.yaml"
expect 2 "truncated or corrupt" -- layout import --btf "$tmp/cut.btf" --kernel-version x --out "$tmp/bad.yaml"
expect 2 "without a .BTF section" -- layout import --btf "$fixtures/plain.o" --out "$tmp/bad.yaml"
expect 2 "no struct dentry" -- layout import --btf "$fixtures/no-dentry.o" --kernel-version x --out "$tmp/bad.yaml"
expect 2 "dentry.d_lockref: linux-6.x uses it.*did you mean 'd_lokref'" -- layout import --btf "$fixtures/misspelt.o" \
  --kernel-version x --out "$tmp/bad.yaml"
expect 2 "no 'Linux version' banner" -- layout import --btf "$fixtures/lookalike.btf" --out "$tmp/bad.yaml"
expect 2 "must end in .yaml" -- layout import --btf "$fixtures/lookalike.o" --kernel-version x --out "$tmp/bad.txt"
expect 2 "unknown kernel|no kernel" -- layout import --btf "$fixtures/lookalike.o" --kernel-base linux-9.x --out "$tmp/bad.yaml"
echo "keep me" >"$tmp/kept.yaml"
expect 2 "key '--to-line'.*no free 16-byte place" -- layout move linux-6.1-debian --field dentry.d_name --to-line 1 \
  --out "$tmp/kept.yaml"
expect 2 "key '--field'.*did you mean 'd_name'" -- layout move linux-6.x --field dentry.d_nam --to-line 1 --out "$tmp/kept.yaml"
expect 2 "expected TYPE.FIELD" -- layout move linux-6.x --field d_name --to-line 1 --out "$tmp/kept.yaml"
expect 2 "no object type 'dentri'.*did you mean 'dentry'" -- layout show linux-6.x --struct dentri
# A filesystem's inode container is laid out from the kernel's inode: shown, but moved only there.
expect 0 "struct ext4_inode_info" -- layout show linux-2.6.37 --struct ext4_inode_info
expect 2 "key '--field': 'ext4_inode_info' is laid out from 'inode'" -- \
  layout move linux-2.6.37 --field ext4_inode_info.i_mode --to-line 1 --out "$tmp/kept.yaml"
[ "$(cat "$tmp/kept.yaml")" = "keep me" ] && ok "a refused move leaves --out as it was" || no "a refused move changed --out"
ls "$tmp"/bad.* >/dev/null 2>&1 && no "a refused import wrote a file" || ok "no refused import wrote a file"
ls -a "$tmp" | grep -q walksim-layout && no "a scratch directory was left behind" || ok "no scratch directory left behind"
exit $fail
