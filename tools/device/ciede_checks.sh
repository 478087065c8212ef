#!/bin/bash
# ciede_cuda on the device, from the folder stage_ciede.sh made (binaries built here, the first frames of
# each shared fixture). One device call, about 3 minutes on an H100/H200 with 16 cores:
#   carry [".device-ciede"], command "bash .device-ciede/run.sh"      (run.sh is this script)
# 1. the twin harness for ciede_cuda: the whole generated matrix (every depth, chroma format, size up to 8K)
#    and the fixtures; 2. its planted bug (the harness must fail, rc 1); 3. the CLI, --feature ciede with
#    --backend cuda against --backend cpu at --precision max on every fixture pair (the same per-frame and
#    pooled values), with the share of pixels the host computed (VQTWIN_REPORT_CIEDE_FALLBACK); 4. device time
#    per frame at 1080p and 4K (twin_device_time); 5. whole process, -n --feature ciede, --backend cuda
#    against --backend cpu --threads 16 on a synthetic colour clip made here (1080p x120, 4K x20), the outputs
#    compared too. One SUMMARY line per check; logs under $OUT. A shorter run (debugging): HARNESS_ARGS=--quick
#    RUNS=1 CLIPS=hd.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
STAGE=${STAGE:-$here}
OUT=${OUT:-/tmp/ciede-out}; mkdir -p "$OUT"; : > "$OUT/summary.txt"
bin=$STAGE/bin
. "$here/lib.sh"; unpack_bins "$bin"
fx=$STAGE/fixtures
if [ -f "$STAGE/fixtures.tar.xz" ] && [ ! -d "$fx" ]; then tar -C "$STAGE" -xJf "$STAGE/fixtures.tar.xz"; fi
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
# "identical" when both JSON files hold the same per-frame and pooled values (parsed doubles, so bit for bit),
# then who computed ciede2000 by the first file's receipt.
same_json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda j: ([f.get("metrics") for f in j.get("frames", [])], j.get("pooled_metrics"), j.get("aggregate_metrics"))
r = a.get("backends", {}).get("ciede2000", "none")
print(("identical" if key(a) == key(b) and a.get("frames") else "DIFFERENT") + ", receipt " + r)
PY
}
nvidia-smi -L; echo "cores: $(nproc)"
V=$bin/vqtwin

# 1. Harness: generated matrix (full) and the fixtures.
timeout 150 "$bin/twin_harness" --only ciede_cuda ${HARNESS_ARGS:-} --fixtures "$fx" --frames 4 >"$OUT/harness.log" 2>&1
rc=$?
tail -12 "$OUT/harness.log"
say "harness ciede_cuda (full matrix + fixtures) rc=$rc$([ $rc = 124 ] && echo ' (TIMED OUT)'): $(grep -E '^ *ciede_cuda ' "$OUT/harness.log" | tail -1 | tr -s ' ') $(grep -m3 DIFF "$OUT/harness.log" | tr '\n' ' ')"

# 2. The planted bug.
VQTWIN_PLANT=ciede_cuda_short_sin timeout 60 "$bin/twin_harness" --quick --first-difference --only ciede_cuda \
  >"$OUT/plant.log" 2>&1
rc=$?
say "plant ciede_cuda_short_sin rc=$rc ($([ $rc = 1 ] && echo caught || echo NOT CAUGHT))"

# 3. CLI on the fixtures: cuda = cpu at --precision max.
for r in "$fx"/*_ref.y4m; do
  n=$(basename "$r" _ref.y4m); d=$fx/${n}_dist.y4m
  VQTWIN_REPORT_CIEDE_FALLBACK=1 "$V" -q -r "$r" -d "$d" -n --feature ciede --backend cuda --precision max --json \
    -o "$OUT/$n.cuda.json" 2>"$OUT/$n.cuda.err"
  rc1=$?
  "$V" -q -r "$r" -d "$d" -n --feature ciede --backend cpu --precision max --json -o "$OUT/$n.cpu.json" 2>"$OUT/$n.cpu.err"
  rc2=$?
  same=$(same_json "$OUT/$n.cuda.json" "$OUT/$n.cpu.json" 2>&1 | tail -1)
  host=$(awk '/computed on the host/ {h += $4; p += $6} END {if (p) printf "%d of %d pixels (%.3f %%)", h, p, 100 * h / p}' "$OUT/$n.cuda.err")
  warn=$(grep -ci "fall" "$OUT/$n.cuda.err")
  say "cli $n: rc cuda=$rc1 cpu=$rc2, --precision max JSON $same; host computed $host; fallback warnings: $warn"
done

# 4. Device time per frame.
timeout 60 "$bin/twin_device_time" --twins ciede_cuda --sizes 1920x1080,3840x2160 --depths 8,10 --reps 10 \
  --ordered-sums 0 >"$OUT/device_time.log" 2>&1
cat "$OUT/device_time.log"
say "device time per frame (median): $(grep '^ciede_cuda' "$OUT/device_time.log" | awk '{printf "%s %s %s %s ms; ", $2, $3, $4, $5}')"

# 5. Whole process on synthetic colour clips (python3 + numpy; no ffmpeg on the device). SKIP_WHOLE=1 skips it.
if [ -z "${SKIP_WHOLE:-}" ]; then
D=/dev/shm/vqtwin_ciede; mkdir -p "$D"
python3 - "$D" <<'PY'
import numpy as np, os, sys
d = sys.argv[1]
def clip(name, w, h, n):
    ref, dist = f"{d}/{name}_ref.y4m", f"{d}/{name}_dist.y4m"
    if os.path.exists(dist) and os.path.getsize(dist) > n * w * h:
        return
    rng = np.random.default_rng(11)
    yy, xx = np.mgrid[0:h, 0:w]
    cw, ch = w // 2, h // 2
    cy, cx = np.mgrid[0:ch, 0:cw]
    hdr = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h)
    with open(ref, "wb") as r, open(dist, "wb") as q:
        r.write(hdr); q.write(hdr)
        for i in range(n):
            planes = [((xx * 3 + yy * 2 + 5 * i) % 220 + 16).astype(np.uint8),
                      ((cx * 2 + 3 * i) % 200 + 28).astype(np.uint8), ((cy * 3 + cx + 2 * i) % 200 + 28).astype(np.uint8)]
            r.write(b"FRAME\n")
            for p in planes: r.write(p.tobytes())
            q.write(b"FRAME\n")
            for p in planes:
                noisy = p.astype(np.int16) + rng.integers(-3, 4, size=p.shape, dtype=np.int16)
                q.write(np.clip(noisy, 0, 255).astype(np.uint8).tobytes())
    print(f"made {name}: {w}x{h} x{n}", flush=True)
clip("hd", 1920, 1080, 120)
clip("uhd", 3840, 2160, 20)
PY
for c in ${CLIPS:-hd uhd}; do
  for b in cuda cpu; do
    for k in $(seq 1 ${RUNS:-3}); do
      s=$(date +%s%N)
      VQTWIN_REPORT_CIEDE_FALLBACK=$([ $b = cuda ] && [ $k = 1 ] && echo 1) "$V" -q -r $D/${c}_ref.y4m -d $D/${c}_dist.y4m \
        -n --feature ciede --backend $b --threads 16 --precision max --json -o "$OUT/$c.$b.json" 2>"$OUT/$c.$b.$k.err"
      e=$(date +%s%N); echo "$(( (e - s) / 1000000 ))" >> "$OUT/$c.$b.times"
    done
  done
  same=$(same_json "$OUT/$c.cuda.json" "$OUT/$c.cpu.json" 2>&1 | tail -1)
  host=$(awk '/computed on the host/ {h += $4; p += $6} END {if (p) printf "%.3f %%", 100 * h / p}' "$OUT/$c.cuda.1.err")
  fps=$(python3 -c "import json, sys; print(' / '.join('%.1f' % json.load(open(p))['fps'] for p in sys.argv[1:]))" "$OUT/$c.cuda.json" "$OUT/$c.cpu.json")
  say "whole process $c: cuda $(sort -n "$OUT/$c.cuda.times" | sed -n "$(( (${RUNS:-3} + 1) / 2 ))p") ms, cpu --threads 16 $(sort -n "$OUT/$c.cpu.times" | sed -n "$(( (${RUNS:-3} + 1) / 2 ))p") ms (median of ${RUNS:-3}); fps once started (cuda / cpu) $fps; JSON $same; host computed $host of the pixels"
done
fi
echo; cat "$OUT/summary.txt"
