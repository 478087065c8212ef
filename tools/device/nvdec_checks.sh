#!/bin/bash
# Decoding on the device (--hwdec cuda, NVDEC through libavcodec's cuda hwaccel) against software
# decoding (--hwdec none), on a GPU machine without FFmpeg. Two steps:
#
#   here:   tools/device/nvdec_checks.sh stage STAGE [BUILD_DIR]
#           a stripped vqtwin (BUILD_DIR, default build-device, a CUDA build with
#           -DVQTWIN_STATIC_RUNTIME=ON), this machine's FFmpeg libraries (stage_ffmpeg.sh), short
#           test streams encoded here with ffmpeg from the shared fixture pairs, this script and
#           STAGE/run.sh; prints the size (the device tool carries 64 MiB at most).
#   device: bash STAGE/run.sh        (= nvdec_checks.sh run STAGE; results in $OUT, default /tmp/nvdec-out)
#
# On the device, for every stream pair: --backend cuda with --hwdec cuda equals --hwdec none byte
# for byte at --precision max (frames, pooled and aggregate values; the receipt and fps aside), and
# the decoding line says NVDEC; also --backend cpu and --backend auto with --hwdec cuda (frames
# copied back to the host). The planted bug VQTWIN_PLANT=nvdec_shift5 (10-bit surfaces shifted by 5)
# must make the 10-bit comparisons differ. The same equality with libavcodec's own context and legacy
# default stream (VQTWIN_HWDEC_STREAM=legacy) and with 4 frame threads (VQTWIN_HWDEC_THREADS=4, fewer
# extra surfaces). H.264 4:4:4 (no NVDEC decoder): --hwdec auto falls back with one warning line and
# software's values, --hwdec cuda is one error line. Then 1080p timings of VMAF, whole process, median of 3
# (--backend cuda with --hwdec none and cuda, auto, cpu): H.264 against H.264 (300 frames), a y4m reference
# against H.264 8-bit and HEVC 10-bit (600 frames), and a ladder of four HEVC renditions against one y4m
# reference in one pass (300 frames); then each NVDEC run's per-input decode report, device busy time and
# start-up steps. One SUMMARY line per check.
set -uo pipefail

stage_here() {
  set -e
  local stage=${1:?usage: nvdec_checks.sh stage STAGE [BUILD_DIR]} build=${2:-build-device}
  local fx=${FX:-/work/shared/fixtures} here
  here=$(cd "$(dirname "$0")" && pwd)
  # The FFmpeg libraries take minutes to compress: kept from an earlier staging into the same folder.
  rm -rf "$stage/streams" "$stage/vqtwin.xz" && mkdir -p "$stage/streams"
  strip -o "$stage/vqtwin" "$build/tools/vqtwin/vqtwin"
  xz -T2 -6 "$stage/vqtwin"
  [ -s "$stage/ffmpeg-libs.tar.xz" ] || bash "$here/stage_ffmpeg.sh" "$stage" >/dev/null
  cp "$here/nvdec_checks.sh" "$stage/"
  printf '#!/bin/bash\nexec bash "$(dirname "$0")/nvdec_checks.sh" run "$(cd "$(dirname "$0")" && pwd)"\n' >"$stage/run.sh"
  local s=$stage/streams ff="ffmpeg -nostdin -v error -y"
  enc() {  # enc NAME FIXTURE_PAIR FRAMES ARGS...: NAME_ref.EXT and NAME_dist.EXT
    local name=$1 pair=$2 n=$3 ext=$4
    shift 4
    for r in ref dist; do
      $ff -i "$fx/${pair}_$r.mkv" -frames:v "$n" "$@" "$s/${name}_$r.$ext" 2>/dev/null ||
        { echo "nvdec_checks: $name not staged (the encoder refused)"; rm -f "$s/${name}"_*; return 0; }
    done
  }
  local x265="-x265-params log-level=error"
  enc h264_8 sd_576x324_8bit_420 24 mp4 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p
  enc hevc_8 sd_576x324_8bit_420 24 mkv -c:v libx265 -preset ultrafast -crf 30 $x265 -pix_fmt yuv420p
  enc hevc_10 hd_1280x720_10bit_420 12 mkv -c:v libx265 -preset ultrafast -crf 30 $x265 -pix_fmt yuv420p10le
  enc hevc_12 sd_576x324_8bit_420 12 mkv -c:v libx265 -preset ultrafast -crf 30 $x265 -pix_fmt yuv420p12le
  enc hevc444_8 odd_853x480_8bit_444 8 mkv -c:v libx265 -preset ultrafast -crf 30 $x265 -pix_fmt yuv444p
  enc hevc444_10 odd_853x480_8bit_444 8 mkv -c:v libx265 -preset ultrafast -crf 30 $x265 -pix_fmt yuv444p10le
  enc av1_8 sd_576x324_8bit_420 12 mkv -c:v libsvtav1 -preset 12 -crf 40 -pix_fmt yuv420p
  enc h264_444 hd_1280x720_8bit_444 6 mkv -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv444p
  # 1080p for the timings (the 48-frame pair looped and scaled up): an H.264 reference and rendition of
  # 300 frames; H.264 8-bit and HEVC 10-bit renditions of 600 frames (scored against a y4m reference made
  # there: the device has no ffmpeg); a ladder of four HEVC 8-bit renditions of 300 frames (CRF 26 to 38).
  local up="-vf scale=1920:1080:flags=bicubic"
  for r in ref dist; do
    $ff -stream_loop 6 -i "$fx/sd_576x324_8bit_420_$r.mkv" $up -frames:v 300 -c:v libx264 -preset veryfast -crf 26 \
      "$s/t1080_h264_$r.mp4"
  done
  local src="-stream_loop 13 -i $fx/sd_576x324_8bit_420_dist.mkv $up"
  $ff $src -frames:v 600 -c:v libx264 -preset veryfast -crf 26 "$s/t600_h264.mp4"
  $ff $src -frames:v 600 -c:v libx265 -preset ultrafast -crf 30 $x265 -pix_fmt yuv420p10le "$s/t600_hevc10.mkv"
  for crf in 26 30 34 38; do
    $ff $src -frames:v 300 -c:v libx265 -preset ultrafast -crf $crf $x265 -pix_fmt yuv420p "$s/ladder_crf$crf.mkv"
  done
  echo "nvdec_checks: staged $(ls "$s" | wc -l) streams; $(du -sh "$stage" | cut -f1) in $stage:"
  du -sh "$stage"/* | sed 's/^/  /'
}

run_there() {
  local stage=${1:?usage: nvdec_checks.sh run STAGE}
  local OUT=${OUT:-/tmp/nvdec-out} s=$stage/streams
  mkdir -p "$OUT" /dev/shm/ff /dev/shm/nvdec
  tar -xJf "$stage/ffmpeg-libs.tar.xz" -C /dev/shm/ff
  export LD_LIBRARY_PATH=/dev/shm/ff${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  local v=/dev/shm/nvdec/vqtwin
  xz -dc "$stage/vqtwin.xz" >"$v" && chmod +x "$v"
  : >"$OUT/summary.txt"
  say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
  nvidia-smi -L 2>/dev/null | head -1
  # The values of a run: its JSON without fps and the receipt ("backends").
  values() { sed '/"backends"/,$d' "$1" | grep -v '"fps"' | sed 's/^  },$/  }/'; }
  score() {  # score OUT_JSON STDERR REF DIST ARGS...
    local json=$1 err=$2 ref=$3 dist=$4
    shift 4
    "$v" -r "$ref" -d "$dist" --precision max --json -o "$json" -q --threads "${THREADS:-8}" "$@" 2>"$err"
  }
  local pass=0 fail=0
  compare() {  # compare NAME REF DIST EXTRA_ARGS...: every --hwdec cuda run equals --hwdec none
    local name=$1 ref=$2 dist=$3
    shift 3
    score "$OUT/$name.none.json" "$OUT/$name.none.err" "$ref" "$dist" --backend cuda --hwdec none "$@" || {
      say "$name: --hwdec none failed: $(tail -1 "$OUT/$name.none.err")"; fail=$((fail + 1)); return; }
    for backend in cuda cpu auto; do
      local t=$name.$backend.cuda
      # auto: the device even for clips this short (the CPU's frames are then copied back).
      if ! VQTWIN_AUTO_FRAMES_PER_THREAD=0 score "$OUT/$t.json" "$OUT/$t.err" "$ref" "$dist" --backend "$backend" \
        --hwdec cuda "$@"; then
        say "$t: FAILED rc!=0: $(tail -1 "$OUT/$t.err")"; fail=$((fail + 1)); continue
      fi
      local how; how=$(grep -o 'decoding: .*' "$OUT/$t.err" | head -1 | cut -c1-120)
      if cmp -s <(values "$OUT/$name.none.json") <(values "$OUT/$t.json"); then
        say "$t: identical to --hwdec none ($how)"; pass=$((pass + 1))
      else
        say "$t: DIFFERS from --hwdec none ($how): $(diff <(values "$OUT/$name.none.json") <(values "$OUT/$t.json") | sed -n 2p)"
        fail=$((fail + 1))
      fi
    done
  }
  for name in h264_8 hevc_8 hevc_10 hevc_12 hevc444_8 hevc444_10 av1_8; do
    local ref; ref=$(ls "$s/${name}_ref".* 2>/dev/null | head -1)
    [ -n "$ref" ] || { say "$name: not staged (no encoder here)"; continue; }
    compare "$name" "$ref" "${ref/_ref./_dist.}" --feature psnr --feature float_ssim
  done
  # The decoder on libavcodec's own context and legacy default stream, and with frame threads.
  for variant in "hevc_10 VQTWIN_HWDEC_STREAM=legacy" "h264_8 VQTWIN_HWDEC_STREAM=legacy" \
    "hevc_10 VQTWIN_HWDEC_THREADS=4" "h264_8 VQTWIN_HWDEC_THREADS=4"; do
    set -- $variant
    local name=$1 env=$2 ref
    ref=$(ls "$s/${name}_ref".* 2>/dev/null | head -1)
    [ -n "$ref" ] && [ -s "$OUT/$name.none.json" ] || continue
    local t=$name.${env#VQTWIN_HWDEC_}
    if ! (export "$env"; score "$OUT/$t.json" "$OUT/$t.err" "$ref" "${ref/_ref./_dist.}" --backend cuda --hwdec cuda \
      --feature psnr --feature float_ssim); then
      say "$name $env: FAILED rc!=0: $(tail -1 "$OUT/$t.err")"; fail=$((fail + 1)); continue
    fi
    if cmp -s <(values "$OUT/$name.none.json") <(values "$OUT/$t.json"); then
      say "$name $env --backend cuda --hwdec cuda: identical to --hwdec none"; pass=$((pass + 1))
    else
      say "$name $env --backend cuda --hwdec cuda: DIFFERS from --hwdec none"; fail=$((fail + 1))
    fi
  done
  say "equality: $pass identical, $fail failed or differing"

  # The planted bug: 16-bit surfaces shifted by 5 instead of 6 (10-bit) or 3 instead of 4 (12-bit).
  for name in hevc_10 hevc_12; do
    local ref; ref=$(ls "$s/${name}_ref".* 2>/dev/null | head -1)
    [ -n "$ref" ] || continue
    VQTWIN_PLANT=nvdec_shift5 score "$OUT/$name.plant.json" "$OUT/$name.plant.err" "$ref" "${ref/_ref./_dist.}" \
      --backend cuda --hwdec cuda --feature psnr &&
      score "$OUT/$name.plainpsnr.json" "$OUT/$name.plainpsnr.err" "$ref" "${ref/_ref./_dist.}" --backend cuda \
        --hwdec none --feature psnr
    if [ $? != 0 ]; then
      say "plant nvdec_shift5 on $name: a run FAILED: $(tail -qn1 "$OUT/$name.plant.err" "$OUT/$name.plainpsnr.err" 2>/dev/null | head -1)"
    elif cmp -s <(values "$OUT/$name.plant.json") <(values "$OUT/$name.plainpsnr.json"); then
      say "plant nvdec_shift5 on $name: NOT CAUGHT (values equal)"
    else
      say "plant nvdec_shift5 on $name: caught (values differ)"
    fi
  done

  # H.264 4:4:4: NVDEC has no such decoder. auto (few threads, so the rule asks for NVDEC) falls back
  # with one warning line; cuda is one error line.
  local r444=$s/h264_444_ref.mkv d444=$s/h264_444_dist.mkv
  score "$OUT/h444.none.json" "$OUT/h444.none.err" "$r444" "$d444" --backend cuda --hwdec none --feature psnr
  THREADS=2 score "$OUT/h444.auto.json" "$OUT/h444.auto.err" "$r444" "$d444" --backend cuda --hwdec auto --feature psnr
  local warned; warned=$(grep -c 'warning: --hwdec auto: NVDEC cannot decode' "$OUT/h444.auto.err")
  if cmp -s <(values "$OUT/h444.none.json") <(values "$OUT/h444.auto.json"); then
    say "h264 4:4:4 auto: software's values, $warned warning line(s): $(grep -m1 'warning: --hwdec' "$OUT/h444.auto.err" | cut -c1-160)"
  else
    say "h264 4:4:4 auto: DIFFERS from software"
  fi
  score "$OUT/h444.cuda.json" "$OUT/h444.cuda.err" "$r444" "$d444" --backend cuda --hwdec cuda --feature psnr
  say "h264 4:4:4 cuda: rc=$? lines=$(wc -l <"$OUT/h444.cuda.err"): $(head -1 "$OUT/h444.cuda.err" | cut -c1-160)"

  # The y4m references of the 600-frame timings, made here from the H.264 rendition (OpenCV's decoder,
  # BGR and back to 4:2:0: any 1080p content serves, the work per frame is the same): 8-bit, and 10-bit
  # (the same samples shifted up) for the HEVC 10-bit rendition.
  python3 - "$s/t600_h264.mp4" /dev/shm/nvdec <<'PY'
import sys, cv2, numpy as np
cap = cv2.VideoCapture(sys.argv[1])
with open(sys.argv[2] + "/ref8.y4m", "wb") as o8, open(sys.argv[2] + "/ref10.y4m", "wb") as o10:
    o8.write(b"YUV4MPEG2 W1920 H1080 F25:1 Ip A1:1 C420jpeg\n")
    o10.write(b"YUV4MPEG2 W1920 H1080 F25:1 Ip A1:1 C420p10 XYSCSS=420P10\n")
    n = 0
    while True:
        ok, bgr = cap.read()
        if not ok:
            break
        yuv = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)
        o8.write(b"FRAME\n"); o8.write(yuv.tobytes())
        o10.write(b"FRAME\n"); o10.write((yuv.astype(np.uint16) << 2).astype("<u2").tobytes())
        n += 1
print(f"y4m references: {n} frames")
PY
  # Whole process, median of 3 (inputs in the page cache): vmaf_v0.6.1 with --backend cuda (--hwdec none,
  # cuda), auto (its own --hwdec auto choice) and cpu; the decoding line of auto's run.
  timeit() {  # timeit LABEL FRAMES ARGS...
    local label=$1 frames=$2
    shift 2
    local times=() failed="" i t0 t1
    for i in 1 2 3; do
      t0=$(date +%s.%N)
      VQTWIN_REPORT_DECODE=1 "$v" "$@" -q --json -o "$OUT/t.json" 2>"$OUT/t.err" ||
        failed="FAILED: $(grep -v 'decode report' "$OUT/t.err" | tail -1 | cut -c1-160) "
      t1=$(date +%s.%N)
      times+=("$(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }")")
    done
    local med; med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
    say "${failed}time $label: median ${med}s, $(awk "BEGIN { printf \"%.0f\", $frames / $med }") frames/s (runs ${times[*]}) $(grep -o 'decoding: .*' "$OUT/t.err" | head -1 | cut -c1-100)"
  }
  local h=$s/t1080_h264 r8=/dev/shm/nvdec/ref8.y4m r10=/dev/shm/nvdec/ref10.y4m
  local ladder=(-d "$s/ladder_crf26.mkv" -d "$s/ladder_crf30.mkv" -d "$s/ladder_crf34.mkv" -d "$s/ladder_crf38.mkv")
  for b in "cuda none" "cuda cuda" "auto auto" "cpu none"; do
    set -- $b
    timeit "H.264 vs H.264 1080p x300 --backend $1 --hwdec $2" 300 -r "$h"_ref.mp4 -d "$h"_dist.mp4 --backend $1 --hwdec $2
    timeit "y4m vs H.264 8-bit 1080p x600 --backend $1 --hwdec $2" 600 -r "$r8" -d "$s/t600_h264.mp4" --backend $1 --hwdec $2
    timeit "y4m vs HEVC 10-bit 1080p x600 --backend $1 --hwdec $2" 600 -r "$r10" -d "$s/t600_hevc10.mkv" --backend $1 --hwdec $2
    timeit "ladder y4m vs 4 HEVC 1080p x300 (frame pairs) --backend $1 --hwdec $2" 1200 -r "$r8" --frame_cnt 300 "${ladder[@]}" \
      --backend $1 --hwdec $2
  done
  # Where the time goes with NVDEC: the per-input decode report and the start-up steps of one run each.
  for pair in "h264 ${h}_ref.mp4 ${h}_dist.mp4" "hevc10 $r10 $s/t600_hevc10.mkv"; do
    set -- $pair
    VQTWIN_REPORT_DECODE=1 VQTWIN_REPORT_DEVICE_BUSY=1 VQTWIN_REPORT_STARTUP=1 "$v" -r "$2" -d "$3" --backend cuda \
      --hwdec cuda -q --json -o "$OUT/t.json" 2>"$OUT/busy.$1.err"
    say "$1 --hwdec cuda VMAF: $(grep -E 'device busy' "$OUT/busy.$1.err" | cut -c1-300)"
    grep -E 'decode report|start-up' "$OUT/busy.$1.err" | sed 's/^vqtwin: //; s|/[^:]*/t[0-9]*_||' | cut -c1-400 | tee -a "$OUT/summary.txt"
  done
  echo "=== summary"
  cat "$OUT/summary.txt"
}

case "${1:-}" in
  stage) shift; stage_here "$@" ;;
  run) shift; run_there "$@" ;;
  *) echo "usage: nvdec_checks.sh stage STAGE [BUILD_DIR] | run STAGE" >&2; exit 2 ;;
esac
