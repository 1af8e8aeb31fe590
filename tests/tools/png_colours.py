#!/usr/bin/env python3
# png_colours.py - count the pixels of given colours in a PNG (8-bit RGB/RGBA, not
# interlaced: what Chromium's --screenshot writes). Pure Python (zlib), no PIL.
#
#   png_colours.py FILE.png '#9e9e9e' '#1f77b4' ...
#
# Prints one JSON object: {"width": W, "height": H, "counts": {"#9e9e9e": N, ...},
# "non_white": N}. Used by the --html test to see that the figures were painted.
import json
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(f, line, prev, bpp):
    n = len(line)
    if f == 1:
        for x in range(bpp, n):
            line[x] = (line[x] + line[x - bpp]) & 255
    elif f == 2:
        for x in range(n):
            line[x] = (line[x] + prev[x]) & 255
    elif f == 3:
        for x in range(n):
            a = line[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
    elif f == 4:
        for x in range(n):
            a = line[x - bpp] if x >= bpp else 0
            c = prev[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + paeth(a, prev[x], c)) & 255
    elif f != 0:
        raise ValueError("bad PNG filter %d" % f)


def decode(path):
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    p, idat, hdr = 8, [], None
    while p < len(d):
        n, t = struct.unpack(">I4s", d[p:p + 8])
        body = d[p + 8:p + 8 + n]
        p += 12 + n
        if t == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif t == b"IDAT":
            idat.append(body)
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    for y in range(h):
        i = y * (stride + 1)
        line = bytearray(raw[i + 1:i + 1 + stride])
        unfilter(raw[i], line, prev, bpp)
        yield w, h, bpp, line
        prev = line


def main():
    want = {}
    for c in sys.argv[2:]:
        want[bytes.fromhex(c.lstrip("#"))] = c
    counts = {c: 0 for c in want.values()}
    non_white = 0
    w = h = 0
    for w, h, bpp, line in decode(sys.argv[1]):
        for x in range(0, len(line), bpp):
            px = bytes(line[x:x + 3])
            if px != b"\xff\xff\xff":
                non_white += 1
                if px in want:
                    counts[want[px]] += 1
    print(json.dumps({"width": w, "height": h, "counts": counts, "non_white": non_white}))


if __name__ == "__main__":
    main()
