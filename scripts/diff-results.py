#!/usr/bin/env python3
"""Compares the rows of results.json in two result trees (REF/<experiment>/, NEW/<experiment>/),
for model work that moves results on purpose: prints, per experiment, every metric of every row
that changed, with the relative change. Exit 0 always (it reports; it does not judge).
   scripts/diff-results.py /tmp/before /tmp/after [--metrics throughput,ns_per_op] [--min-pct 0.01]"""
import argparse, json, os, sys

ap = argparse.ArgumentParser()
ap.add_argument("ref"); ap.add_argument("new")
ap.add_argument("--metrics", default="throughput,ns_per_op,scaling_pct,atomic_rmw_per_op,cpu_s,process_real_s,process_user_s,process_sys_s")
ap.add_argument("--min-pct", type=float, default=0.0, help="hide changes smaller than this (percent)")
a = ap.parse_args()
metrics = a.metrics.split(",")
for name in sorted(os.listdir(a.new)):
    pn, pr = os.path.join(a.new, name, "results.json"), os.path.join(a.ref, name, "results.json")
    if not (os.path.exists(pn) and os.path.exists(pr)):
        continue
    n, r = json.load(open(pn)), json.load(open(pr))
    if "rows" not in n or "rows" not in r:
        print(f"{name}: {'same' if n == r else 'DIFFERENT'} (no rows)")
        continue
    ref = {(x["kernel"], x["threads"]): x for x in r["rows"]}
    moved = []
    for x in n["rows"]:
        y = ref.get((x["kernel"], x["threads"]))
        if y is None:
            moved.append(f"  new row {x['kernel']} x{x['threads']}")
            continue
        for m in metrics:
            if m not in x or m not in y:
                continue
            a_, b_ = y[m], x[m]
            if a_ == b_:
                continue
            pct = (b_ - a_) / a_ * 100 if a_ else float("inf")
            if abs(pct) >= a.min_pct:
                moved.append(f"  {x['kernel']:<24} x{x['threads']:<4} {m:<18} {a_:.6g} -> {b_:.6g} ({pct:+.2f}%)")
    print(f"{name}: {'same' if not moved else f'{len(moved)} changed'}")
    for line in moved:
        print(line)
