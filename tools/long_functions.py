#!/usr/bin/env python3
"""Lists Rust functions longer than a limit (default 120 lines), outside inline #[cfg(test)] modules.

Reads every file whole: an inline test module (`#[cfg(test)] mod tests { ... }`) is skipped to
its closing brace and reading goes on after it; a declared one (`#[cfg(test)] mod decode;`)
skips nothing. `--tests` counts the functions inside test modules too.
Usage: tools/long_functions.py [--limit N] [--tests] [dir ...]   (default: src sim/src)"""
import os, re, sys

FN = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"[^"]*"\s+)?fn\s+(\w+)')
CFG_TEST = re.compile(r'\s*#\[cfg\(test\)\]')
MOD = re.compile(r'\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*(\{|;|$)')


def code(line):
    """The line without string and char literals and without its comment, to count braces."""
    s = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    s = re.sub(r"'(\\.|[^'\\])'", "''", s)
    return s.split('//')[0]


def block_end(lines, i):
    """The index of the line closing the item that starts at line i (its braces balanced), or
    None when the item ends with ';' before any '{' (a declaration)."""
    depth, started = 0, False
    for j in range(i, len(lines)):
        s = code(lines[j])
        for ch in s:
            if ch == '{':
                depth += 1
                started = True
            elif ch == '}':
                depth -= 1
        if started and depth <= 0:
            return j
        if not started and s.rstrip().endswith(';'):
            return None
    return len(lines) - 1 if started else None


def long_functions(path, limit, tests):
    lines = open(path, encoding='utf-8').read().split('\n')
    rows, i = [], 0
    while i < len(lines):
        # An inline test module: skip its body (unless asked to count tests), read on after it.
        if not tests and CFG_TEST.match(lines[i]):
            k = i + 1
            while k < len(lines) and re.match(r'\s*(#\[|$)', lines[k]):
                k += 1
            if k < len(lines) and MOD.match(lines[k]):
                end = block_end(lines, k)
                i = (end if end is not None else k) + 1
                continue
        m = FN.match(lines[i])
        if m:
            end = block_end(lines, i)
            if end is not None:
                n = end - i + 1
                if n > limit:
                    rows.append((n, path, i + 1, m.group(7)))
                i = end + 1
                continue
        i += 1
    return rows


def main():
    args = sys.argv[1:]
    limit, tests = 120, False
    while args[:1] in (['--limit'], ['--tests']):
        if args[0] == '--limit':
            limit = int(args[1])
            args = args[2:]
        else:
            tests = True
            args = args[1:]
    rows = []
    for d in args or ['src', 'sim/src']:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith('.rs'):
                    rows += long_functions(os.path.join(root, f), limit, tests)
    for n, p, l, name in sorted(rows, reverse=True):
        print(f'{n:5} {p}:{l} {name}')
    print(f'{len(rows)} function(s) over {limit} lines')


main()
