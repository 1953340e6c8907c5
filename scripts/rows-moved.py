#!/usr/bin/env python3
"""What a model change moved: for every experiment under both REF and NEW (directories of
<experiment>/results.json, as scripts/compare-results.sh --save and --keep write them), the rows
(kernel, threads) whose throughput moved by at least --min-pct percent, and every single-thread row
that moved at all (a change that should leave one process alone must not move those).
   scripts/rows-moved.py /tmp/ref /tmp/new [--min-pct 5]"""
import argparse, json, os, signal, sys


def mean(v):
    return v.get("mean") if isinstance(v, dict) else v


def rows(path):
    with open(path) as f:
        doc = json.load(f)
    return {(r["kernel"], r["threads"]): r for r in doc.get("rows", [])}


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("ref")
    p.add_argument("new")
    p.add_argument("--min-pct", type=float, default=5.0)
    a = p.parse_args()
    moved_any = False
    for name in sorted(os.listdir(a.new)):
        ref_json, new_json = (os.path.join(d, name, "results.json") for d in (a.ref, a.new))
        if not (os.path.isfile(ref_json) and os.path.isfile(new_json)):
            continue
        old, new = rows(ref_json), rows(new_json)
        if not old and not new:
            continue  # probe output: no rows
        lines = []
        for key in sorted(old, key=lambda k: (k[0], k[1])):
            if key not in new:
                lines.append(f"  {key[0]} x{key[1]}: gone")
                continue
            before, after = mean(old[key].get("throughput")), mean(new[key].get("throughput"))
            if before is None or after is None or before == after:
                continue
            pct = (after - before) / before * 100 if before else float("inf")
            if abs(pct) >= a.min_pct or key[1] == 1:
                unit = new[key].get("throughput_unit", "")
                lines.append(f"  {key[0]} x{key[1]}: {before:.4g} -> {after:.4g} {unit} ({pct:+.1f}%)")
        for key in sorted(set(new) - set(old)):
            lines.append(f"  {key[0]} x{key[1]}: new")
        if lines:
            moved_any = True
            print(f"{name}:")
            print("\n".join(lines))
    if not moved_any:
        print(f"no row moved by {a.min_pct}% or more, and no single-thread row moved")


if __name__ == "__main__":
    sys.exit(main())
