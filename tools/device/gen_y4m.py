#!/usr/bin/env python3
"""Writes an 8-bit 4:2:0 y4m clip of synthetic content (python3 + numpy only: the device machine has
no ffmpeg). DISTINCT frames are made (a moving pattern with texture) and the clip loops over them;
--dist adds fixed noise, so a reference and a distorted clip of the same size differ a little.
  gen_y4m.py OUT|- WIDTH HEIGHT FRAMES [--distinct N] [--dist]
OUT may be a FIFO: frames are written as they are read (a clip of any length, no disk)."""
import argparse
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("frames", type=int)
    ap.add_argument("--distinct", type=int, default=16)
    ap.add_argument("--dist", action="store_true")
    a = ap.parse_args()
    out, w, h, frames, distinct, dist = a.out, a.width, a.height, a.frames, a.distinct, a.dist
    rng = np.random.default_rng(7)
    noise_y = rng.integers(-6, 7, size=(h, w), dtype=np.int16)
    cw, ch = (w + 1) // 2, (h + 1) // 2
    noise_c = rng.integers(-3, 4, size=(ch, cw), dtype=np.int16)
    yy, xx = np.mgrid[0:h, 0:w]
    cy, cx = np.mgrid[0:ch, 0:cw]
    texture = rng.integers(0, 24, size=(h, w), dtype=np.int16)
    blobs = []
    for i in range(distinct):
        y = (40 + ((xx * 3 + yy * 2 + i * 7) % 170) + texture).astype(np.int16)
        u = (64 + ((cx + cy * 3 + i * 5) % 128)).astype(np.int16)
        v = (96 + ((cx * 2 + i * 3) % 96)).astype(np.int16)
        if dist:
            y, u, v = y + noise_y, u + noise_c, v - noise_c
        planes = [np.clip(p, 0, 255).astype(np.uint8) for p in (y, u, v)]
        blobs.append(b"FRAME\n" + b"".join(p.tobytes() for p in planes))
    f = sys.stdout.buffer if out == "-" else open(out, "wb")
    try:
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h))
        for i in range(frames):
            f.write(blobs[i % distinct])
        f.flush()
    except BrokenPipeError:  # the reader stopped (an interrupted or failed run): not an error here
        pass


if __name__ == "__main__":
    main()
