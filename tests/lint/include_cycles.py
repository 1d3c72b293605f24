#!/usr/bin/env python3
"""No header loops: fails, naming the loop, when a header in the given folders reaches itself
through its #include "..." lines (each name resolved beside the including file, then from the
tree's root, as the build's include paths do)."""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
folders = sys.argv[2:]
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

graph = {}
for folder in folders:
    for dirpath, _, files in os.walk(os.path.join(root, folder)):
        for f in files:
            if not f.endswith(('.hpp', '.h')):
                continue
            path = os.path.join(dirpath, f)
            deps = []
            with open(path, encoding='utf-8', errors='replace') as text:
                for name in include.findall(text.read()):
                    for base in (dirpath, root):
                        candidate = os.path.normpath(os.path.join(base, name))
                        if os.path.isfile(candidate):
                            deps.append(candidate)
                            break
            graph[path] = deps

loops = []
state = {}  # path -> 1 on the current path, 2 done


def visit(node, trail):
    state[node] = 1
    for dep in graph.get(node, []):
        if state.get(dep) == 1:
            loops.append(trail[trail.index(dep):] + [dep])
        elif dep not in state:
            visit(dep, trail + [dep])
    state[node] = 2


sys.setrecursionlimit(10000)
for node in sorted(graph):
    if node not in state:
        visit(node, [node])
for loop in loops:
    print('header loop: ' + ' -> '.join(os.path.relpath(p, root) for p in loop))
if loops:
    sys.exit(1)
print(f'no header loop among {len(graph)} headers')
