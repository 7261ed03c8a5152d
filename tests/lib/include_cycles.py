#!/usr/bin/env python3
"""include_cycles.py [--folders] SRC_DIR: prints every include cycle among the modules of
SRC_DIR and exits 1 if there is one. A module is a file pair X.c + X.h; module X depends on
module Y when X.c or X.h includes "Y.h" (quoted includes, resolved against the including file's
directory, then SRC_DIR, as the build's -I flags do). A module including its own header is no
cycle.

With --folders the same for the folders of SRC_DIR (SRC_DIR itself and each directory below
it): folder A depends on folder B when a file in A includes a header in B. Each folder cycle
is followed by the includes that make it, one line per pair of folders."""
import os
import re
import sys

args = sys.argv[1:]
by_folder = args[:1] == ["--folders"]
if by_folder:
    args = args[1:]
if len(args) != 1:
    sys.exit("usage: include_cycles.py [--folders] SRC_DIR")
src = os.path.abspath(args[0])
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
top = os.path.basename(src)


def node_of(path):
    """The module (X for X.c/X.h) or, with --folders, the folder ("src", "src/results")."""
    if by_folder:
        rel = os.path.relpath(os.path.dirname(path), src)
        return top if rel == "." else top + "/" + rel
    return os.path.splitext(os.path.relpath(path, src))[0]


edges = {}  # node -> the nodes it depends on
includes = {}  # (node, node) -> ["file -> header", ...]
for root, _, files in os.walk(src):
    for name in sorted(files):
        if not name.endswith((".c", ".h")) or name == "embedded_lua.c":
            continue
        path = os.path.join(root, name)
        me = node_of(path)
        deps = edges.setdefault(me, set())
        with open(path, encoding="utf-8", errors="replace") as f:
            for target in include.findall(f.read()):
                for base in (root, src):
                    candidate = os.path.normpath(os.path.join(base, target))
                    if os.path.exists(candidate):
                        dep = node_of(candidate)
                        if dep != me:
                            deps.add(dep)
                            includes.setdefault((me, dep), []).append(
                                "%s -> %s" % (os.path.relpath(path, src),
                                              os.path.relpath(candidate, src)))
                        break

# Tarjan's strongly connected components: a component of more than one node is a cycle.
index, low, stack, on_stack, cycles, counter = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on_stack.add(v)
    for w in sorted(edges.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        visit(v)
kind = "folder" if by_folder else "include"
for c in cycles:
    print("%s cycle: %s" % (kind, " <-> ".join(c)))
    if by_folder:
        # what to cut: every include from one folder of the cycle into another
        for a in c:
            for b in c:
                if (a, b) in includes:
                    made = includes[(a, b)]
                    print("  %s -> %s (%d): %s" % (a, b, len(made), ", ".join(made)))
print("%d %s, %d dependencies, %d cycles" %
      (len(edges), "folders" if by_folder else "modules",
       sum(len(d) for d in edges.values()), len(cycles)))
sys.exit(1 if cycles else 0)
