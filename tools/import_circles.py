#!/usr/bin/env python3
"""Lists the import circles between the files of a Rust crate's src/ (file-level graph).

A file imports another when a `use` path (crate::, super::, self::) resolves to the other's
module, or to an item inside it. Circles are strongly connected components of two or more files.
Usage: tools/import_circles.py [src-dir ...]   (default: src)
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
            mods[tuple(rel)] = p
    return mods

def strip_tests(text):
    # drop `#[cfg(test)] mod tests { ... }` blocks: test imports are not the module's own
    out, i = [], 0
    for m in re.finditer(r'#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{', text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return ''.join(out)

def use_paths(text):
    text = re.sub(r'//[^\n]*', '', text)
    for m in re.finditer(r'\buse\s+([^;]+);', text):
        yield from expand(m.group(1).replace('\n', ' ').replace(' ', ''))
    # fully qualified paths in code: crate::a::b::c
    for m in re.finditer(r'\b((?:crate|super)(?:::\w+)+)', text):
        yield m.group(1)

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

def main():
    srcs = sys.argv[1:] or ['src']
    for src in srcs:
        mods = module_files(src)
        edges = {m: set() for m in mods}
        for m, p in mods.items():
            # a file's own module path: for foo/mod.rs and foo.rs the same
            text = strip_tests(open(p).read())
            for u in use_paths(text):
                t = resolve(u, m if not p.endswith(('mod.rs', 'lib.rs')) else m + ('_',), mods) if u.startswith(('super', 'self')) else resolve(u, m, mods)
                if t is not None and t != m and t != ():
                    # importing a parent module only for a re-export is still an edge
                    edges[m].add(t)
        # Tarjan
        idx, low, on, st, out, n = {}, {}, set(), [], [], [0]
        sys.setrecursionlimit(10000)
        def sc(v):
            idx[v] = low[v] = n[0]; n[0] += 1; st.append(v); on.add(v)
            for w in edges[v]:
                if w not in idx:
                    sc(w); low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], idx[w])
            if low[v] == idx[v]:
                comp = []
                while True:
                    w = st.pop(); on.discard(w); comp.append(w)
                    if w == v: break
                if len(comp) > 1:
                    out.append(sorted(comp))
        for v in edges:
            if v not in idx:
                sc(v)
        name = lambda m: '::'.join(m) or 'lib'
        print(f'{src}: {len(out)} import circle(s)')
        for c in sorted(out):
            print('  ' + ' <-> '.join(name(m) for m in c))

main()
