#!/bin/bash
# What users run, timed as they run it: the vqtwin process from start to exit (start-up, reading y4m,
# scoring vmaf_v0.6.1, writing the output), median of 3, for --backend cuda, --backend cpu --threads 16
# and --backend auto (and `autowait`: auto with VQTWIN_AUTO_SPLIT=0, every frame waiting for the device,
# to tell what the CPU's bridge over the start-up costs or gains from what auto's machinery costs).
# ONE device call (16 cores), under 3 minutes:
#   bash tools/device/e2e_bench.sh [VQTWIN]        (default: bin/vqtwin beside this script, else vqtwin)
# Inputs are made on the device (no ffmpeg there) with python3 + numpy into /dev/shm: a 1080p clip of
# 1200 frames (60 and 600 are its first frames, --frame_cnt) and a 4K clip of 300 frames, 8-bit 4:2:0,
# with motion; the distorted is the reference with noise and a darker band. Also: VQTWIN_REPORT_STARTUP
# lines of cuda and auto runs (with auto's split: frames after it on each side, the rates it measured),
# auto's receipt, and auto == cpu bit for bit (--precision max JSON) on all four clips.
# Targets: auto no slower than the better of cuda and cpu on every clip (2 % + 10 ms allowance);
# 1080p x600 >= 2000 fps; x1200 >= 2500 fps; 4K x300 >= 700 fps; start-up to the first scored frame
# <= 100 ms.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
V=${1:-$here/bin/vqtwin}
[ -x "$V" ] || V=$(command -v vqtwin || true)
[ -x "$V" ] || { echo "e2e_bench: no vqtwin binary (give its path)"; exit 1; }
OUT=${OUT:-/tmp/e2e-out}; mkdir -p "$OUT"
D=/dev/shm/vqtwin_e2e; mkdir -p "$D"
nvidia-smi -L 2>/dev/null | head -2; echo "cores: $(nproc)"
# The driver's start-up depends on these (persistence mode keeps the driver initialised between processes).
nvidia-smi --query-gpu=driver_version,persistence_mode --format=csv,noheader 2>/dev/null
echo "CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-unset (LAZY by default since CUDA 12.2)}"

python3 - "$D" <<'PY'
import numpy as np, os, sys, time
d = sys.argv[1]
def clip(path_ref, path_dist, w, h, n):
    if os.path.exists(path_dist) and os.path.getsize(path_dist) > n * w * h:
        return
    t = time.time()
    rng = np.random.default_rng(7)
    yy, xx = np.mgrid[0:h, 0:w]
    base = ((xx * 3 + yy * 2) % 256).astype(np.uint8)
    tex = rng.integers(0, 64, size=(h, w), dtype=np.uint8)
    noise = [rng.integers(-6, 7, size=(h, w), dtype=np.int16) for _ in range(4)]
    cw, ch = w // 2, h // 2
    chroma = np.full((2 * ch * cw,), 128, np.uint8).tobytes()
    hdr = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h)
    with open(path_ref, "wb") as r, open(path_dist, "wb") as dd:
        r.write(hdr); dd.write(hdr)
        for i in range(n):
            y = np.roll(base, 4 * i, axis=1) + np.roll(tex, i % 37, axis=0)
            yd = np.clip(y.astype(np.int16) + noise[i % 4], 0, 255).astype(np.uint8)
            yd[h // 3: h // 2] = (yd[h // 3: h // 2] * 0.9).astype(np.uint8)
            r.write(b"FRAME\n"); r.write(y.tobytes()); r.write(chroma)
            dd.write(b"FRAME\n"); dd.write(yd.tobytes()); dd.write(chroma)
    print(f"made {os.path.basename(path_ref)}: {w}x{h} x{n} in {time.time() - t:.1f} s", flush=True)
clip(f"{d}/hd_ref.y4m", f"{d}/hd_dist.y4m", 1920, 1080, 1200)
clip(f"{d}/uhd_ref.y4m", f"{d}/uhd_dist.y4m", 3840, 2160, 300)
PY

# The start-up steps, once cold-ish and once warm, for cuda and auto (1080p, 60 frames).
# (auto x60 is short enough to run on the CPU alone; auto x600 starts the device and shares the frames.)
for bn in cuda:hd:60 auto:hd:60 auto:hd:600 cuda:hd:1200 auto:hd:1200 cuda:uhd:300 auto:uhd:300; do
  IFS=: read -r b stem n <<<"$bn"
  echo "--- VQTWIN_REPORT_STARTUP=1 VQTWIN_REPORT_DEVICE_BUSY=1 --backend $b, $stem x$n (threads 16):"
  VQTWIN_REPORT_STARTUP=1 VQTWIN_REPORT_DEVICE_BUSY=1 "$V" -q -r $D/${stem}_ref.y4m -d $D/${stem}_dist.y4m --frame_cnt $n \
    --backend $b --threads 16 -o /dev/null --json 2>&1 | grep -E "start-up|busy|warning|error"
done

# auto == cpu, bit for bit, and auto's receipt, on the four clips.
for sn in hd:60 hd:600 hd:1200 uhd:300; do
  stem=${sn%:*} n=${sn#*:}
  "$V" -q -r $D/${stem}_ref.y4m -d $D/${stem}_dist.y4m --frame_cnt $n --threads 16 --precision max --json -o "$OUT/cpu.json"
  "$V" -q -r $D/${stem}_ref.y4m -d $D/${stem}_dist.y4m --frame_cnt $n --threads 16 --precision max --json -o "$OUT/auto.json" --backend auto
  python3 - "$OUT/cpu.json" "$OUT/auto.json" $stem $n <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
receipt = b.get('backends')
for d in (a, b):
    for k in ('fps', 'version', 'backends'): d.pop(k, None)
names = sorted({v for v in (receipt or {}).values()})
print(f"auto == cpu bit for bit, {sys.argv[3]} x{sys.argv[4]}: {'YES' if a == b else 'NO (DIFFERENT)'}; auto's receipt: {json.dumps(names)}")
PY
done

python3 - "$V" "$D" <<'PY'
import statistics, subprocess, sys, time
v, d = sys.argv[1], sys.argv[2]
cases = [("1080p", "hd", 60), ("1080p", "hd", 600), ("1080p", "hd", 1200), ("4K", "uhd", 300)]
backends = [("cuda", ["--backend", "cuda", "--threads", "16"]), ("cpu16", ["--backend", "cpu", "--threads", "16"]),
            ("auto", ["--backend", "auto", "--threads", "16"]),
            # auto without the CPU's bridge (every frame waits for the device): what the bridge costs or
            # gains against auto's own machinery
            ("autowait", ["--backend", "auto", "--threads", "16", "VQTWIN_AUTO_SPLIT=0", "VQTWIN_AUTO_FRAMES_PER_THREAD=0"])]
targets = {("1080p", 600): 2000, ("1080p", 1200): 2500, ("4K", 300): 700}
import os
rows, times = [], {}
for size, stem, n in cases:
    for name, args in backends:
        runs, failed = [], False
        env = dict(os.environ, **dict(a.split("=", 1) for a in args if a.startswith("VQTWIN_")))
        args = [a for a in args if not a.startswith("VQTWIN_")]
        for _ in range(3):
            t = time.perf_counter()
            p = subprocess.run([v, "-q", "-r", f"{d}/{stem}_ref.y4m", "-d", f"{d}/{stem}_dist.y4m", "--frame_cnt", str(n),
                                "-o", "/dev/null", "--json"] + args, capture_output=True, text=True, env=env)
            runs.append(time.perf_counter() - t)
            if p.returncode != 0:
                print(f"FAILED {size} x{n} {name}: {p.stderr.strip()[:300]}")
                failed = True
                break
        med = statistics.median(runs)
        times[(size, n, name)] = med
        rows.append((size, n, name, med, 0 if failed else n / med))
        print(f"  {size} x{n} {name}: {' '.join(f'{r:.3f}' for r in runs)} s", flush=True)
print()
print(f"{'clip':<12}{'backend':<8}{'median s':>10}{'fps':>9}  target (auto; autowait: auto without the CPU's bridge)")
met = missed = 0
for size, n, name, med, fps in rows:
    note = "FAILED" if fps == 0 else ""
    if name in ("auto", "autowait") and fps:
        best = min(times.get((size, n, "cuda"), 1e9), times.get((size, n, "cpu16"), 1e9))
        ok = med <= best * 1.02 + 0.010
        note = f"<= min(cuda, cpu16) ({best:.3f} s) + 2 % + 10 ms: {'MET' if ok else 'MISSED'}"
        if name == "auto":
            met, missed = met + ok, missed + (not ok)
        if name == "auto" and (size, n) in targets:
            note += f"; >= {targets[(size, n)]} fps: {'MET' if fps >= targets[(size, n)] else 'MISSED'}"
    print(f"{size + ' x' + str(n):<12}{name:<8}{med:>10.3f}{fps:>9.0f}  {note}")
print(f"auto never slower than the better backend: {met} of {met + missed} clips")
PY
