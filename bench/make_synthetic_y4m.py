#!/usr/bin/env python3
"""Writes a synthetic 8-bit 4:2:0 y4m pair for the speed comparisons (bench/compare_with_libvmaf.sh).

The reference is textured and moving (a fixed multi-scale noise texture panned by a few pixels a frame,
a gradient, a moving wave); the distorted copy is blurred, quantised and noisy, so that every feature
does its usual work (nothing flat, nothing identical). Deterministic (fixed seeds). Needs numpy; on a
machine without ffmpeg this is how the inputs are made (the device host).

    make_synthetic_y4m.py WIDTH HEIGHT FRAMES REF.y4m DIST.y4m
"""
import sys

import numpy as np


def smooth_noise(rng, h, w, cell):
    """Noise of about `cell` pixels' grain: coarse random values, upsampled by repetition and box-blurred."""
    ch, cw = h // cell + 2, w // cell + 2
    coarse = rng.standard_normal((ch, cw)).astype(np.float32)
    up = np.repeat(np.repeat(coarse, cell, axis=0), cell, axis=1)[:h, :w]
    k = max(1, cell // 2)
    c = np.cumsum(np.cumsum(np.pad(up, ((k, k), (k, k)), mode="edge"), axis=0), axis=1)
    c = np.pad(c, ((1, 0), (1, 0)))
    s = c[2 * k:2 * k + h, 2 * k:2 * k + w] - c[:h, 2 * k:2 * k + w] - c[2 * k:2 * k + h, :w] + c[:h, :w]
    return s / float((2 * k) ** 2)


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    w, h, frames = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    ref_path, dist_path = sys.argv[4], sys.argv[5]
    rng = np.random.default_rng(20261202)
    pan = 4 * frames + 8  # room for the panning
    big_h, big_w = h + pan, w + 2 * pan
    texture = np.zeros((big_h, big_w), np.float32)
    for cell, amp in ((64, 30.0), (16, 18.0), (4, 10.0), (1, 5.0)):
        texture += amp * smooth_noise(rng, big_h, big_w, cell)
    chroma_u = 10.0 * smooth_noise(rng, big_h // 2, big_w // 2, 16)
    chroma_v = 10.0 * smooth_noise(rng, big_h // 2, big_w // 2, 24)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gradient = 40.0 + 0.05 * xx * (1920.0 / w) + 0.05 * yy * (1080.0 / h)
    noise_rng = np.random.default_rng(7)
    header = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode()
    with open(ref_path, "wb") as ref_file, open(dist_path, "wb") as dist_file:
        ref_file.write(header)
        dist_file.write(header)
        for f in range(frames):
            dy, dx = f, 2 * f + (f % 3)
            wave = 25.0 * np.sin((xx + 6 * f) * (0.02 * 1920 / w)) * np.cos(yy * (0.015 * 1080 / h))
            luma = gradient + wave + texture[dy:dy + h, pan + dx:pan + dx + w]
            y_ref = np.clip(np.rint(luma), 0, 255).astype(np.uint8)
            # Distorted: 3-tap horizontal + vertical blur, quantised to steps of 5, small noise.
            b = luma.copy()
            b[:, 1:-1] = (luma[:, :-2] + 2 * luma[:, 1:-1] + luma[:, 2:]) * 0.25
            b[1:-1, :] = (b[:-2, :] + 2 * b[1:-1, :] + b[2:, :]) * 0.25
            b = np.rint(b / 5.0) * 5.0 + noise_rng.integers(-2, 3, size=(h, w))
            y_dist = np.clip(b, 0, 255).astype(np.uint8)
            planes_ref, planes_dist = [y_ref], [y_dist]
            for c, off in ((chroma_u, 0), (chroma_v, 3)):
                cc = 128.0 + c[dy // 2:dy // 2 + (h + 1) // 2, pan // 2 + dx // 2 + off:pan // 2 + dx // 2 + off + (w + 1) // 2]
                planes_ref.append(np.clip(np.rint(cc), 0, 255).astype(np.uint8))
                planes_dist.append(np.clip(np.rint(cc / 4.0) * 4.0, 0, 255).astype(np.uint8))
            ref_file.write(b"FRAME\n")
            dist_file.write(b"FRAME\n")
            for p in planes_ref:
                ref_file.write(np.ascontiguousarray(p).tobytes())
            for p in planes_dist:
                dist_file.write(np.ascontiguousarray(p).tobytes())


if __name__ == "__main__":
    main()
