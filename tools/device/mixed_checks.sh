#!/bin/bash
# CPU and device on one run (--backend auto) against the CPU alone, bit for bit, on a real CUDA device:
# every shared fixture pair (their first frames) and a generated 1080p clip of 300 frames, with each
# temporal feature and each family of models. Two steps:
#
#   here:   tools/device/mixed_checks.sh stage STAGE [BUILD_DIR] [FIXTURES_DIR]
#           a stripped vqtwin of BUILD_DIR (default build-device: CUDA, -DVQTWIN_STATIC_RUNTIME=ON) and
#           the first frames of each decoded fixture pair (FIXTURES_DIR, default BUILD_DIR/fixtures),
#           xz-compressed; this script and STAGE/run.sh. Prints the size (the device tool carries 64 MiB).
#   device: bash STAGE/run.sh        (results in $OUT, default /tmp/mixed-out)
#
# Each run is forced to split where the check wants it: VQTWIN_AUTO_FRAMES_PER_THREAD=0 (the device even
# for short clips), VQTWIN_AUTO_SPLIT=N (the CPU computes frames 0..N-1, then every frame waits for the
# device) and VQTWIN_AUTO_CPU_FRAMES=2 (after the split the CPU still takes non-temporal frames wherever it
# would finish them in time). A check passes when the JSON at --precision max equals --backend cpu's (the
# receipt and fps aside) and the receipt shows the device took frames: a temporal twin "on frames K..",
# K = N + its reach. Splits tried: N = 1 and N = a third of the clip. One SUMMARY line per check, and a
# count at the end. SKIP_GEN=1 leaves the generated clip out (to try the script on a machine without a GPU).
set -uo pipefail

stage_here() {
  set -e
  local stage=${1:?usage: mixed_checks.sh stage STAGE [BUILD_DIR] [FIXTURES_DIR]} build=${2:-build-device}
  local fx=${3:-${2:-build-device}/fixtures} here
  here=$(cd "$(dirname "$0")" && pwd)
  rm -rf "$stage" && mkdir -p "$stage/fixtures"
  strip -o "$stage/vqtwin" "$build/tools/vqtwin/vqtwin"
  xz -T2 -6 "$stage/vqtwin"
  for y in "$fx"/*.y4m; do
    # Enough frames for a split a third in and the temporal features' reach on either side; fewer of
    # the largest (the stage must fit the device tool's 64 MiB).
    local n=24
    case "$y" in *1280x720*) n=12 ;; *853x480*) n=12 ;; esac
    python3 "$here/cut_y4m.py" "$y" "$stage/fixtures/$(basename "$y")" $n
  done
  xz -T2 -6 "$stage"/fixtures/*.y4m
  cp "$here/mixed_checks.sh" "$stage/"
  printf '#!/bin/bash\nexec bash "$(dirname "$0")/mixed_checks.sh" run "$(cd "$(dirname "$0")" && pwd)"\n' >"$stage/run.sh"
  du -sh "$stage"
}

run_there() {
  local stage=${1:?usage: mixed_checks.sh run STAGE}
  local OUT=${OUT:-/tmp/mixed-out} D=/dev/shm/vqtwin_mixed
  mkdir -p "$OUT" "$D"
  local v=$D/vqtwin
  xz -dc "$stage/vqtwin.xz" >"$v" && chmod +x "$v"
  for f in "$stage"/fixtures/*.y4m.xz; do
    local y; y=$D/$(basename "${f%.xz}")
    [ -s "$y" ] || xz -dc "$f" >"$y"
  done
  nvidia-smi -L 2>/dev/null | head -1
  # The generated clip: 1080p 8-bit 4:2:0, 300 frames with motion, the distorted a noisy darker copy.
  [ -n "${SKIP_GEN:-}" ] || python3 - "$D" <<'PY'
import numpy as np, os, sys
d = sys.argv[1]; w, h, n = 1920, 1080, 300
if not os.path.exists(f"{d}/gen1080_dist.y4m"):
    rng = np.random.default_rng(11)
    yy, xx = np.mgrid[0:h, 0:w]
    base = ((xx * 3 + yy * 2) % 256).astype(np.uint8)
    tex = rng.integers(0, 64, size=(h, w), dtype=np.uint8)
    noise = [rng.integers(-6, 7, size=(h, w), dtype=np.int16) for _ in range(5)]
    cu = ((np.mgrid[0:h // 2, 0:w // 2][1] // 8) % 64 + 96).astype(np.uint8)
    hdr = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h)
    with open(f"{d}/gen1080_ref.y4m", "wb") as r, open(f"{d}/gen1080_dist.y4m", "wb") as dd:
        r.write(hdr); dd.write(hdr)
        for i in range(n):
            # Scene changes every 70 frames (motion jumps), slow pans between them.
            y = np.roll(base, (5 * i) % 1920 + 97 * (i // 70), axis=1) + np.roll(tex, (i % 23) + 13 * (i // 70), axis=0)
            yd = np.clip(y.astype(np.int16) + noise[i % 5], 0, 255).astype(np.uint8)
            yd[h // 3: h // 2] = (yd[h // 3: h // 2] * 0.9).astype(np.uint8)
            c = np.roll(cu, i, axis=1).tobytes()
            r.write(b"FRAME\n"); r.write(y.tobytes()); r.write(c); r.write(c)
            dd.write(b"FRAME\n"); dd.write(yd.tobytes()); dd.write(c); dd.write(c)
PY
  : >"$OUT/summary.txt"
  say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
  values() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("fps", "version", "backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"; }
  # Each family of models and every temporal feature (with their options that change the reach).
  local configs=(
    "vmaf_v0.6.1|-m version=vmaf_v0.6.1:name=vmaf_v0.6.1"
    "v0.6.1neg+4k+b|-m version=vmaf_v0.6.1neg:name=vmaf_v0.6.1neg -m version=vmaf_4k_v0.6.1:name=vmaf_4k_v0.6.1 -m version=vmaf_b_v0.6.3:name=vmaf_b_v0.6.3"
    "float_v0.6.1|-m version=vmaf_float_v0.6.1:name=vmaf_float_v0.6.1 -m version=vmaf_float_v0.6.1neg:name=vmaf_float_v0.6.1neg"
    "float_4k+b|-m version=vmaf_float_4k_v0.6.1:name=vmaf_float_4k_v0.6.1 -m version=vmaf_float_b_v0.6.3:name=vmaf_float_b_v0.6.3"
    "v1.0.16|-m version=vmaf_v1.0.16_3d0h:name=vmaf_v1.0.16_3d0h -m version=vmaf_v1.0.16_hfr_5d0h:name=vmaf_v1.0.16_hfr_5d0h"
    "temporal features|-n --feature float_motion=debug=true --feature motion=motion_five_frame_window=true:motion_moving_average=true:debug=true --feature speed_temporal --feature psnr --feature float_ssim"
    "motion lag 1|-n --feature motion=debug=true --feature float_motion --feature cambi=full_ref=true"
  )
  local pass=0 fail=0 unsplit=0
  for ref in "$D"/*_ref.y4m; do
    local dist=${ref/_ref./_dist.} stem n
    stem=$(basename "${ref%_ref.y4m}")
    n=$(python3 - "$ref" <<'PY'
import os, sys
with open(sys.argv[1], "rb") as f:
    header = f.readline()
tags = {t[:1].decode(): t[1:].decode() for t in header.split()[1:]}
w, h, c = int(tags["W"]), int(tags["H"]), tags.get("C", "420jpeg")
word = 2 if "p1" in c else 1
chroma = 2 * w * h if c.startswith("444") else 2 * ((w + 1) // 2) * ((h + 1) // 2)
print((os.path.getsize(sys.argv[1]) - len(header)) // (6 + word * (w * h + chroma)))
PY
)
    for cfg in "${configs[@]}"; do
      local label=${cfg%%|*} args
      read -ra args <<<"${cfg#*|}"
      local base=$OUT/$stem.cpu.json
      "$v" -q -r "$ref" -d "$dist" --threads 16 --precision max --json -o "$base" "${args[@]}" 2>"$OUT/err" || {
        say "$stem $label: --backend cpu FAILED: $(tail -1 "$OUT/err")"; fail=$((fail + 1)); continue; }
      for split in 1 $((n / 3)); do
        local out=$OUT/$stem.auto.json
        if ! VQTWIN_AUTO_FRAMES_PER_THREAD=0 VQTWIN_AUTO_SPLIT=$split VQTWIN_AUTO_CPU_FRAMES=2 "$v" -q -r "$ref" -d "$dist" \
          --threads 16 --precision max --json -o "$out" --backend auto "${args[@]}" 2>"$OUT/err"; then
          say "$stem $label split $split: auto FAILED: $(tail -1 "$OUT/err")"; fail=$((fail + 1)); continue
        fi
        local receipt
        receipt=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1])).get("backends", {})
print("; ".join(sorted({v for v in r.values()})))' "$out")
        if [ "$(values "$base")" != "$(values "$out")" ]; then
          say "$stem $label split $split: DIFFERENT from cpu; receipt: $receipt"; fail=$((fail + 1))
        elif ! grep -qE '_cuda' <<<"$receipt"; then
          say "$stem $label split $split: identical but the device took no frame; receipt: $receipt"; unsplit=$((unsplit + 1))
        else
          pass=$((pass + 1))
          # One line per clip and configuration (the larger split), to quote.
          [ "$split" = 1 ] || say "$stem x$n $label split $split: identical; receipt: $(cut -c1-400 <<<"$receipt")"
        fi
      done
    done
  done
  say "mixed auto == cpu: $pass identical with the device taking frames, $unsplit identical on the CPU alone, $fail different or failed"
  echo "=== summary"
  cat "$OUT/summary.txt"
}

case "${1:-}" in
  stage) shift; stage_here "$@" ;;
  run) shift; run_there "$@" ;;
  *) echo "usage: mixed_checks.sh stage STAGE [BUILD_DIR] [FIXTURES_DIR] | run STAGE" >&2; exit 2 ;;
esac
