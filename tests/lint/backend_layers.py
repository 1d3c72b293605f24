#!/usr/bin/env python3
"""The backends are siblings: fails, naming each include, when a file in sim/ includes one in
runtime/ or a file in runtime/ includes one in sim/. What needs both lives above them (twin/),
what both need below them (run/, models/, traces/). Each #include is resolved beside the
including file, then from the tree's root, as the build's include paths do; a name that
resolves to nothing counts by its first folder."""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
include = re.compile(r'^\s*#\s*include\s+["<]([^">]+)[">]', re.M)
others = {'sim': 'runtime', 'runtime': 'sim'}


def folder_of(path):
    rel = os.path.relpath(path, root)
    return rel.split(os.sep)[0] if not rel.startswith('..') else None


found = []
for side, other in others.items():
    for dirpath, _, files in os.walk(os.path.join(root, side)):
        for f in sorted(files):
            path = os.path.join(dirpath, f)
            with open(path, encoding='utf-8', errors='replace') as text:
                names = include.findall(text.read())
            for name in names:
                targets = [os.path.normpath(os.path.join(base, name)) for base in (dirpath, root)]
                hit = next((t for t in targets if os.path.isfile(t)), None)
                reaches = folder_of(hit) if hit else name.split('/')[0]
                if reaches == other:
                    found.append(f'{os.path.relpath(path, root)} includes {name}')

for line in found:
    print(f'layers: {line} ({line.split("/")[0]}/ and its sibling backend never include each other)')
if found:
    sys.exit(1)
print('layers: sim/ and runtime/ include nothing of each other')
