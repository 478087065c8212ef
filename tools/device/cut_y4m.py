#!/usr/bin/env python3
"""Copies the first N frames of a y4m file (header kept byte for byte): small fixtures for the device."""
import sys


def main():
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(src, 'rb') as f:
        header = f.readline()
        tags = {t[:1]: t[1:] for t in header.split()[1:]}
        w, h = int(tags[b'W']), int(tags[b'H'])
        c = tags.get(b'C', b'420jpeg').decode()
        depth = 8
        for bits in ('p16', 'p12', 'p10'):
            if bits in c:
                depth = int(bits[1:])
        cw, ch = ((w + 1) // 2, (h + 1) // 2) if c.startswith('420') else \
                 ((w + 1) // 2, h) if c.startswith('422') else (w, h) if c.startswith('444') else (0, 0)
        frame = (w * h + 2 * cw * ch) * (2 if depth > 8 else 1)
        with open(dst, 'wb') as out:
            out.write(header)
            for _ in range(n):
                line = f.readline()
                if not line.startswith(b'FRAME'):
                    break
                out.write(line)
                out.write(f.read(frame))


main()
