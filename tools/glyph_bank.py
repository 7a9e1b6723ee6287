#!/usr/bin/env python3
"""Generates assets/glyph-bank.png and assets/glyph-bank.tsv: the digits 1-9 of many free
typefaces, each normalised the way src/vision/cells.rs `normalise` does (tight ink box, aspect
kept, centred in a 24x32 patch, 4x4 point samples averaged per pixel), one row of nine patches per
typeface, ink white on black. The reader embeds the PNG and knows digit shapes from it without any
app's templates.

Run on Debian with the font packages listed in tools/glyph_bank_fonts.txt installed
(`apt-get install $(cat tools/glyph_bank_fonts.txt)`) and `pip install pillow fonttools numpy`:

    python3 tools/glyph_bank.py            # writes assets/glyph-bank.png and .tsv

Near-duplicate typefaces (all nine digits alike) are kept once, so the bank stays small.
"""
import os
import subprocess
import sys

import numpy as np
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

PATCH_W, PATCH_H = 24, 32
RENDER = 96  # pixel size the digits are drawn at before normalising
DUP_NCC = 0.90  # a typeface whose digits match a kept one this well on average is a duplicate
# Script-specific or symbol faces whose Latin digits are borrowed or absent, by family word.
SKIP_WORDS = ("Symbol", "Dingbat", "Math", "Icons", "Emoji", "OCR", "Music", "Braille")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def normalise(strength, w, h):
    """Port of cells.rs `normalise` over the whole (tight) box; `strength` is h x w in 0..1."""
    bw, bh = float(w), float(h)
    scale = min(PATCH_H / bh, PATCH_W / bw)
    ox = (PATCH_W - bw * scale) / 2.0
    oy = (PATCH_H - bh * scale) / 2.0

    def src(n, o, span):
        v = ((np.arange(n) + 0.5) / 4.0 - o) / scale
        ok = (v >= 0.0) & (v < span)
        return np.where(ok, v.astype(np.int64), 0), ok

    xs, xok = src(PATCH_W * 4, ox, bw)
    ys, yok = src(PATCH_H * 4, oy, bh)
    samples = strength[ys][:, xs] * yok[:, None] * xok[None, :]
    sums = samples.reshape(PATCH_H, 4, PATCH_W, 4).sum(axis=(1, 3))
    v = np.clip(sums / 16.0, 0.0, 1.0)
    # 16 levels: the matcher cannot tell finer steps apart and the PNG stays small.
    return (np.round(v * 15) * 17).astype(np.uint8).tobytes()


def render_digit(font, ch):
    img = Image.new("L", (RENDER * 3, RENDER * 3), 0)
    ImageDraw.Draw(img).text((RENDER // 2, RENDER // 2), ch, fill=255, font=font)
    box = img.getbbox()
    if box is None:
        return None
    crop = img.crop(box)
    w, h = crop.size
    if h < RENDER * 0.3:
        return None
    data = np.asarray(crop, dtype=np.float64) / 255.0
    return normalise(data, w, h)


def unit(p):
    v = np.frombuffer(p, dtype=np.uint8).astype(np.float64)
    v -= v.mean()
    n = np.linalg.norm(v)
    return v / n if n > 0 else v


def ncc(a, b):
    return float(unit(a) @ unit(b))


def font_files():
    out = subprocess.run(
        ["fc-list", "--format", "%{file}|%{index}|%{family[0]}|%{style[0]}\n"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = set()
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) != 4:
            continue
        path, index, family, style = parts
        if not path.lower().endswith((".ttf", ".otf", ".ttc")):
            continue
        if any(w.lower() in family.lower() for w in SKIP_WORDS):
            continue
        rows.add((path, int(index or 0), family, style))
    return sorted(rows, key=lambda r: (r[2], r[3], r[0]))


def has_digits(path, index):
    try:
        cmap = TTFont(path, fontNumber=index, lazy=True).getBestCmap() or {}
    except Exception:
        return False
    return all(ord(str(d)) in cmap for d in range(1, 10))


def package_of(paths):
    out = subprocess.run(["dpkg", "-S", *paths], capture_output=True, text=True).stdout
    pkg = {}
    for line in out.splitlines():
        name, _, path = line.partition(": ")
        pkg[path.strip()] = name.split(":")[0]
    return pkg


def licence_of(package):
    path = f"/usr/share/doc/{package}/copyright"
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return "see package copyright"
    names = []
    for line in text.splitlines():
        if line.startswith("License:"):
            name = line.split(":", 1)[1].strip()
            if name and name not in names:
                names.append(name)
    return ", ".join(names) or "see package copyright"


def main():
    kept = []  # (family, style, path, patches)
    for path, index, family, style in font_files():
        if not has_digits(path, index):
            continue
        try:
            font = ImageFont.truetype(path, RENDER, index=index)
        except Exception:
            continue
        patches = [render_digit(font, str(d)) for d in range(1, 10)]
        if any(p is None for p in patches):
            continue
        # Two digits drawn alike means the face has no real digits (boxes or one fallback).
        if any(ncc(patches[i], patches[j]) > 0.98 for i in range(9) for j in range(i + 1, 9)):
            continue
        units = np.stack([unit(p) for p in patches])
        dup = any(
            float(np.mean(np.sum(units * k[4], axis=1))) > DUP_NCC for k in kept
        )
        if dup:
            continue
        kept.append((family, style, path, patches, units))
        print(f"{len(kept):4} {family} / {style}", file=sys.stderr)
    atlas = Image.new("L", (PATCH_W * 9, PATCH_H * len(kept)), 0)
    for row, (_, _, _, patches, _) in enumerate(kept):
        for d, p in enumerate(patches):
            tile = Image.frombytes("L", (PATCH_W, PATCH_H), p)
            atlas.paste(tile, (d * PATCH_W, row * PATCH_H))
    assets = os.path.join(ROOT, "assets")
    os.makedirs(assets, exist_ok=True)
    atlas.save(os.path.join(assets, "glyph-bank.png"), optimize=True)
    pkg = package_of(sorted({k[2] for k in kept}))
    with open(os.path.join(assets, "glyph-bank.tsv"), "w", encoding="utf-8") as f:
        f.write("row\tfamily\tstyle\tdebian_package\tlicence\n")
        for row, (family, style, path, _, _) in enumerate(kept):
            p = pkg.get(path, "?")
            f.write(f"{row}\t{family}\t{style}\t{p}\t{licence_of(p)}\n")
    print(f"{len(kept)} typefaces", file=sys.stderr)


if __name__ == "__main__":
    main()
