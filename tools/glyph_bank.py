#!/usr/bin/env python3
"""Generates reader/assets/glyph-bank.png and reader/assets/glyph-bank.tsv: the digits 1-9 of many free
typefaces, each normalised the way reader/src/patch.rs `normalise` does (tight ink box, aspect
kept, centred in a 24x32 patch, 4x4 point samples averaged per pixel), one row of nine patches per
typeface, ink white on black. The reader embeds the PNG and knows digit shapes from it without any
app's templates.

Run on Debian with the font packages listed in tools/glyph_bank_fonts.txt installed
(`apt-get install $(cat tools/glyph_bank_fonts.txt)`) and `pip install pillow fonttools numpy`:

    python3 tools/glyph_bank.py            # writes reader/assets/glyph-bank.png and .tsv

Near-duplicate typefaces (all nine digits alike) are kept once, so the bank stays small.
Only typefaces whose font files carry a permissive licence (ALLOWED_LICENCES, read from the
package's machine-readable copyright file, not its debian/ packaging) enter the bank, since the
crate is MIT; the rest are listed on stderr as dropped.
"""
import fnmatch
import os
import re
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
    # dpkg -S reads [ ] * ? as a pattern; escape them so "Karla[wght].ttf" is found literally.
    quoted = [re.sub(r"([][*?])", r"\\\1", p) for p in paths]
    out = subprocess.run(["dpkg", "-S", *quoted], capture_output=True, text=True).stdout
    pkg = {}
    for line in out.splitlines():
        name, _, path = line.partition(": ")
        pkg[path.strip()] = name.split(":")[0]
    return pkg


# Licences under which a typeface's digit shapes may ship inside this MIT crate: permissive font
# licences only. GPL/AGPL fonts (even "with font exception": the exception covers documents, not
# a program embedding derived glyphs), share-alike (CC-BY-SA) and weak copyleft (EPL) are left
# out, as is any typeface whose font licence could not be read.
ALLOWED_LICENCES = {
    "ofl-1.0", "ofl-1.1", "sil-ofl-1.1", "sil open font license", "sil_open_font_license_1.1",
    "apache-2", "apache-2.0",
    "bitstream-vera", "bitstreamvera", "dejavu-license", "gust-font-license",
    "expat", "mit", "bsd-3-clause", "0bsd", "edl-1.0",
    "public-domain", "cc0-1.0",
    "ubuntu-font-licence-1.0", "ufl-1.0",
    "paratype-free-font-license",
}

# Packages whose copyright file is free-form (not machine-readable DEP-5), read by hand:
# the licence of the font files themselves.
FREE_FORM_LICENCES = {
    "fonts-ecolier-court": "OFL-1.1",
    "fonts-gfs-neohellenic": "OFL-1.1",
    "fonts-jura": "OFL-1.1",  # Latin glyphs; only the Kayah Li range is also GPL-3
    "fonts-sjfonts": "GPL-2 with font exception",
    "fonts-tomsontalks": "OFL-1.1",
}


def allowed(expr):
    """A DEP-5 licence expression: "a or b" needs one allowed side, "a and b" needs all."""
    return any(
        all(part.strip().lower() in ALLOWED_LICENCES for part in alt.split(" and "))
        for alt in expr.split(" or ")
    )


def licence_of(package, path):
    """The licence of the font file `path` itself (not of debian/ packaging), from the DEP-5
    stanza whose Files: pattern matches it last, or None when it cannot be read."""
    if package in FREE_FORM_LICENCES:
        return FREE_FORM_LICENCES[package]
    try:
        text = open(f"/usr/share/doc/{package}/copyright", encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    found = None
    for stanza in re.split(r"\n\s*\n", text):
        files = re.search(r"^Files:(.*(?:\n[ \t].*)*)", stanza, re.M)
        lic = re.search(r"^License:[ \t]*(.*)", stanza, re.M)
        if not files or not lic or not lic.group(1).strip():
            continue
        for pat in files.group(1).split():
            if pat.startswith("debian/"):
                continue
            if fnmatch.fnmatchcase(os.path.basename(path), pat) or fnmatch.fnmatchcase(path, "*/" + pat):
                found = lic.group(1).strip()  # DEP-5: the last matching stanza wins
    return found


def main():
    files = font_files()
    pkg = package_of(sorted({f[0] for f in files}))
    kept = []  # (family, style, path, patches, units)
    dropped = set()
    for path, index, family, style in files:
        if not has_digits(path, index):
            continue
        # Licence first, so a permissive face is never deduplicated against a dropped one.
        licence = licence_of(pkg.get(path, "?"), path)
        if licence is None or not allowed(licence):
            dropped.add((family, pkg.get(path, "?"), licence))
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
    assets = os.path.join(ROOT, "reader", "assets")
    os.makedirs(assets, exist_ok=True)
    atlas.save(os.path.join(assets, "glyph-bank.png"), optimize=True)
    with open(os.path.join(assets, "glyph-bank.tsv"), "w", encoding="utf-8") as f:
        f.write("row\tfamily\tstyle\tdebian_package\tlicence\n")
        for row, (family, style, path, _, _) in enumerate(kept):
            p = pkg.get(path, "?")
            f.write(f"{row}\t{family}\t{style}\t{p}\t{licence_of(p, path)}\n")
    for family, package, licence in sorted(dropped, key=str):
        print(f"dropped {family} ({package}): {licence or 'licence unreadable'}", file=sys.stderr)
    print(f"{len(kept)} typefaces", file=sys.stderr)


if __name__ == "__main__":
    main()
