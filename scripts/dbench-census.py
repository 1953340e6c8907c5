#!/usr/bin/env python3
"""Census of dbench-2's netbench loadfile client_plain.txt: where its names live and what it lists.

Replays the loadfile's namespace operations (NTCreateX, Unlink, Rename, Rmdir, Deltree) the way
dbench-4's fileio backend executes them, tracking which names exist, and counts for each of the
client's directories:

  avg_entries   entries in the directory, averaged over the pass's operations (every line one op)
  listings      directory listings of it: every name that does not resolve (resolve_name() stats
                it and, on a miss, reads the parent), and the wildcard listing of FIND_FIRST
  mean_listed   entries in the directory at those listings, averaged
  open / create / rename / open_missing / qpath_miss / find_first
                the operations that name a file in it (opens of an existing file, successful
                FILE_CREATEs, renames, failing FILE_OPENs, QUERY_PATH_INFORMATION of a missing
                name, FIND_FIRSTs)
  pre_open / pre_qpath
                of the failing opens and missing-name queries, those that come before a create
                of the same name: within the next WINDOW lines, the name is next made to exist by
                a FILE_CREATE (not a rename)
  qpath_dir     QUERY_PATH_INFORMATION of an existing directory

The walksim dbench workload takes its per-directory tree and weights from this output
(models/workload/dbench_census.cpp). The loadfile is in dbench's history: sahlberg/dbench
commit 52233eed (2002-04-17), client_plain.txt (122,877 lines). Usage:

  git clone https://github.com/sahlberg/dbench && git -C dbench show 52233eed:client_plain.txt > client_plain.txt
  scripts/dbench-census.py client_plain.txt
"""
import collections
import sys

CLIENT = "\\clients\\client1"
WINDOW = 40  # lines: a miss followed this closely by the create of its name leads up to the create


def rel(path):
    """The loadfile path relative to the client's directory, '/'-separated and case-folded."""
    p = path.lower()
    c = CLIENT.lower()
    if p == c:
        return "."
    if p.startswith(c + "\\"):
        p = p[len(c) + 1:]
    else:
        return None  # outside the client's tree ("\clients")
    return p.replace("\\", "/")


def parent(p):
    return p.rsplit("/", 1)[0] if "/" in p else "."


def main(path):
    children = collections.defaultdict(set)  # directory -> names in it
    dirs = {"."}
    area = collections.Counter()  # directory -> sum over ops of its entries
    stats = collections.defaultdict(collections.Counter)
    listed = collections.Counter()
    ops = 0

    def exists(p):
        return p == "." or (parent(p) in dirs and p.rsplit("/", 1)[-1] in children[parent(p)])

    def resolve(p, kind=None):
        if p is None or exists(p):
            return True
        d = parent(p)
        if d in dirs:  # opendir succeeds: the whole directory is read (no name matches)
            stats[d]["listings"] += 1
            listed[d] += len(children[d])
        if kind:
            stats[d][kind] += 1
        return False

    def add(p, is_dir):
        children[parent(p)].add(p.rsplit("/", 1)[-1])
        if is_dir:
            dirs.add(p)

    def remove(p):
        children[parent(p)].discard(p.rsplit("/", 1)[-1])
        for d in [d for d in dirs if d == p or d.startswith(p + "/")]:
            dirs.discard(d)
            children.pop(d, None)

    with open(path, encoding="latin-1") as f:
        lines = [w for w in (line.split() for line in f) if w]
    # For each line, how the name it misses is next made to exist: ("create" | "rename", line).
    made_next = {}
    upcoming = {}
    for i in range(len(lines) - 1, -1, -1):
        w = lines[i]
        if w[0] == "NTCreateX" and w[4] != "-1" and int(w[3], 16) == 0x2 and not int(w[2], 16) & 0x1:
            made_next[i] = upcoming.get(w[1].lower())
            upcoming[w[1].lower()] = ("create", i)
        elif w[0] == "Rename":
            made_next[i] = upcoming.get(w[1].lower())
            upcoming[w[2].lower()] = ("rename", i)
        else:
            made_next[i] = upcoming.get(w[1].lower()) if len(w) > 1 else None

    def before_create(i):
        nxt = made_next[i]
        return nxt is not None and nxt[0] == "create" and nxt[1] - i <= WINDOW

    for i, w in enumerate(lines):
        op = w[0]
        ops += 1
        if op == "NTCreateX":
            p = rel(w[1])
            opts, disp, ok = int(w[2], 16), int(w[3], 16), w[4] != "-1"
            found = resolve(p)
            if p is not None:
                d = parent(p)
                if not ok:
                    stats[d]["open_missing"] += 1
                    stats[d]["pre_open"] += before_create(i)
                elif not found:
                    add(p, bool(opts & 0x1))
                    stats[d]["create"] += 1
                elif not opts & 0x1:
                    stats[d]["open"] += 1
        elif op == "QUERY_PATH_INFORMATION":
            p = rel(w[1])
            if not resolve(p, "qpath_miss"):
                stats[parent(p)]["pre_qpath"] += before_create(i)
            elif p in dirs:
                stats[parent(p)]["qpath_dir"] += 1
        elif op == "FIND_FIRST":
            p = rel(w[1])
            resolve(p)
            d = parent(p)
            stats[d]["find_first"] += 1
            if d in dirs:
                stats[d]["listings"] += 1
                listed[d] += len(children[d])
        elif op == "Unlink" or op == "Rmdir":
            p = rel(w[1])
            resolve(p)
            remove(p)
        elif op == "Rename":
            a, b = rel(w[1]), rel(w[2])
            stats[parent(a)]["rename"] += 1
            resolve(a)
            resolve(b)
            remove(a)
            add(b, False)
        elif op == "Deltree":
            p = rel(w[1])
            if p == ".":
                children.clear()
                dirs.intersection_update({"."})
        for d in dirs:
            area[d] += len(children[d])

    names = sorted(set(area) | set(stats), key=lambda d: (d.count("/"), d))
    cols = ["listings", "open", "create", "rename", "open_missing", "pre_open", "qpath_miss", "pre_qpath", "qpath_dir",
            "find_first"]
    print(f"# {ops} operations; pre_open / pre_qpath: a create of the name follows within {WINDOW} lines")
    print("dir avg_entries mean_listed " + " ".join(cols))
    for d in names:
        s = stats[d]
        mean = listed[d] / s["listings"] if s["listings"] else 0.0
        print(f"{d} {area[d] / ops:.2f} {mean:.2f} " + " ".join(str(s[c]) for c in cols))
    total_listed = sum(listed.values())
    print(f"# entries listed per operation: {total_listed / ops:.3f}; listings: {sum(s['listings'] for s in stats.values())}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dbench-census.py client_plain.txt")
    main(sys.argv[1])
