#!/usr/bin/env python3
"""Render an SVG in a real browser and check the picture is not blank.

  tools/render_check.py SVG [--png OUT.png] [--min-fraction 0.02]

Runs headless Chromium (Debian's `chromium` package: tools/deps.sh browser)
to take a screenshot of the SVG at its own size, decodes the PNG (zlib,
standard library only) and counts the pixels that differ from the
background by being coloured (not white, grey or black: the lanes, the
axis and the text are grey or black, the task bars are not). Passes if at
least --min-fraction of the pixels are. Without Chromium it says SKIP and why: it never passes silently.
Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser():
    return next((path for path in map(shutil.which, BROWSERS) if path), None)


def svg_size(path):
    """(width, height) from the root element's attributes."""
    with open(path, errors="replace") as f:
        head = f.read(2000)
    w, h = re.search(r'<svg[^>]*\bwidth="(\d+)', head), re.search(r'<svg[^>]*\bheight="(\d+)', head)
    return (int(w.group(1)) if w else 1024, int(h.group(1)) if h else 768)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode_png(data):
    """(width, height, [rows of bytes]) of an 8-bit RGB or RGBA PNG, not interlaced."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = header
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):              # undo the row's filter
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            pred = (0, left, up, (left + up) // 2, paeth(left, up, corner))[kind]
            line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, [[row[x:x + 3] for x in range(0, stride, bpp)] for row in rows]


def colour_fraction(pixels):
    """The share of pixels with some colour in them (channels 40 or more apart)."""
    total = sum(len(row) for row in pixels)
    coloured = sum(max(p) - min(p) >= 40 for row in pixels for p in row)
    return coloured / total if total else 0


def render_and_check(svg, png, min_fraction=0.02):
    """(verdict, why): PASS, FAIL or SKIP."""
    browser = find_browser()
    if not browser:
        return "SKIP", "no Chromium installed (tools/deps.sh browser installs it)"
    width, height = svg_size(svg)
    with tempfile.TemporaryDirectory() as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--screenshot={os.path.abspath(png)}",
               f"--window-size={width},{height}", "file://" + os.path.abspath(svg)]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        except subprocess.TimeoutExpired:
            return "FAIL", f"{os.path.basename(browser)} did not finish in 180 s"
    if run.returncode or not os.path.exists(png):
        return "FAIL", f"{os.path.basename(browser)} exited {run.returncode}: {run.stderr.strip()[-300:]}"
    try:
        with open(png, "rb") as f:
            w, h, pixels = decode_png(f.read())
    except (OSError, ValueError, zlib.error) as e:
        return "FAIL", f"{png}: {e}"
    share = colour_fraction(pixels)
    verdict = "PASS" if share >= min_fraction else "FAIL"
    return verdict, f"{png}: {w}x{h}, {share:.1%} of the pixels coloured (at least {min_fraction:.0%} wanted)"


def main(argv=None):
    ap = argparse.ArgumentParser(description="Render an SVG in headless Chromium; fail if the picture is blank.")
    ap.add_argument("svg")
    ap.add_argument("--png", help="screenshot file (default: SVG with .png)")
    ap.add_argument("--min-fraction", type=float, default=0.02, help="share of coloured pixels wanted (default 0.02)")
    a = ap.parse_args(argv)
    verdict, why = render_and_check(a.svg, a.png or os.path.splitext(a.svg)[0] + ".png", a.min_fraction)
    print(f"{verdict}: {why}")
    return {"PASS": 0, "FAIL": 1, "SKIP": 77}[verdict]


if __name__ == "__main__":
    sys.exit(main())
