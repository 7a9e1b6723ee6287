#!/usr/bin/env python3
"""Lists Rust functions longer than a limit (default 120 lines), outside #[cfg(test)] modules.
Usage: tools/long_functions.py [--limit N] [dir ...]   (default: src sim/src)"""
import os, re, sys
args = sys.argv[1:]
limit = 120
if args[:1] == ['--limit']:
    limit = int(args[1]); args = args[2:]
dirs = args or ['src', 'sim/src']
fn_re = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)')
rows = []
for d in dirs:
    for root, _, files in os.walk(d):
        for f in files:
            if not f.endswith('.rs'):
                continue
            p = os.path.join(root, f)
            lines = open(p).read().split('\n')
            test_from = next((i for i, l in enumerate(lines) if re.match(r'\s*#\[cfg\(test\)\]', l) and i + 1 < len(lines) and re.match(r'\s*mod\s', lines[i + 1])), len(lines))
            i = 0
            while i < test_from:
                m = fn_re.match(lines[i])
                if m:
                    depth, started, j = 0, False, i
                    while j < len(lines):
                        s = re.sub(r'"(\\.|[^"\\])*"', '""', lines[j])
                        s = re.sub(r"'(\\.|[^'\\])'", "''", s)
                        s = s.split('//')[0]
                        for ch in s:
                            if ch == '{': depth += 1; started = True
                            elif ch == '}': depth -= 1
                        if started and depth == 0: break
                        if not started and s.rstrip().endswith(';'): break
                        j += 1
                    n = j - i + 1
                    if started and n > limit:
                        rows.append((n, p, i + 1, m.group(6)))
                    i = j + 1 if started else i + 1
                    continue
                i += 1
for n, p, l, name in sorted(rows, reverse=True):
    print(f'{n:5} {p}:{l} {name}')
print(f'{len(rows)} function(s) over {limit} lines')
