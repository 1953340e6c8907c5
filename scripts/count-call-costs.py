#!/usr/bin/env python3
"""Count the path-walk helpers' out-of-line call costs in compiled 2.6.35 and 2.6.38 kernels.

What the kernel YAMLs' spin_lock_call, memcmp_call, dput_call, dput_last_call and mntput_call come
from (docs/reference/call-costs.md). For each kernel tree it builds the few objects the walk's
helpers live in (x86_64_defconfig at -O2 with forced inlining, the host's gcc), then for every
spec in docs/reference/call-costs/ lists the instructions the helper executes on its path, drops
the accesses the model already issues, and asks llvm-mca (-mcpu=westmere) for the block's
throughput in cycles.

    scripts/count-call-costs.py --tree 2.6.35=/path/to/linux-2.6.35 --tree 2.6.38=/path/to/linux-2.6.38 \
        --tree 6.1=/usr/src/linux-source-6.1 --config 6.1=/path/to/config.amd64_none_amd64

A tree is an extracted source tree (e.g. `git --git-dir=<mirror> archive <commit> | tar -x`; Debian's
linux-source-6.1 package for 6.1); it is copied, never modified. A tree built with `--config` uses
that configuration (Debian's own, from linux-config-6.1) instead of x86_64_defconfig at -O2. The spec addresses are those of gcc 12.2 (Debian 12): another compiler
lays the functions out differently, and the script stops with the spec and the address it could
not find.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SPEC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "reference", "call-costs")


def fail(msg):
    print(f"count-call-costs: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return r.stdout


def build(tree, out, objects, given_config=None):
    """Configure `tree` and build `objects` into `out` (an O= directory)."""
    src = os.path.join(out, "src")
    shutil.copytree(tree, src, symlinks=True)
    # A 2.6.3x tree includes linux/compiler-gcc<major>.h: gcc 12 gets gcc 4's.
    major = run(["gcc", "-dumpversion"]).strip().split(".")[0]
    gcc4_h = os.path.join(src, "include", "linux", "compiler-gcc4.h")
    gcc_h = os.path.join(src, "include", "linux", f"compiler-gcc{major}.h")
    if os.path.exists(gcc4_h) and not os.path.exists(gcc_h):
        shutil.copy(gcc4_h, gcc_h)
    obj = os.path.join(out, "obj")
    os.makedirs(obj)
    config = os.path.join(obj, ".config")
    make = ["make", "-C", src, f"O={obj}"]
    if given_config:
        shutil.copy(given_config, config)
        run(make + ["olddefconfig"])
    else:
        shutil.copy(os.path.join(src, "arch", "x86", "configs", "x86_64_defconfig"), config)
        with open(config, "a") as f:  # -O2, and `inline` always inlined, as the gcc of 2010 did
            f.write("# CONFIG_CC_OPTIMIZE_FOR_SIZE is not set\n# CONFIG_OPTIMIZE_INLINING is not set\n")
        make += ["ARCH=x86_64", "CC=gcc -fno-pie -no-pie", "HOSTCC=gcc"]
        subprocess.run(make + ["oldconfig"], input="\n" * 2000, capture_output=True, text=True)
        with open(config) as f:
            text = f.read()
        for want in ("# CONFIG_CC_OPTIMIZE_FOR_SIZE is not set", "# CONFIG_OPTIMIZE_INLINING is not set"):
            if want not in text:
                fail(f"{tree}: the configuration did not keep '{want}'")
    run(make + [f"-j{os.cpu_count() or 1}"] + sorted(objects))
    return obj


class Spec:
    """One spec file, parsed once: the trees it applies to, its steps in order (an `insn` line or an
    address range of a function) and the instructions to drop, as (object, address): a `drop`
    line belongs to the object of the range line before it."""

    def __init__(self, path):
        self.path, self.versions, self.steps, self.drops = path, [], [], set()
        obj = None
        with open(path) as f:
            for n, raw in enumerate(f, 1):
                words = raw.split("#")[0].split()
                if not words:
                    continue
                if n == 1 or words[0] == "tree":
                    if words[0] != "tree" or len(words) < 2:
                        fail(f"{path}:{n}: expected 'tree VERSION...' on the first line")
                    self.versions = words[1:]
                elif words[0] == "drop" and len(words) == 2 and obj is not None:
                    self.drops.add((obj, int(words[1], 16)))
                elif words[0] == "insn" and len(words) > 1:
                    self.steps.append(("insn", " ".join(words[1:])))
                elif len(words) == 4 and words[0] not in ("drop", "insn"):
                    obj = words[0]
                    self.steps.append(("range", words, n))
                else:
                    fail(f"{path}:{n}: expected 'obj function start end', 'drop ADDR' after a range, or 'insn TEXT'")

    def objects(self):
        return {step[1][0] for step in self.steps if step[0] == "range"}


class Disassembly:
    """objdump of object files, each read once: {function: [(address, instruction text)]}."""

    def __init__(self):
        self.files = {}

    def functions(self, path):
        if path not in self.files:
            text = run(["objdump", "-d", "--no-show-raw-insn", path])
            funcs = {}
            for m in re.finditer(r"^[0-9a-f]+ <([^>]+)>:\n(.*?)(?:\n\n|\Z)", text, re.S | re.M):
                body = []
                for line in m.group(2).splitlines():
                    mm = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
                    if mm:
                        body.append((int(mm.group(1), 16), mm.group(2).strip()))
                funcs[m.group(1)] = body
            self.files[path] = funcs
        return self.files[path]


def spec_block(spec, obj_dir, disassembly):
    """The llvm-mca input of one spec on one tree's objects, and the instructions it dropped."""
    lines, dropped = ["target:"], []
    for step in spec.steps:
        if step[0] == "insn":
            lines.append("  " + step[1])
            continue
        (obj, func, a, b), n = step[1], step[2]
        funcs = disassembly.functions(os.path.join(obj_dir, obj))
        if func not in funcs:
            fail(f"{spec.path}:{n}: no function {func} in {obj}")
        lo, hi = int(a, 16), int(b, 16)
        addrs = {addr for addr, _ in funcs[func]}
        if lo not in addrs or hi not in addrs:
            fail(f"{spec.path}:{n}: {func} has no instruction at {a} or {b} (another compiler's layout?)")
        for addr, ins in funcs[func]:
            if not lo <= addr <= hi:
                continue
            if (obj, addr) in spec.drops:
                dropped.append(f"{func}+{addr:x} {ins}")
                continue
            ins = re.sub(r"\s+<[^>]*>", "", ins)
            op = ins.split()[0]
            if op.startswith("nop") or op in ("data16", "cs") or (op == "xchg" and "%ax,%ax" in ins):
                continue  # alignment padding, never executed on the path
            if op.startswith("j") or op == "call":
                ins = f"{op} target"
            lines.append("  " + ins)
    return "\n".join(lines) + "\n", dropped


def mca(block):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(block)
    try:
        out = run(["llvm-mca", "-mcpu=westmere", "-iterations=100", f.name])
    finally:
        os.unlink(f.name)
    get = lambda key: re.search(rf"{key}:\s+([0-9.]+)", out).group(1)
    return int(get("Instructions")) // 100, int(get("Total uOps")) // 100, float(get("Block RThroughput"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", required=True, metavar="VERSION=DIR",
                    help="a kernel source tree, e.g. 2.6.35=/tmp/linux-2.6.35 (both 2.6.35 and 2.6.38)")
    ap.add_argument("--config", action="append", default=[], metavar="VERSION=FILE",
                    help="build that tree with this .config (olddefconfig) instead of x86_64_defconfig at -O2")
    ap.add_argument("--keep", metavar="DIR", help="build there and keep it (default: a temporary directory)")
    args = ap.parse_args()
    trees = {}
    for t in args.tree:
        version, _, path = t.partition("=")
        if not os.path.isfile(os.path.join(path, "Makefile")):
            fail(f"--tree {t}: no kernel Makefile in {path}")
        trees[version] = os.path.abspath(path)
    specs = {name[:-5]: Spec(os.path.join(SPEC_DIR, name))
             for name in sorted(os.listdir(SPEC_DIR)) if name.endswith(".spec")}
    missing = sorted({v for spec in specs.values() for v in spec.versions} - set(trees))
    if missing:
        fail("the specs need " + ", ".join(f"--tree {v}=DIR" for v in missing))
    configs = {}
    for c in args.config:
        version, _, path = c.partition("=")
        if version not in trees or not os.path.isfile(path):
            fail(f"--config {c}: expected VERSION=FILE for one of the --tree versions, and an existing file")
        configs[version] = os.path.abspath(path)
    for tool in ("gcc", "make", "objdump", "llvm-mca"):
        if not shutil.which(tool):
            fail(f"{tool} is not installed (Debian: gcc make binutils llvm)")
    work = args.keep or tempfile.mkdtemp(prefix="call-costs-")
    objs = {}
    for version, path in trees.items():
        objects = set().union(*(spec.objects() for spec in specs.values() if version in spec.versions))
        objs[version] = build(path, os.path.join(work, version), objects, configs.get(version))
    print(f"{'spec':<22} {'tree':<7} {'insns':>5} {'uops':>5} {'cycles':>7}  dropped (the model's accesses)")
    disassembly = Disassembly()
    for name, spec in specs.items():
        for version in spec.versions:
            block, dropped = spec_block(spec, objs[version], disassembly)
            insns, uops, cycles = mca(block)
            print(f"{name:<22} {version:<7} {insns:>5} {uops:>5} {cycles:>7.1f}  {len(dropped)}")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
