#!/usr/bin/env python3
"""check_layers.py SOURCE_DIR [OBJECT_DIR] -- the library's dependency rules, checked.

1. Include arrows: every `#include "x.h"` of a file in src/<folder>/ names a header of the
   same folder or of a folder in a LOWER layer; the layers are the table under "## Layers"
   of docs/architecture.md (the one place they are written).
2. No circle between files: with OBJECT_DIR (the build's object files, one per source file),
   file A depends on file B when A's object uses a symbol B's object defines (nm); the
   strongly connected components of that graph must all be single files.
Exit 1 with one line per breach; 0 and a summary otherwise.
"""
import os
import re
import subprocess
import sys


def layers(src):
    text = open(os.path.join(src, "docs", "architecture.md"), encoding="utf-8").read()
    part = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    table = {}
    for m in re.finditer(r"^\|\s*(\d+)\s*\|(.*)\|\s*$", part, re.M):
        for folder in re.findall(r"`src/([a-z_]+)/?`", m.group(2)):
            table[folder] = int(m.group(1))
    return table


def include_breaches(src, table):
    where = {}
    files = []
    for folder in sorted(os.listdir(os.path.join(src, "src"))):
        d = os.path.join(src, "src", folder)
        for f in sorted(os.listdir(d)):
            if f.endswith((".c", ".h", ".cpp", ".hpp")):
                files.append((folder, f))
                where.setdefault(f, folder)
    out = []
    for folder, f in files:
        if folder not in table:
            out.append("src/%s/: no layer in docs/architecture.md" % folder)
            continue
        text = open(os.path.join(src, "src", folder, f), encoding="utf-8").read()
        for h in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            to = where.get(os.path.basename(h))
            if to is None or to == folder:
                continue
            if table.get(to, 99) >= table[folder]:
                out.append("src/%s/%s includes %s of src/%s/ (layer %s, not below %d)"
                           % (folder, f, h, to, table.get(to), table[folder]))
    return out, len(files)


def circles(objdir):
    objs = []
    for root, _, names in os.walk(objdir):
        objs += [os.path.join(root, n) for n in names if n.endswith(".o")]
    defined, used = {}, {}
    for o in objs:
        name = os.path.relpath(o, objdir)[:-2]
        lines = subprocess.run(["nm", "-P", o], capture_output=True, text=True, check=True).stdout.splitlines()
        used[name] = set()
        for line in lines:
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind == "U":
                used[name].add(sym)
            elif kind in "TDBRVW" and kind.isupper():
                defined.setdefault(sym, name)
    edges = {a: sorted({defined[s] for s in syms if s in defined and defined[s] != a}) for a, syms in used.items()}
    # Tarjan's strongly connected components (iterative)
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            recurse = False
            for j in range(i, len(edges[v])):
                w = edges[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return ["circle between files: " + " <-> ".join(c) for c in comps], len(objs)


def main():
    src = sys.argv[1]
    table = layers(src)
    bad, nfiles = include_breaches(src, table)
    nobj = 0
    if len(sys.argv) > 2:
        more, nobj = circles(sys.argv[2])
        bad += more
    return report(bad, "layers hold: %d files in %d folders; %d objects without a circle" % (nfiles, len(table), nobj))


def report(bad, summary):
    """One FAIL line per breach on stderr, else the summary; the exit code."""
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    if not bad:
        print(summary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
