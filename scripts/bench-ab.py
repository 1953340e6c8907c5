#!/usr/bin/env python3
"""Compares two walksim binaries' speed in one sitting, as docs/performance.md's comparisons are made:
`walksim bench --json` of each, alternated round by round (A then B, then B then A, ...) so that the
host's drift over the sitting falls on both alike, and per scenario the best, the median and the
worst host seconds of each binary's simulation loop and floor, and the ratio A/B of each round.

   scripts/bench-ab.py OLD_BINARY NEW_BINARY [--rounds 4] [--repeat 3] [--scenario NAME ...]

A ratio above 1 means B (the second binary) was faster. The verdict says "faster" or "slower" only
when every round's ratio is on the same side of 1 by more than --noise percent (default 3): on a
shared host one run of the same binary can differ from the next by 30% or more, and a verdict from
the best of each side alone would read that noise as a gain."""
import argparse
import json
import statistics
import subprocess
import sys


def bench(binary, repeat, scenarios):
    cmd = [binary, "bench", "--json", "--repeat", str(repeat)]
    for s in scenarios:
        cmd += ["--scenario", s]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"bench-ab: cannot run {binary}: {e.strerror}")
    if done.returncode != 0:
        sys.exit(f"bench-ab: {' '.join(cmd)} exited with {done.returncode}:\n{done.stderr.strip()}")
    return {s["name"]: s for s in json.loads(done.stdout)["scenarios"]}


def verdict(ratios, noise):
    if all(r > 1 + noise for r in ratios):
        return "faster"
    if all(r < 1 - noise for r in ratios):
        return "slower"
    return "within noise"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", help="the binary before (e.g. a copy of build/walksim at the base commit)")
    p.add_argument("b", help="the binary after")
    p.add_argument("--rounds", type=int, default=4, help="alternated rounds (each runs both binaries)")
    p.add_argument("--repeat", type=int, default=3, help="walksim bench --repeat: runs per scenario, fastest kept")
    p.add_argument("--scenario", action="append", default=[], help="a bench scenario (default: all)")
    p.add_argument("--noise", type=float, default=3.0, help="percent a round's ratio must clear 1 by")
    a = p.parse_args()
    if a.rounds < 1 or a.repeat < 1:
        p.error("--rounds and --repeat must be at least 1")
    runs = {"A": [], "B": []}
    for r in range(a.rounds):
        order = ("A", "B") if r % 2 == 0 else ("B", "A")
        for side in order:
            runs[side].append(bench(a.a if side == "A" else a.b, a.repeat, a.scenario))
        print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    names = list(runs["A"][0])
    print(f"A = {a.a}\nB = {a.b}\n{a.rounds} alternated rounds, each scenario's fastest of {a.repeat} per run")
    print(f"{'scenario':30} {'loop':5} {'A best/median/worst s':>24} {'B best/median/worst s':>24}  A/B per round -> verdict")
    for n in names:
        for key, label in (("host_s", "sim"), ("floor_host_s", "floor")):
            xa = [run[n][key] for run in runs["A"]]
            xb = [run[n][key] for run in runs["B"]]
            ratios = [x / y for x, y in zip(xa, xb)]
            fa = f"{min(xa):.3f}/{statistics.median(xa):.3f}/{max(xa):.3f}"
            fb = f"{min(xb):.3f}/{statistics.median(xb):.3f}/{max(xb):.3f}"
            rs = " ".join(f"{r:.2f}" for r in ratios)
            print(f"{n:30} {label:5} {fa:>24} {fb:>24}  {rs} -> {verdict(ratios, a.noise / 100)}")
    mismatched = [n for n in names if any(run[n]["mem_ops"] != runs["A"][0][n]["mem_ops"] for run in runs["B"])]
    if mismatched:
        print("note: the binaries simulated different numbers of memory operations in " + ", ".join(mismatched) +
              ": they are different models, not only different speeds")


if __name__ == "__main__":
    main()
