#!/bin/bash
# Compares every extractor with a libvmaf `vmaf` CLI (yours; this project never builds it) on synthetic
# inputs the goldens do not cover: 4:2:0 / 4:2:2 / 4:4:4 at 8, 10, 12 bits (y4m) and 16 bits (raw yuv;
# libvmaf's y4m reader has no 16-bit tags), odd-ish sizes, hard edges (ffmpeg testsrc2 vs a blurred
# copy). Values are compared as printed: bit for bit when the vmaf binary prints %.17g (a build with
# its output format changed), else to its 6 decimals. libvmaf is run with --cpumask 255: its plain C
# path is the reference (spec/DECISIONS.md §9). The CTC presets (--aom_ctc v1.0 ... v7.0, --nflx_ctc
# v1.0: models and features together) run on every input but the 16-bit one (psnr_hvs, in every AOM
# preset, is defined up to 12 bits). Where both CLIs refuse an input (psnr_hvs at 16 bits), that counts
# as agreement; one refusing alone is a mismatch.
#   tools/dev/sweep_vs_libvmaf.sh VMAF_BIN [VQTWIN_BIN]
#   FEATURES="ciede psnr_hvs" PRESETS="" tools/dev/sweep_vs_libvmaf.sh ...   (a subset; PRESETS="" for none)
set -euo pipefail
vmaf=${1:?usage: sweep_vs_libvmaf.sh VMAF_BIN [VQTWIN_BIN]}
vqtwin=${2:-$(cd "$(dirname "$0")/../.." && pwd)/build/tools/vqtwin/vqtwin}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
read -r -a features <<< "${FEATURES:-psnr float_psnr float_ssim float_ms_ssim float_motion motion vif adm float_vif float_adm ciede psnr_hvs float_ansnr float_moment}"
read -r -a presets <<< "${PRESETS-aom_ctc=v1.0 aom_ctc=v2.0 aom_ctc=v3.0 aom_ctc=v4.0 aom_ctc=v5.0 aom_ctc=v6.0 aom_ctc=v7.0 nflx_ctc=v1.0}"
cat > "$tmp/cmp.py" <<'PY'
import json, sys
ours, theirs = (json.load(open(p)) for p in sys.argv[1:3])
n = bad = 0
example = ""
for fo, ft in zip(ours["frames"], theirs["frames"]):
    for k, v in ft["metrics"].items():
        n += 1
        w = fo["metrics"].get(k)
        digits = len(repr(v).split(".")[-1]) if isinstance(v, float) else 0
        same = (w == v) if digits > 8 else (w is not None and v is not None and round(w, 6) == round(v, 6)) or w == v
        if not same:
            bad += 1
            example = example or f" (e.g. {k}: {w} vs {v})"
if len(ours["frames"]) != len(theirs["frames"]):
    bad += 1; example += " frame counts differ"
print(f"{n} values, {bad} differ{example}")
sys.exit(1 if bad else 0)
PY
fail=0
compare() {  # label, name, then the arguments of both CLIs
  local label=$1 name=$2; shift 2
  local ours=0 theirs=0
  "$vqtwin" -q "$@" --json --precision max -o "$tmp/o.json" 2>"$tmp/o.err" || ours=$?
  "$vmaf" --cpumask 255 -q "$@" --json -o "$tmp/l.json" >/dev/null 2>"$tmp/l.err" || theirs=$?
  printf '%-22s %-14s ' "$label" "$name"
  if [[ $ours != 0 && $theirs != 0 ]]; then
    echo "both refuse ($(head -c 100 "$tmp/o.err"))"
  elif [[ $ours != 0 || $theirs != 0 ]]; then
    echo "vqtwin exit $ours, libvmaf exit $theirs: $(head -c 160 "$tmp/o.err" "$tmp/l.err" | tr '\n' ' ')"; fail=1
  else
    python3 "$tmp/cmp.py" "$tmp/o.json" "$tmp/l.json" || fail=1
  fi
  rm -f "$tmp/o.json" "$tmp/l.json"
}
check() {  # label, then the input arguments shared by both CLIs
  local label=$1; shift
  for f in "${features[@]}"; do compare "$label" "$f" "$@" --no_prediction --feature "$f"; done
  [[ $label == *16le* ]] && return
  for p in "${presets[@]}"; do compare "$label" "${p/=/ }" "$@" --"${p%%=*}" "${p#*=}"; done
}
for pf in yuv420p yuv420p10le yuv420p12le yuv422p10le yuv444p12le yuv420p16le; do
  ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=198x180:rate=10 -frames:v 4 -pix_fmt $pf -strict -1 -f yuv4mpegpipe "$tmp/r.y4m"
  ffmpeg -nostdin -loglevel error -i "$tmp/r.y4m" -vf boxblur=2:1 -pix_fmt $pf -strict -1 -f yuv4mpegpipe "$tmp/d.y4m"
  if [[ $pf == *16le ]]; then
    for s in r d; do ffmpeg -nostdin -loglevel error -i "$tmp/$s.y4m" -f rawvideo -pix_fmt $pf "$tmp/$s.yuv"; done
    check "$pf (raw)" -r "$tmp/r.yuv" -d "$tmp/d.yuv" -w 198 -h 180 -p 420 -b 16
  else
    check "$pf" -r "$tmp/r.y4m" -d "$tmp/d.y4m"
  fi
  rm -f "$tmp"/*.y4m "$tmp"/*.yuv
done
exit $fail
