#!/usr/bin/env python3
"""Lists the import circles of a Rust crate's src/, between files and between folders.

A file imports another when a `use` path (crate::, super::, self::) or a qualified path in code
resolves to the other's module, or to an item inside it. Test modules do not count.

- Files: circles are strongly connected components of two or more files.
- Folders: at every folder, its direct children (each file, and each subfolder with everything
  in it) form a graph: a child imports another when any file in it imports a module in the
  other. The folder's own mod.rs is the container, not a child. A circle there means parts of
  one level lean on each other. The imports against the layering are the fewest (by import
  lines) whose removal leaves the level without a circle: the folders that import a folder
  above them (`profile -> play` in one line, where play imports profile in four files). Each
  is listed with file:line.
Files declared as test modules (`#[cfg(test)] mod tests;`) do not count.
Usage: tools/import_circles.py [src-dir ...]   (default: src)
Exit status 1 when any circle is found.
"""
import os, re, sys


def module_files(src):
    mods = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            p = os.path.join(root, f)
            rel = os.path.relpath(p, src)[:-3].split(os.sep)
            if rel[-1] in ('mod',):
                rel = rel[:-1]
            if rel in (['lib'], ['main']):
                rel = []
                if f == 'main.rs' and os.path.exists(os.path.join(src, 'lib.rs')):
                    continue  # the binary is its own crate over the library
            mods[tuple(rel)] = p
    # Files that are test modules of their parent (`#[cfg(test)] mod tests;`).
    for m, p in list(mods.items()):
        text = open(p, encoding='utf-8').read()
        for t in re.finditer(r'#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;', text):
            mods.pop(m + (t.group(3),), None)
    return mods


def strip_tests(text):
    # Blank out `#[cfg(test)] mod tests { ... }` blocks (test imports are not the module's own),
    # keeping their newlines so that line numbers stay true.
    out, i = [], 0
    for m in re.finditer(r'#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{', text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        out.append('\n' * text.count('\n', m.start(), j))
        i = j
    out.append(text[i:])
    return ''.join(out)


def use_paths(text):
    """(path, line) for every `use` path and every qualified crate::/super:: path in code."""
    text = re.sub(r'//[^\n]*', '', text)
    line = lambda pos: text.count('\n', 0, pos) + 1
    for m in re.finditer(r'\buse\s+([^;]+);', text):
        for p in expand(m.group(1).replace('\n', ' ').replace(' ', '')):
            yield p, line(m.start())
    for m in re.finditer(r'\b((?:crate|super)(?:::\w+)+)', text):
        yield m.group(1), line(m.start())


def expand(tree):
    # expand a::{b, c::{d, e}} into a::b, a::c::d, a::c::e
    if '{' not in tree:
        return [tree.split(' as ')[0]]
    i = tree.index('{')
    prefix, inner = tree[:i], tree[i + 1:-1]
    parts, depth, cur = [], 0, ''
    for ch in inner:
        if ch == ',' and depth == 0:
            parts.append(cur); cur = ''
            continue
        depth += {'{': 1, '}': -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    res = []
    for p in parts:
        if p:
            res += expand(prefix + p) if p != 'self' else [prefix.rstrip(':')]
    return res


def resolve(path, here, mods):
    segs = path.split('::')
    if segs[0] == 'crate':
        base = []
        segs = segs[1:]
    elif segs[0] in ('super', 'self'):
        base = list(here)
        while segs and segs[0] in ('super', 'self'):
            if segs[0] == 'super':
                base = base[:-1]
            segs = segs[1:]
    else:
        return None
    best = None
    cur = list(base)
    if tuple(cur) in mods:
        best = tuple(cur)
    for s in segs:
        cur.append(s)
        if tuple(cur) in mods:
            best = tuple(cur)
        else:
            break
    return best


def imports(src, mods):
    """{(from module, to module): [line, ...]} over the crate."""
    edges = {}
    for m, p in mods.items():
        text = strip_tests(open(p, encoding='utf-8').read())
        # super:: in foo/mod.rs (and lib.rs) is relative to foo itself
        here = m + ('_',) if p.endswith(('mod.rs', 'lib.rs')) else m
        for u, line in use_paths(text):
            t = resolve(u, here if u.startswith(('super', 'self')) else m, mods)
            if t is not None and t != m and t != ():
                edges.setdefault((m, t), []).append(line)
    return edges


def circles(nodes, edges):
    """The strongly connected components of two or more nodes (Tarjan)."""
    succ = {v: set() for v in nodes}
    for a, b in edges:
        succ[a].add(b)
    idx, low, on, st, out, n = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(10000)

    def sc(v):
        idx[v] = low[v] = n[0]; n[0] += 1; st.append(v); on.add(v)
        for w in succ[v]:
            if w not in idx:
                sc(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in idx:
            sc(v)
    return sorted(out)


def against_layering(comp, pair):
    """The cheapest set of child-to-child imports (by distinct import lines) whose removal leaves
    `comp` without a circle: an exhaustive search over the circle's imports, small as they are."""
    inside = sorted((a, b) for (a, b) in pair if a in comp and b in comp)
    weight = {e: len(set(pair[e])) for e in inside}
    if len(inside) > 20:
        return []  # too many to search: the circle itself is listed
    best = None
    for mask in range(1 << len(inside)):
        cut = [e for i, e in enumerate(inside) if mask >> i & 1]
        w = sum(weight[e] for e in cut)
        if best is not None and w >= best[0]:
            continue
        kept = {e: pair[e] for e in inside if e not in cut}
        if not circles(set(comp), kept):
            best = (w, cut)
    return best[1] if best else []


def name(m):
    return '::'.join(m) or 'lib'


def folder_levels(src, mods, file_edges):
    """Per folder (as a module path): its children's circles, each child pair's imports."""
    found = []
    folders = {m[:i] for m in mods for i in range(len(m))}
    for folder in sorted(folders):
        d = len(folder)
        # The child of `folder` that module m sits in (None: outside it, or its own mod.rs).
        child = lambda m: m[:d + 1] if len(m) > d and m[:d] == folder else None
        pair = {}
        for (a, b), lines in file_edges.items():
            ca, cb = child(a), child(b)
            if ca is not None and cb is not None and ca != cb:
                pair.setdefault((ca, cb), []).extend((mods[a], l) for l in lines)
        nodes = {child(m) for m in mods if child(m) is not None}
        for comp in circles(nodes, pair):
            found.append((folder, comp, pair))
    return found


def is_folder(src, m):
    return os.path.isdir(os.path.join(src, *m))


def main():
    srcs = sys.argv[1:] or ['src']
    total = 0
    for src in srcs:
        mods = module_files(src)
        file_edges = imports(src, mods)
        files = circles(set(mods), file_edges)
        print(f'{src}: {len(files)} import circle(s) between files')
        for c in files:
            print('  ' + ' <-> '.join(name(m) for m in c))
        levels = folder_levels(src, mods, file_edges)
        print(f'{src}: {len(levels)} import circle(s) between folders (and the files beside them)')
        upward = []
        for folder, comp, pair in levels:
            shown = [name(m) + ('/' if is_folder(src, m) else '') for m in comp]
            print(f'  in {name(folder) if folder else src}: ' + ' <-> '.join(shown))
            upward += [(a, b, pair) for a, b in against_layering(comp, pair)]
        print(f'{src}: {len(upward)} import(s) of a folder above it')
        for a, b, pair in upward:
            there = sorted(set(pair[(a, b)]))
            back = {p for p, _ in pair.get((b, a), [])}
            at = ', '.join(f'{os.path.relpath(p, src)}:{l}' for p, l in there)
            print(f'  {name(a)} -> {name(b)}: {at} (the other way: {len(back)} file(s))')
        total += len(files) + len(levels)
    sys.exit(1 if total else 0)


main()
