#!/usr/bin/env python3
"""Lists the C++ functions longer than a limit (default 80 lines), body braces included.

A heuristic, not a parser: a definition is a line that ends with '{' after a ')' (with optional
const/override/noexcept/-> type/initialisers), outside another function's body; its length is
counted to the matching '}'. Lambdas inside a function count as part of it. Test files are skipped
unless --tests. Usage: scripts/long-functions.py [--limit N] [--tests] [paths...]
"""
import argparse, pathlib, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--limit", type=int, default=80)
ap.add_argument("--tests", action="store_true")
ap.add_argument("paths", nargs="*")
a = ap.parse_args()
files = a.paths or subprocess.run(["git", "ls-files", "*.cpp", "*.hpp"], capture_output=True, text=True,
                                  check=True).stdout.split()
head = re.compile(r"^\s*(?!if\b|for\b|while\b|switch\b|catch\b|else\b|do\b|return\b)[^;{}]*\)\s*"
                  r"(const\s*)?(override\s*)?(final\s*)?(noexcept\s*)?(->\s*[^{]+)?(:[^{]*)?\{\s*(//.*)?$")
found = []
for f in files:
    if not a.tests and ("_test" in f or f.startswith("fuzz/")):
        continue
    lines = pathlib.Path(f).read_text().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if head.match(line) and "=" not in line.split("(")[0] and "[" not in line.split("(")[0]:
            # the signature may start on earlier lines: name is the text before the first '(' here or above
            depth, j = 0, i
            while j < len(lines):
                code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|//.*', "", lines[j])
                depth += code.count("{") - code.count("}")
                if depth <= 0 and j >= i:
                    break
                j += 1
            n = j - i + 1
            if n > a.limit:
                sig = line.strip()
                k = i
                while "(" not in sig and k > 0:
                    k -= 1
                    sig = lines[k].strip() + " " + sig
                name = re.sub(r"\(.*", "", sig).split()[-1] if "(" in sig else sig
                found.append((n, f, i + 1, name))
            i = j + 1
            continue
        i += 1
for n, f, line, name in sorted(found, reverse=True):
    print(f"{n:5} {f}:{line} {name}")
print(f"{len(found)} function(s) over {a.limit} lines", file=sys.stderr)
