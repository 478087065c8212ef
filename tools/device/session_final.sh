#!/bin/bash
# One short device call (about 4 minutes on an H100/H200 with 16 cores) over what stage_session.sh staged
# (STAGE, default .device-final): every twin of both backends, CUDA and Vulkan (NVIDIA's driver), on the
# harness's quick matrix and the fixtures; every planted bug of tests/CMakeLists.txt (each must make its
# twin's harness fail); the CLI with --backend cuda / vulkan against --backend cpu at --precision max on
# every fixture pair (presets, models, the newest twins), with the receipt checked for CPU fallbacks; and
# the presets' whole-process time, CPU against CUDA, on a generated 1080p clip.
#   STAGE=.device-final bash tools/device/session_final.sh
# Knobs: HARNESS (comma list of cuda,vulkan,nofp64: the harness runs to make), SHARDS (8 per backend), NOFP64_TWINS (the float twins run again on the fp64-free path, in 4 shards), EXTRA_PLANTS (plants too slow for CI, default float_motion_vulkan_uv_scale1_stride), ONLY_CUDA / ONLY_VULKAN (comma lists for the harness; default every twin), HB (harness seconds, 100), SKIP (comma list of plants,cli,presets), CLI_BACKENDS (cuda,vulkan).
# One SUMMARY line per check, the same lines again at the end; logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
STAGE=$(cd "${STAGE:-.device-final}" && pwd)
# Work files go to WORK; only the summary and one tarball of the logs go to OUT (the device call returns a
# limited number of files).
RESULT=${OUT:-/tmp/session-final}; OUT=${WORK:-/tmp/session-final-work}; mkdir -p "$OUT" "$RESULT"; : >"$OUT/summary.txt"
bin=$STAGE/bin fx=$STAGE/fixtures
. tools/device/lib.sh; unpack_bins "$bin"
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
t0=$SECONDS

# The Vulkan loader and libglvnd (Debian's packages, staged as .deb files): the device host has NVIDIA's
# Vulkan driver but no loader.
if ls "$STAGE"/debs/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/vk && for d in "$STAGE"/debs/*.deb; do dpkg -x "$d" /tmp/vk; done
  export LD_LIBRARY_PATH=/tmp/vk/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  export VQTWIN_VULKAN_LOADER=/tmp/vk/usr/lib/x86_64-linux-gnu/libvulkan.so.1
fi
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
export VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-$VK_DRIVER_FILES}
nvidia-smi -L; echo "cores: $(nproc)"
"$bin/vqtwin" --list-devices 2>&1 | grep -E "^(cuda|vulkan) [0-9]" | head -4

# 1. The harness, both backends side by side, each in SHARDS shards (HARNESS: which of cuda, vulkan, nofp64).
hb=${HB:-100} shards=${SHARDS:-8} harness=${HARNESS:-cuda,vulkan,nofp64}
want() { case ",$harness," in *,$1,*) return 0 ;; esac; return 1; }
for k in $(seq 0 $((shards - 1))); do
  want cuda && timeout "$hb" "$bin/twin_harness" --backend cuda --quick ${ONLY_CUDA:+--only $ONLY_CUDA} --fixtures "$fx" \
    --frames 2 --shard "$k/$shards" >"$OUT/h_cuda_$k.log" 2>&1 &
  want vulkan && timeout "$hb" "$bin/twin_harness" --backend vulkan --quick ${ONLY_VULKAN:+--only $ONLY_VULKAN} --fixtures "$fx" \
    --frames 2 --shard "$k/$shards" >"$OUT/h_vulkan_$k.log" 2>&1 &
done
# The float twins' fp64-free path on NVIDIA's driver too (NOFP64_TWINS: a comma list), beside the shards.
for k in 0 1 2 3; do
  want nofp64 || break
  VQTWIN_VULKAN_NO_FP64=1 timeout "$hb" "$bin/twin_harness" --backend vulkan --quick --only "${NOFP64_TWINS:-float_ms_ssim_vulkan}" \
    --fixtures "$fx" --frames 2 --shard "$k/4" >"$OUT/h_nofp64_$k.log" 2>&1 &
done
wait
for b in cuda vulkan nofp64; do
  want $b || continue
  cat "$OUT"/h_${b}_*.log | awk -v b=$b '
    $1 ~ /_(cuda|vulkan)$/ && NF >= 7 && $2 ~ /^[0-9]+$/ { c[$1]+=$2; r[$1]+=$3; u[$1]+=$4; v[$1]+=$5; i[$1]+=$6; if ($0 ~ /FAIL/) f[$1]=1 }
    END { for (t in c) printf "SUMMARY: harness %-6s %-22s cases %6d refused %5d toCPU %4d values %8d identical %8d %s\n", b, t, c[t], r[t], u[t], v[t], i[t], (f[t] || v[t] != i[t]) ? "FAIL" : "ok" }' \
    | sort | tee -a "$OUT/summary.txt"
  say "harness $b: $(grep -l 'twin_harness: \(every value\|DIFFERENCES\)' "$OUT"/h_${b}_*.log | wc -l)/$(ls "$OUT"/h_${b}_*.log | wc -l) shards finished in ${hb}s; first differences: $(grep -h 'DIFF' "$OUT"/h_${b}_*.log | head -2 | tr '\n' ' ')"
done
[ -x "$bin/float_ms_ssim_soft_check" ] && say "float_ms_ssim_vulkan soft-float on NVIDIA: $(timeout 60 "$bin/float_ms_ssim_soft_check" 2>&1 | tail -1)"

# 2. Planted bugs, 12 at a time: the twin is the plant's name up to its backend; the fp64-free path's plants
# run with that path forced; a plant that only a pair of options or the deep phase reveals runs that phase.
plants() { sed -n "/^ *set($1/,/)/p" tests/CMakeLists.txt | tr -d '()' | sed "s/set//; s/$1//" | tr -s ' \n' '\n' | grep -v '^$'; }
{ plants VQTWIN_PLANTS; plants VQTWIN_VULKAN_PLANTS; echo "${EXTRA_PLANTS:-float_motion_vulkan_uv_scale1_stride}" | tr " " "\n"; } | grep -v "^$" | sort -u >"$OUT/plants.txt"
run_plant() {
  local p=$1 backend=cuda twin nofp64=0 phases=small,options,pairs
  case $p in *_vulkan_*) backend=vulkan twin=${p%%_vulkan_*}_vulkan ;; *) twin=${p%%_cuda_*}_cuda ;; esac
  case $p in *_nofp64_*) nofp64=1 ;; esac
  case $p in *uv_scale1*) phases=pairs ;; *sum_ties*) phases=deep ;; esac
  [ "$backend" = cuda ] && case $p in *no_cap*) phases=small,options,pairs,large ;; esac
  VQTWIN_VULKAN_NO_FP64=$nofp64 VQTWIN_PLANT=$p timeout 60 "$bin/twin_harness" --backend $backend --quick \
    --phases $phases --first-difference --only "$twin" >"$OUT/plant_$p.log" 2>&1
  local rc=$?
  echo "$p rc=$rc $([ $rc = 1 ] && echo caught || echo NOT-CAUGHT)"
}
export -f run_plant; export bin OUT
skip() { case ",${SKIP:-}," in *,$1,*) return 0 ;; esac; return 1; }
if ! skip plants; then
xargs -P 12 -I{} bash -c 'run_plant {}' <"$OUT/plants.txt" >"$OUT/plants_result.txt" 2>&1
say "planted bugs caught: $(grep -c ' caught' "$OUT/plants_result.txt")/$(wc -l <"$OUT/plants.txt")"
grep NOT-CAUGHT "$OUT/plants_result.txt" | sed 's/^/SUMMARY: /' | tee -a "$OUT/summary.txt"
fi

# 3. The CLI against the CPU, JSON values compared bit for bit; "fallback" counts receipts naming the CPU.
cat >"$OUT/cmp.py" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rec = b.get("backends", {})
fb = sorted(k for k, v in rec.items() if "cpu" in v or not v.endswith(("_cuda", "_vulkan")))
key = lambda j: ([f.get("metrics") for f in j.get("frames", [])], j.get("pooled_metrics"), j.get("aggregate_metrics"))
same = key(a) == key(b) and bool(a.get("frames"))
first = ""
if not same:
    fa, fb2 = a.get("frames", []), b.get("frames", [])
    for i, (x, y) in enumerate(zip(fa, fb2)):
        d = [k for k in x.get("metrics", {}) if x["metrics"].get(k) != y.get("metrics", {}).get(k)]
        if d:
            first = f" first:frame{i}:{d[0]}={x['metrics'][d[0]]!r}/{y.get('metrics', {}).get(d[0])!r}({len(d)}keys)"
            break
    else:
        first = f" frames:{len(fa)}/{len(fb2)}"
print(("SAME" if same else "DIFF") + (" fallback:" + ",".join(fb[:6]) if fb else "") + first)
PY
cli_one() {  # backend ref dist tag args...
  local be=$1 ref=$2 dist=$3 tag=$4; shift 4
  "$bin/vqtwin" -q -r "$ref" -d "$dist" "$@" --precision max --json -o "$OUT/c_$tag.cpu.json" --backend cpu 2>/dev/null
  "$bin/vqtwin" -q -r "$ref" -d "$dist" "$@" --precision max --json -o "$OUT/c_$tag.$be.json" --backend $be 2>"$OUT/c_$tag.err"
  echo "$(python3 "$OUT/cmp.py" "$OUT/c_$tag.cpu.json" "$OUT/c_$tag.$be.json" 2>&1 | tail -1) $be $(basename "$ref") $*"
}
export -f cli_one
: >"$OUT/cli_jobs.txt"; i=0
for ref in "$fx"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  for a in "--aom_ctc v7.0" "--nflx_ctc v1.0" "-n --feature psnr_hvs" "-n --feature cambi" "-n --feature ciede" \
           "--model version=vmaf_v0.6.1 --feature psnr"; do
    i=$((i + 1)); echo "cuda $ref $dist $i $a" >>"$OUT/cli_jobs.txt"
  done
  for a in "--model version=vmaf_v0.6.1" "--model version=vmaf_v0.6.1neg" "--model version=vmaf_4k_v0.6.1" \
           "--model version=vmaf_v0.6.1 --threads 8" "-n --feature psnr --feature float_ssim --feature ssim" \
           "-n --feature float_motion --feature float_psnr" "-n --feature float_ms_ssim=enable_lcs=true" \
           "--model version=vmaf_float_v0.6.1"; do
    i=$((i + 1)); echo "vulkan $ref $dist $i $a" >>"$OUT/cli_jobs.txt"
  done
done
skip cli && : >"$OUT/cli_jobs.txt"
[ -n "${CLI_BACKENDS:-}" ] && grep -E "^(${CLI_BACKENDS//,/|}) " "$OUT/cli_jobs.txt" >"$OUT/cli_jobs.sel" && mv "$OUT/cli_jobs.sel" "$OUT/cli_jobs.txt"
timeout "${CT:-120}" xargs -P 8 -L 1 bash -c 'cli_one "$@"' _ <"$OUT/cli_jobs.txt" >"$OUT/cli_results.txt" 2>&1
for b in cuda vulkan; do
  say "CLI cpu vs $b: $(grep -c "^SAME $b\|^SAME fallback:[^ ]* $b" "$OUT/cli_results.txt") identical ($(grep -c "^SAME fallback:[^ ]* $b" "$OUT/cli_results.txt") of them with CPU fallbacks), $(grep -c "^DIFF.* $b " "$OUT/cli_results.txt") different, of $(grep -c "^$b " "$OUT/cli_jobs.txt")"
done
grep "fallback\|^DIFF" "$OUT/cli_results.txt" | sort | uniq | head -8 | sed 's/^/SUMMARY: /' | tee -a "$OUT/summary.txt"

# 4. The presets' whole process, 1080p 8-bit 120 frames (generated here), --backend cuda against cpu.
skip presets || python3 - <<'PY'
import numpy as np
w, h, n = 1920, 1080, 120
rng = np.random.default_rng(5)
yy, xx = np.mgrid[0:h, 0:w]
base = ((xx * 3 + yy * 2) % 256).astype(np.uint8); tex = rng.integers(0, 64, size=(h, w), dtype=np.uint8)
u = ((xx[::2, ::2] + yy[::2, ::2]) % 200 + 28).astype(np.uint8); v = (255 - u).astype(np.uint8)
hdr = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h)
with open("/dev/shm/p_ref.y4m", "wb") as r, open("/dev/shm/p_dist.y4m", "wb") as d:
    r.write(hdr); d.write(hdr)
    for i in range(n):
        y = np.roll(base, 4 * i, axis=1) + np.roll(tex, i % 37, axis=0)
        yd = np.clip(y.astype(np.int16) + rng.integers(-6, 7, size=(h, w), dtype=np.int16), 0, 255).astype(np.uint8)
        ud = np.clip(u.astype(np.int16) + 3, 0, 255).astype(np.uint8)
        r.write(b"FRAME\n" + y.tobytes() + u.tobytes() + v.tobytes())
        d.write(b"FRAME\n" + yd.tobytes() + ud.tobytes() + v.tobytes())
PY
for a in "--aom_ctc v7.0" "--nflx_ctc v1.0"; do
  skip presets && break
  line="$a, 1080p x120:"
  for b in cpu cuda; do
    s=$(date +%s.%N)
    "$bin/vqtwin" -q -r /dev/shm/p_ref.y4m -d /dev/shm/p_dist.y4m $a --backend $b --threads 16 --precision max --json \
      -o "$OUT/p_$b.json" 2>/dev/null
    line="$line $b $(python3 -c "print(f'{$(date +%s.%N) - $s:.2f}')") s"
  done
  say "$line; $(python3 "$OUT/cmp.py" "$OUT/p_cpu.json" "$OUT/p_cuda.json")"
done
say "total $((SECONDS - t0)) s"
echo "=== summary"; cat "$OUT/summary.txt"
cp "$OUT/summary.txt" "$RESULT/" 2>/dev/null
tar -C "$OUT" -czf "$RESULT/logs.tar.gz" --exclude='*.json' . 2>/dev/null
