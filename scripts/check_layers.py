#!/usr/bin/env python3
"""check_layers.py SOURCE_DIR [OBJECT_DIR] -- the library's dependency rules, checked.

1. Include arrows: every `#include "x.h"` of a file in src/<folder>/ names a header of the
   same folder or of a folder in a LOWER layer; the layers are the table under "## Layers"
   of docs/architecture.md (the one place they are written).
2. No circle between files, headers included: with OBJECT_DIR (the build's object files, one
   per source file). The nodes are a source file together with the header of its stem in its
   folder (x.c + x.h: the file and its own header), and every other file on its own. A depends
   on B when a file of A includes a header of B, when A's object uses a symbol B's object
   defines (nm), or when a header of A names a function or object defined by a file that has a
   header of its own, B (it declares again what B's header declares: the header then depends
   on B, whose own header may include it back -- the circle the former assign.h and
   assign_cg.h made). A folder's shared header that declares the functions of files without
   headers of their own (core.h, objective.h) is their interface, not a circle. The strongly
   connected components of that graph must all be single nodes.
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


def symbols(objdir):
    """{node: (defined, used)} of the object files, the node named as its source, "folder/x.c"."""
    out = {}
    for root, _, names in os.walk(objdir):
        for n in names:
            if not n.endswith(".o"):
                continue
            o = os.path.join(root, n)
            src = os.path.relpath(o, objdir)[:-2]  # src/folder/x.c
            lines = subprocess.run(["nm", "-P", o], capture_output=True, text=True, check=True).stdout.splitlines()
            defined, used = set(), set()
            for line in lines:
                parts = line.split()
                if len(parts) < 2:
                    continue
                if parts[1] == "U":
                    used.add(parts[0])
                elif parts[1] in "TDBRVW" and parts[1].isupper():
                    defined.add(parts[0])
            out[src] = (defined, used)
    return out


def dependency_graph(src, objdir):
    """The nodes and edges of rule 2, over the library's files of src/."""
    syms = symbols(objdir)
    files, where = [], {}
    for folder in sorted(os.listdir(os.path.join(src, "src"))):
        for f in sorted(os.listdir(os.path.join(src, "src", folder))):
            if f.endswith((".c", ".h", ".cpp", ".hpp")):
                rel = "src/%s/%s" % (folder, f)
                files.append(rel)
                where.setdefault(f, rel)
    stems = {os.path.splitext(f)[0] for f in files if f.endswith((".c", ".cpp"))}
    owned = {os.path.splitext(f)[0] for f in files if f.endswith((".h", ".hpp"))} & stems

    def node(path):  # a source with its own header, or any other file alone
        stem = os.path.splitext(path)[0]
        return stem if stem in owned else path

    owner = {}  # symbol -> node of the file defining it
    for obj, (defined, _) in syms.items():
        for sym in defined:
            owner.setdefault(sym, node(obj))
    edges = {}
    for f in files:
        a = node(f)
        deps = edges.setdefault(a, set())
        text = open(os.path.join(src, f), encoding="utf-8").read()
        for h in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            if os.path.basename(h) in where:
                deps.add(node(where[os.path.basename(h)]))
        if f.endswith((".h", ".hpp")):  # what the header names of a file with its own header
            for name in set(re.findall(r"\b([A-Za-z_]\w*)\b", re.sub(r"/\*.*?\*/", " ", text, flags=re.S))):
                if name in owner and owner[name] in owned:
                    deps.add(owner[name])
        elif f in syms:
            deps.update(owner[sym] for sym in syms[f][1] if sym in owner)
    return {a: sorted(d for d in deps if d != a) for a, deps in edges.items()}


def circles(src, objdir):
    edges = dependency_graph(src, objdir)
    for a in list(edges):
        for b in edges[a]:
            edges.setdefault(b, [])
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
    return ["circle between files (includes, declarations or calls): " + " <-> ".join(c) for c in comps], len(edges)


def main():
    src = sys.argv[1]
    table = layers(src)
    bad, nfiles = include_breaches(src, table)
    nobj = 0
    if len(sys.argv) > 2:
        more, nobj = circles(src, sys.argv[2])
        bad += more
    return report(bad, "layers hold: %d files in %d folders; %d files and headers without a circle (includes, "
                       "declarations, calls)" % (nfiles, len(table), nobj))


def report(bad, summary):
    """One FAIL line per breach on stderr, else the summary; the exit code."""
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    if not bad:
        print(summary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
