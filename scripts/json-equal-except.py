#!/usr/bin/env python3
"""Exit 0 when two JSON files are equal once the keys NEW adds at the given paths are removed from
it (paths like config.workload_params or config.kernels[].params; a key must be absent from REF:
only added keys are ignored, never changed ones). For scripts/compare-results.sh --ignore.
   scripts/json-equal-except.py REF.json NEW.json config.workload_params,config.kernels[].params"""
import json, sys


def drop(node, ref, parts):
    """Removes the key at `parts` from `node` where `ref` lacks it."""
    if not parts:
        return
    head, rest = parts[0], parts[1:]
    if head.endswith("[]"):
        key = head[:-2]
        if isinstance(node, dict) and isinstance(ref, dict) and key in node and key in ref:
            for n, r in zip(node[key], ref[key]):
                drop(n, r, rest)
        return
    if not isinstance(node, dict) or not isinstance(ref, dict):
        return
    if not rest:
        if head in node and head not in ref:
            del node[head]
        return
    if head in node and head in ref:
        drop(node[head], ref[head], rest)


ref, new = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for path in sys.argv[3].split(","):
    drop(new, ref, path.split("."))
sys.exit(0 if new == ref else 1)
