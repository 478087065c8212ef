#!/bin/bash
# The long run, on the device machine: a 1080p clip of FRAMES frames (default 20000; generated
# here by tools/device/gen_y4m.py and streamed through FIFOs, so no disk is needed) scored with
# VMAF on CUDA, host RSS and device memory sampled every second (ps, nvidia-smi): first, peak and
# last printed, and growth between the first and the last quarter flagged. Then the same clip with
# --backend cpu (all cores): every per-frame value and pooled score must be identical.
#   tools/device/long_run.sh BIN_DIR [FRAMES] [WORK_DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin_dir=${1:?usage: long_run.sh BIN_DIR [FRAMES] [WORK_DIR]}
frames=${2:-20000}
W=${3:-/tmp/vqtwin-long}; mkdir -p "$W"
V=
for p in "$bin_dir/vqtwin" "$bin_dir/tools/vqtwin/vqtwin"; do [ -x "$p" ] && V=$(realpath "$p") && break; done
[ -n "$V" ] || { echo "long_run.sh: no vqtwin under $bin_dir"; exit 2; }
cd "$W" || exit 2
MODEL="--model version=vmaf_v0.6.1 --feature psnr --feature float_ssim"
# Dry runs elsewhere: SIZE=WxH (default 1920x1080), DEVICE_BACKEND=cpu (no device).
SIZE=${SIZE:-1920x1080}; sw=${SIZE%x*}; sh=${SIZE#*x}
DEVICE_BACKEND=${DEVICE_BACKEND:-cuda}

# score BACKEND OUT: one run of the streamed clip; samples to OUT.samples (seconds rss_kib gpu_mib).
score() {
  local backend=$1 out=$2
  rm -f a.fifo b.fifo; mkfifo a.fifo b.fifo
  "${PYTHON:-python3}" "$here/gen_y4m.py" a.fifo "$sw" "$sh" "$frames" --distinct 48 & local g1=$!
  "${PYTHON:-python3}" "$here/gen_y4m.py" b.fifo "$sw" "$sh" "$frames" --distinct 48 --dist & local g2=$!
  local t0; t0=$(date +%s)
  VQTWIN_REPORT_PEAK_MEMORY=1 "$V" -q -r a.fifo -d b.fifo $MODEL --backend "$backend" --precision max \
    --json -o "$out.json" 2>"$out.err" & local p=$!
  : >"$out.samples"
  while kill -0 "$p" 2>/dev/null; do
    local rss gpu
    rss=$(ps -o rss= -p "$p" 2>/dev/null | tr -d ' ')
    gpu=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
          awk -F', *' -v p="$p" '$1 == p {print $2}')
    [ -n "$rss" ] && echo "$(($(date +%s) - t0)) $rss ${gpu:-0}" >>"$out.samples"
    sleep 1
  done
  wait "$p"; local rc=$?
  kill "$g1" "$g2" 2>/dev/null; wait 2>/dev/null; rm -f a.fifo b.fifo
  local n; n=$(grep -c '"frameNum"' "$out.json" 2>/dev/null)
  echo "$out (--backend $backend): exit $rc, ${n:-0} frames in $(($(date +%s) - t0)) s; $(grep -v 'peak memory' "$out.err" | head -3)"
  awk -v what="$backend" '{n++; t[n] = $1; r[n] = $2; g[n] = $3; if ($2 > pr) pr = $2; if ($3 > pg) pg = $3}
    END {
      if (n == 0) {print "  no samples"; exit}
      # Growth is judged between the second quarter and the last quarter (less the last sample): the
      # first quarter holds the start-up (context, slots) and the last sample may be the teardown.
      q = int(n / 4); if (q < 1) q = 1; m = n - 1; if (m < 2 * q) m = n
      for (i = q + 1; i <= 2 * q; i++) {r2 += r[i]; g2 += g[i]}; for (i = m - q + 1; i <= m; i++) {r4 += r[i]; g4 += g[i]}
      printf "  host RSS MiB: first %.0f, peak %.0f, last %.0f (second quarter mean %.0f, last quarter %.0f)\n", r[1]/1024, pr/1024, r[n]/1024, r2/q/1024, r4/q/1024
      printf "  device MiB:   first %d, peak %d, last %d (second quarter mean %.0f, last quarter %.0f)\n", g[1], pg, g[n], g2/q, g4/q
      if (r4 / q > 1.10 * r2 / q + 16384) print "  GROWTH: host RSS grew by more than 10% over the run"
      if (g4 / q > g2 / q + 64) print "  GROWTH: device memory grew over the run"
    }' "$out.samples"
  return $rc
}

failed=0
for b in cuda cpu; do
  backend=$b; [ "$b" = cuda ] && backend=$DEVICE_BACKEND
  score "$backend" "$b" >"$b.summary"; rc=$?
  cat "$b.summary"
  [ $rc = 0 ] || failed=1
  ! grep -q GROWTH "$b.summary" || failed=1
done
# The values only: fps, version and the receipt (`backends`: which implementation computed each
# output; only the device run writes one) are not results.
strip() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [d.pop(k, None) for k in ("fps","version","backends")]; print(json.dumps(d, indent=0, sort_keys=True))' "$1"; }
if cmp -s <(strip cuda.json) <(strip cpu.json); then
  echo "long_run: CUDA and CPU outputs identical ($(grep -c '"frameNum"' cuda.json) frames)"
else
  echo "long_run: CUDA and CPU outputs DIFFER: $(diff <(strip cuda.json) <(strip cpu.json) | head -4 | tr '\n' ' ')"
  failed=1
fi
exit $failed
