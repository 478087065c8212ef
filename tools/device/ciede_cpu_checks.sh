#!/bin/bash
# ciede on the CPU of the device host (16 cores), from the folder stage_ciede_cpu.sh made. One device call,
# about 2 minutes:   carry [".device-ciede-cpu"], command "bash .device-ciede-cpu/run.sh"   (run.sh is this script)
# 1. cpu_check's ciede families: every build this CPU runs (x86-64-v4/v3, portable) against the scalar
#    reference, whole frames (CiedeFrames, wild 16-bit words at 10/12 bits included) and batches (Ciede.*);
#    2. the memo's planted bugs (VQTWIN_PLANT=ciede_cpu_memo_key, ciede_cpu_memo_narrow_key: cpu_check must fail); 3. whole process, -n --feature ciede --precision max
#    on synthetic 1080p 4:2:0 clips made here (8-bit x120, 10-bit x60; every pixel differs): this build
#    against the build before it (bin/vqtwin_before, when staged) and against its own scalar reference
#    (VQTWIN_CIEDE_PATH=scalar, 24 frames), at 16 threads and at 1 thread, and the memo's size at 16 threads
#    (VQTWIN_CIEDE_MEMO_BITS 17, 18, 20: every worker thread has its own table); every output compared with
#    the first. One SUMMARY line per check; logs under $OUT. RUNS (default 3) runs per timing, the median.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
STAGE=${STAGE:-$here}
OUT=${OUT:-/tmp/ciede-cpu-out}; mkdir -p "$OUT"; : > "$OUT/summary.txt"
bin=$STAGE/bin
. "$here/lib.sh"; unpack_bins "$bin"
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
V=$bin/vqtwin
runs=${RUNS:-3}

# 1. cpu_check.
timeout 120 "$bin/cpu_check" --gtest_filter='CiedeFrames.*:Ciede.*' >"$OUT/cpu_check.log" 2>&1
rc=$?
grep -E '^cpu_check: (this CPU|ciede)' "$OUT/cpu_check.log"
say "cpu_check ciede rc=$rc: $(grep -E 'PASSED|FAILED' "$OUT/cpu_check.log" | tr '\n' ' ')"

# 2. The planted bugs.
for plant in ciede_cpu_memo_key ciede_cpu_memo_narrow_key; do
  VQTWIN_PLANT=$plant timeout 60 "$bin/cpu_check" --gtest_filter='CiedeFrames.*' >"$OUT/plant_$plant.log" 2>&1
  rc=$?
  say "plant $plant rc=$rc ($([ $rc != 0 ] && grep -q 'Failure' "$OUT/plant_$plant.log" && echo caught || echo NOT CAUGHT))"
done

# 3. Whole process on synthetic clips (python3 + numpy).
D=/dev/shm/vqtwin_ciede_cpu; mkdir -p "$D"
python3 - "$D" <<'PY'
import numpy as np, os, sys
d = sys.argv[1]
def clip(name, w, h, n, bits):
    ref, dist = f"{d}/{name}_ref.y4m", f"{d}/{name}_dist.y4m"
    if os.path.exists(dist) and os.path.getsize(dist) > n * w * h:
        return
    rng = np.random.default_rng(11)
    yy, xx = np.mgrid[0:h, 0:w]
    cy, cx = np.mgrid[0:h // 2, 0:w // 2]
    s, dt, top = 1 << (bits - 8), (np.uint8 if bits == 8 else np.uint16), (1 << bits) - 1
    tag = b"C420jpeg" if bits == 8 else b"C420p10 XYSCSS=420P10"
    hdr = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 %s\n" % (w, h, tag)
    with open(ref, "wb") as r, open(dist, "wb") as q:
        r.write(hdr); q.write(hdr)
        for i in range(n):
            planes = [((xx * 3 + yy * 2 + 5 * i) % 220 + 16) * s + (xx & (s - 1)),
                      ((cx * 2 + 3 * i) % 200 + 28) * s, ((cy * 3 + cx + 2 * i) % 200 + 28) * s]
            r.write(b"FRAME\n")
            for p in planes: r.write(p.astype(dt).tobytes())
            q.write(b"FRAME\n")
            for p in planes:
                noisy = p + rng.integers(-3 * s, 3 * s + 1, size=p.shape)
                q.write(np.clip(noisy, 0, top).astype(dt).tobytes())
    print(f"made {name}: {w}x{h} {bits}-bit x{n}", flush=True)
clip("hd8", 1920, 1080, 120, 8)
clip("hd10", 1920, 1080, 60, 10)
PY
# time LABEL CLIP THREADS FRAMES [VAR=VALUE ...]: the median wall ms of $runs runs (whole process), the JSON kept.
time_run() {
  local label=$1 c=$2 t=$3 n=$4; shift 4
  local b=$V r=${TIME_RUNS:-$runs}; [ "$label" = before ] && b=$bin/vqtwin_before
  : > "$OUT/$c.$label.$t.times"
  for k in $(seq 1 "$r"); do
    s=$(date +%s%N)
    env "$@" "$b" -q -r "$D/${c}_ref.y4m" -d "$D/${c}_dist.y4m" -n --feature ciede --threads "$t" --frame_cnt "$n" \
      --precision max --json -o "$OUT/$c.$label.$t.json" 2>"$OUT/$c.$label.$t.err"
    e=$(date +%s%N); echo "$(( (e - s) / 1000000 ))" >> "$OUT/$c.$label.$t.times"
  done
  ms=$(sort -n "$OUT/$c.$label.$t.times" | sed -n "$(( (r + 1) / 2 ))p")
  echo "$ms"
}
same() { cmp -s <(grep -o '"ciede2000": *[^,}]*' "$1") <(grep -o '"ciede2000": *[^,}]*' "$2") && echo same || echo DIFFERENT; }
for c in hd8 hd10; do
  n=$([ $c = hd8 ] && echo 120 || echo 60)
  for t in 16 1; do
    f=$([ $t = 16 ] && echo "$n" || echo 24)
    after=$(time_run after $c $t "$f")
    line="$c threads $t, $f frames: after $after ms ($(awk -v f="$f" -v m="$after" 'BEGIN { printf "%.1f", 1000 * f / m }') fps)"
    if [ -x "$bin/vqtwin_before" ]; then
      before=$(time_run before $c $t "$f")
      line="$line, before $before ms ($(awk -v f="$f" -v m="$before" 'BEGIN { printf "%.1f", 1000 * f / m }') fps, $(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2fx", b / a }')), $(same "$OUT/$c.after.$t.json" "$OUT/$c.before.$t.json")"
    fi
    say "$line"
  done
  # The scalar reference, 24 frames at 16 threads, against this build's 24 frames at 1 thread (same frames).
  sc=$(TIME_RUNS=1 time_run scalar $c 16 24 VQTWIN_CIEDE_PATH=scalar)
  say "$c scalar reference, threads 16, 24 frames: $sc ms; values $(same "$OUT/$c.scalar.16.json" "$OUT/$c.after.1.json") as the fast path's"
  for bits in 17 18 20; do
    m=$(time_run memo$bits $c 16 "$n" VQTWIN_CIEDE_MEMO_BITS=$bits)
    say "$c memo 2^$bits entries a thread, threads 16, $n frames: $m ms ($(awk -v f="$n" -v x="$m" 'BEGIN { printf "%.1f", 1000 * f / x }') fps), $(same "$OUT/$c.memo$bits.16.json" "$OUT/$c.after.16.json")"
  done
done
echo; cat "$OUT/summary.txt"
