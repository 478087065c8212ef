#!/bin/bash
# Compares every extractor with a libvmaf `vmaf` CLI (yours; this project never builds it) on synthetic
# inputs the goldens do not cover: 4:2:0 / 4:2:2 / 4:4:4 at 8, 10, 12 bits (y4m) and 16 bits (raw yuv;
# libvmaf's y4m reader has no 16-bit tags), odd-ish sizes, hard edges (ffmpeg testsrc2 vs a blurred
# copy). Then cambi, speed_chroma and speed_temporal with option sets beyond the goldens' (EOTFs,
# encode and source sizes, speed-ups, contrast ranges, every speed prescale method and weighting), on
# larger pictures (these features need them) with smooth gradients (banding) and a 1920x1080 one, and
# the bootstrap and v1.0.16 models. Values are compared as printed: bit for bit when the vmaf binary
# prints %.17g (a build with its output format changed), else to its 6 decimals. libvmaf is run with
# --cpumask 255: its plain C path is the reference (spec/DECISIONS.md §9).
#   tools/dev/sweep_vs_libvmaf.sh VMAF_BIN [VQTWIN_BIN]
set -euo pipefail
vmaf=${1:?usage: sweep_vs_libvmaf.sh VMAF_BIN [VQTWIN_BIN]}
vqtwin=${2:-$(cd "$(dirname "$0")/../.." && pwd)/build/tools/vqtwin/vqtwin}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
features=(psnr float_psnr float_ssim float_ms_ssim float_motion motion vif adm float_vif float_adm)
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
check() {  # label, then the input arguments shared by both CLIs
  local label=$1; shift
  for f in "${features[@]}"; do
    "$vqtwin" -q "$@" --no_prediction --feature "$f" --json --precision max -o "$tmp/o.json"
    "$vmaf" --cpumask 255 -q "$@" --no_prediction --feature "$f" --json -o "$tmp/l.json" >/dev/null
    printf '%-22s %-14s ' "$label" "$f"
    python3 "$tmp/cmp.py" "$tmp/o.json" "$tmp/l.json" || fail=1
  done
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

# cambi, speed_*, models: one run per (input, feature text); the feature text is the same on both sides.
check_text() {  # label, feature-or-model arguments (one word), then the input arguments
  local label=$1 what=$2; shift 2
  if [[ $what == version=* ]]; then set -- "$@" --model "$what"; else set -- "$@" --no_prediction --feature "$what"; fi
  "$vqtwin" -q "$@" --json --precision max -o "$tmp/o.json"
  "$vmaf" --cpumask 255 -q "$@" --json -o "$tmp/l.json" >/dev/null 2>&1
  printf '%-22s %-58s ' "$label" "$what"
  python3 "$tmp/cmp.py" "$tmp/o.json" "$tmp/l.json" || fail=1
}
cambi_sets=(cambi cambi=full_ref=true cambi=eotf=pq:tvi_threshold=0.05 cambi=cambi_eotf=pq:max_log_contrast=5
  cambi=max_log_contrast=0:window_size=15 cambi=enc_width=480:enc_height=270:full_ref=true
  cambi=enc_bitdepth=10:topk=0.05 cambi=cambi_topk=1.0:cambi_vis_lum_threshold=10
  cambi=src_width=800:src_height=452:full_ref=true cambi=cambi_max_val=0.5)
speed_sets=(speed_chroma speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear
  speed_chroma=speed_prescale=1.5:speed_prescale_method=bicubic speed_chroma=speed_prescale=0.7:speed_prescale_method=lanczos4
  speed_chroma=speed_kernelscale=2.0:speed_weight_var_mode=3 speed_chroma=speed_weight_var_mode=1:speed_nn_floor=0.3
  speed_chroma=speed_weight_var_mode=2 speed_chroma=speed_weight_var_mode=4 speed_chroma=speed_weight_var_mode=6:speed_sigma_nn=1.0
  speed_temporal speed_temporal=speed_use_ref_diff=true speed_temporal=speed_prescale=0.5:speed_prescale_method=nearest
  speed_temporal=speed_kernelscale=0.5)
model_sets=(version=vmaf_b_v0.6.3 version=vmaf_float_b_v0.6.3 version=vmaf_v1.0.16_3d0h version=vmaf_v1.0.16_5d0h
  version=vmaf_v1.0.16_3d0h_2160 version=vmaf_v1.0.16_hfr_1d5h_2160)
for src in "gradients=s=962x546:c0=0x202040:c1=0x303868:x0=0:y0=0:x1=962:y1=546:speed=0.01:rate=10" \
           "testsrc2=size=962x546:rate=10"; do
  for pf in yuv420p yuv420p10le yuv422p12le yuv444p; do
    ffmpeg -nostdin -y -loglevel error -f lavfi -i "$src" -frames:v 2 -pix_fmt $pf -strict -1 -f yuv4mpegpipe "$tmp/r.y4m"
    ffmpeg -nostdin -y -loglevel error -i "$tmp/r.y4m" -vf "boxblur=2:1,noise=alls=6:allf=t" -pix_fmt $pf -strict -1 -f yuv4mpegpipe "$tmp/d.y4m"
    label="${src%%=*} $pf"
    for f in "${cambi_sets[@]}" "${speed_sets[@]}"; do check_text "$label" "$f" -r "$tmp/r.y4m" -d "$tmp/d.y4m"; done
    if [[ $pf == yuv420p ]]; then for m in "${model_sets[@]}"; do check_text "$label" "$m" -r "$tmp/r.y4m" -d "$tmp/d.y4m"; done; fi
  done
done
# 16 bits (raw yuv): cambi's (v + 32) >> 6 and SpEED's / 256.
for s in r d; do
  vf=$([[ $s == d ]] && echo "-vf boxblur=2:1,noise=alls=6:allf=t" || true)
  ffmpeg -nostdin -y -loglevel error -f lavfi -i "gradients=s=962x546:speed=0.01:rate=10" -frames:v 2 $vf -pix_fmt yuv420p16le -f rawvideo "$tmp/$s.yuv"
done
for f in cambi cambi=full_ref=true:eotf=pq speed_chroma speed_temporal; do
  check_text "gradients yuv420p16le" "$f" -r "$tmp/r.yuv" -d "$tmp/d.yuv" -w 962 -h 546 -p 420 -b 16
done
# 1920x1080: cambi's high-resolution speed-up and the 1080p window.
ffmpeg -nostdin -y -loglevel error -f lavfi -i "gradients=s=1920x1080:speed=0.01:rate=10" -frames:v 2 -pix_fmt yuv420p -f yuv4mpegpipe "$tmp/r.y4m"
ffmpeg -nostdin -y -loglevel error -i "$tmp/r.y4m" -vf "boxblur=2:1" -pix_fmt yuv420p -f yuv4mpegpipe "$tmp/d.y4m"
for f in cambi cambi=cambi_high_res_speedup=1080 cambi=cambi_high_res_speedup=1440 speed_chroma speed_temporal version=vmaf_v1.0.16_1d5h_2160; do
  check_text "gradients 1920x1080" "$f" -r "$tmp/r.y4m" -d "$tmp/d.y4m"
done
exit $fail
