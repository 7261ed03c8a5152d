#!/usr/bin/env python3
"""include_cycles.py SRC_DIR: prints every include cycle among the modules of SRC_DIR and
exits 1 if there is one. A module is a file pair X.c + X.h; module X depends on module Y when
X.c or X.h includes "Y.h" (quoted includes, resolved against the including file's directory,
then SRC_DIR, as the build's -I flags do). A module including its own header is no cycle."""
import os
import re
import sys

src = os.path.abspath(sys.argv[1])
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of(path):
    return os.path.splitext(os.path.relpath(path, src))[0]


edges = {}
for root, _, files in os.walk(src):
    for name in files:
        if not name.endswith((".c", ".h")) or name == "embedded_lua.c":
            continue
        path = os.path.join(root, name)
        me = module_of(path)
        deps = edges.setdefault(me, set())
        with open(path, encoding="utf-8", errors="replace") as f:
            for target in include.findall(f.read()):
                for base in (root, src):
                    candidate = os.path.normpath(os.path.join(base, target))
                    if os.path.exists(candidate):
                        dep = module_of(candidate)
                        if dep != me:
                            deps.add(dep)
                        break

# Tarjan's strongly connected components: a component of more than one module is a cycle.
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
for c in cycles:
    print("include cycle: " + " <-> ".join(c))
print("%d modules, %d dependencies, %d cycles" %
      (len(edges), sum(len(d) for d in edges.values()), len(cycles)))
sys.exit(1 if cycles else 0)
