#!/bin/bash
# Compares vqtwin with a libvmaf `vmaf` CLI (yours; this project never builds it) on inputs and options
# the goldens do not cover. libvmaf is run with --cpumask 255: its plain C path is the reference
# (spec/DECISIONS.md §9). Values are compared as printed: bit for bit when the vmaf binary prints %.17g
# (a build with its output format changed), else to its 6 decimals. Every run compares the per-frame
# values and names, the pooled metrics and the aggregate metrics (name order is left to the goldens:
# libvmaf's depends on its thread timing on pictures this small).
#   1. every extractor on 4:2:0 / 4:2:2 / 4:4:4 at 8, 10, 12 bits (y4m) and 16 bits (raw yuv; libvmaf's
#      y4m reader has no 16-bit tags), odd-ish sizes, hard edges (ffmpeg testsrc2 vs a blurred copy);
#   2. option values of more than 6 significant digits (libvmaf computes with "%g" of the float), in
#      --feature and in --model overloads;
#   3. the same extractor requested twice (libvmaf keeps one context per output-name set, models first);
#   4. --subsample with aggregates and temporal state (libvmaf extracts every frame for TEMPORAL/PREV_REF
#      extractors, writes every Nth);
#   5. 0 against the largest sample value at 8, 10, 12 and 16 bits (raw yuv), every extractor; and 0 against
#      65535 at 10 and 12 bits (out-of-range samples, which libvmaf accepts);
#   6. cambi, speed_chroma and speed_temporal with option sets beyond the goldens' (EOTFs, encode and source
#      sizes, speed-ups, contrast ranges, every speed prescale method and weighting), float_vif's every
#      vif_prescale method (factors below and above 1, the range's ends), on larger pictures with smooth
#      gradients (banding) and a 1920x1080 one, and the bootstrap and v1.0.16 models.
#   FEATURES="ciede psnr_hvs" PRESETS="" pick a subset of 1 (PRESETS="" for none; the presets are
#   --aom_ctc v1.0 ... v7.0 and --nflx_ctc v1.0, run on every format of 1 but 16-bit).
# A run that both programs refuse counts as agreeing. Prints one line per run and a summary.
# float_adm (and the float VMAF models) use the x86 rcpss instruction, whose approximation differs between
# CPU vendors (docs/exactness.md); vqtwin runs with --rcpss $RCPSS (default amd, the CPU of the first
# goldens). Against a stock libvmaf built on this machine give RCPSS=native; RCPSS=amd matches a libvmaf
# whose rcpss is the AMD table (shared/spec/float_adm_rcpss_table.txt) on any CPU.
#   [RCPSS=amd|intel|native] tools/dev/sweep_vs_libvmaf.sh VMAF_BIN [VQTWIN_BIN]
set -uo pipefail
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
def same(w, v):
    if isinstance(v, float) and len(repr(v).split(".")[-1]) <= 8 and isinstance(w, (int, float)):
        return round(w, 6) == round(v, 6)  # a stock libvmaf build prints %.6f
    return w == v
def compare(what, mine, theirs_):
    global n, bad, example
    for k in sorted(set(mine) | set(theirs_)):
        n += 1
        w, v = mine.get(k, "missing"), theirs_.get(k, "missing")
        if not same(w, v):
            bad += 1
            example = example or f" (e.g. {what} {k}: {w} vs {v})"
for fo, ft in zip(ours["frames"], theirs["frames"]):
    compare(f"frame {ft['frameNum']}", fo["metrics"], ft["metrics"])
for name in set(ours.get("pooled_metrics", {})) | set(theirs.get("pooled_metrics", {})):
    compare(f"pooled {name}", ours.get("pooled_metrics", {}).get(name, {}), theirs.get("pooled_metrics", {}).get(name, {}))
compare("aggregate", ours.get("aggregate_metrics", {}), theirs.get("aggregate_metrics", {}))
if len(ours["frames"]) != len(theirs["frames"]):
    bad += 1; example += f" frame counts differ ({len(ours['frames'])} vs {len(theirs['frames'])})"
print(f"{n} values, {bad} differ{example}")
sys.exit(1 if bad else 0)
PY
runs=0 matched=0
# run LABEL ARGS...: one run of both programs with the same arguments.
run() {
  local label=$1; shift
  runs=$((runs + 1))
  local shown="$*"
  printf '%-24s %-84.84s ' "$label" "${shown//$tmp\//}"
  local ours=0 theirs=0
  "$vqtwin" -q --rcpss "${RCPSS:-amd}" "$@" --json --precision max -o "$tmp/o.json" 2>"$tmp/o.err" || ours=$?
  "$vmaf" --cpumask 255 -q "$@" --json -o "$tmp/l.json" >/dev/null 2>"$tmp/l.err" || theirs=$?
  if ((ours && theirs)); then
    echo "both refuse"; matched=$((matched + 1))
  elif ((ours)); then
    echo "vqtwin refuses: $(head -1 "$tmp/o.err")"
  elif ((theirs)); then
    echo "libvmaf fails (status $theirs)"
  elif python3 "$tmp/cmp.py" "$tmp/o.json" "$tmp/l.json"; then
    matched=$((matched + 1))
  fi
}
every_feature() {  # label, then the input arguments
  local label=$1; shift
  for f in "${features[@]}"; do run "$label" "$@" --no_prediction --feature "$f"; done
}
pair() {  # pix_fmt prefix: testsrc2 vs a blurred copy, 198x180, 4 frames, y4m
  ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=198x180:rate=10 -frames:v 4 -pix_fmt "$1" -strict -1 -f yuv4mpegpipe -y "$2.r.y4m"
  ffmpeg -nostdin -loglevel error -i "$2.r.y4m" -vf boxblur=2:1 -pix_fmt "$1" -strict -1 -f yuv4mpegpipe -y "$2.d.y4m"
}

# 1. Formats.
for pf in yuv420p yuv420p10le yuv420p12le yuv422p10le yuv444p12le yuv420p16le; do
  pair $pf "$tmp/f"
  if [[ $pf == *16le ]]; then
    for s in r d; do ffmpeg -nostdin -loglevel error -i "$tmp/f.$s.y4m" -f rawvideo -pix_fmt $pf -y "$tmp/f.$s.yuv"; done
    every_feature "$pf (raw)" -r "$tmp/f.r.yuv" -d "$tmp/f.d.yuv" -w 198 -h 180 -p 420 -b 16
  else
    every_feature "$pf" -r "$tmp/f.r.y4m" -d "$tmp/f.d.y4m"
    # The CTC presets (models and features together); psnr_hvs, in every AOM preset, stops at 12 bits.
    for p in "${presets[@]}"; do run "$pf ${p/=/ }" -r "$tmp/f.r.y4m" -d "$tmp/f.d.y4m" --"${p%%=*}" "${p#*=}"; done
  fi
done

# 2-4 on one 8-bit 4:2:0 pair of 7 frames.
ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=198x180:rate=10 -frames:v 7 -pix_fmt yuv420p -f yuv4mpegpipe -y "$tmp/p.r.y4m"
ffmpeg -nostdin -loglevel error -i "$tmp/p.r.y4m" -vf "boxblur=2:1,noise=alls=8:allf=t" -pix_fmt yuv420p -f yuv4mpegpipe -y "$tmp/p.d.y4m"
in8=(-r "$tmp/p.r.y4m" -d "$tmp/p.d.y4m")

# 2. More than 6 significant digits.
for opt in float_motion=motion_fps_weight=1.2345678 float_motion=motion_blend_factor=0.33333333:motion_blend_offset=12.3456789 \
           motion=motion_fps_weight=1.2345678 float_vif=vif_sigma_nsq=2.0000001 float_vif=vif_enhn_gain_limit=1.23456789 \
           vif=vif_enhn_gain_limit=1.00000001 adm=adm_enhn_gain_limit=1.2345678 float_adm=adm_norm_view_dist=3.14159265 \
           adm=adm_norm_view_dist=2.99999999 psnr=min_sse=0.123456789 float_ssim=scale=2.0; do
  run "digits" "${in8[@]}" --no_prediction --feature "$opt"
done
run "digits (model overload)" "${in8[@]}" --model version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2345678
run "digits (model overload)" "${in8[@]}" --model version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=99.9999999
run "digits (model overload)" "${in8[@]}" --model version=vmaf_float_v0.6.1:float_vif.vif_sigma_nsq=2.00000001

# 3. Duplicate requests.
run "duplicates" "${in8[@]}" --no_prediction --feature float_ssim --feature float_ssim=enable_db=true
run "duplicates" "${in8[@]}" --no_prediction --feature float_ssim=enable_db=true --feature float_ssim
run "duplicates" "${in8[@]}" --no_prediction --feature psnr --feature psnr=enable_mse=true:enable_apsnr=true
run "duplicates" "${in8[@]}" --no_prediction --feature float_motion --feature float_motion=debug=false
run "duplicates" "${in8[@]}" --no_prediction --feature vif=debug=true --feature vif
run "duplicates" "${in8[@]}" --no_prediction --feature float_motion=motion_fps_weight=2 --feature float_motion=motion_fps_weight=2.0000001
run "duplicates" "${in8[@]}" --model version=vmaf_v0.6.1 --feature adm=debug=true
run "duplicates" "${in8[@]}" --model version=vmaf_v0.6.1 --feature motion=motion_fps_weight=1.0000001:debug=true
run "duplicates" "${in8[@]}" --model version=vmaf_float_v0.6.1 --feature float_adm=debug=true --feature float_motion
run "duplicates" "${in8[@]}" --model version=vmaf_v0.6.1 --model version=vmaf_v0.6.1neg:name=vmaf_neg --feature adm=adm_enhn_gain_limit=1

# 4. --subsample.
for n in 2 3; do
  every_feature "subsample $n" "${in8[@]}" --subsample $n
  run "subsample $n" "${in8[@]}" --no_prediction --subsample $n --feature psnr=enable_apsnr=true:enable_mse=true
  run "subsample $n" "${in8[@]}" --subsample $n --model version=vmaf_v0.6.1 --feature float_motion=motion_add_uv=true
  run "subsample $n" "${in8[@]}" --subsample $n --model version=vmaf_float_v0.6.1
done

# 5. 0 against the largest value (frame 0: ref 0, dist max; frame 1 swapped; frame 2 uniform noise in [0, max]
#    in both, independent), raw;
#    "10+" / "12+": 65535 in 10/12-bit files.
for bits in 8 10 12 16 10+ 12+; do
  python3 - "$tmp/x" $bits <<'PY'
import sys
out, bits = sys.argv[1], sys.argv[2]
w, h = 200, 180
top = 65535 if bits.endswith("+") else (1 << int(bits)) - 1
bits = int(bits.rstrip("+"))
size = w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
bps = 2 if bits > 8 else 1
import random
rng = random.Random(bits * 7 + top)
def frame(v): return (v.to_bytes(bps, "little")) * size
def noise(): return b"".join(rng.randint(0, top).to_bytes(bps, "little") for _ in range(size))
open(out + ".r.yuv", "wb").write(frame(0) + frame(top) + noise())
open(out + ".d.yuv", "wb").write(frame(top) + frame(0) + noise())
PY
  every_feature "0 vs max, $bits bits" -r "$tmp/x.r.yuv" -d "$tmp/x.d.yuv" -w 200 -h 180 -p 420 -b ${bits%+}
  run "0 vs max, $bits bits" -r "$tmp/x.r.yuv" -d "$tmp/x.d.yuv" -w 200 -h 180 -p 420 -b ${bits%+} --no_prediction \
      --feature psnr=enable_mse=true:enable_apsnr=true --feature float_motion=motion_add_uv=true
done

# 6. cambi, speed_*, models: one run per (input, feature text); the feature text is the same on both sides.
check_text() {  # label, feature-or-model arguments (one word), then the input arguments
  local label=$1 what=$2; shift 2
  if [[ $what == version=* ]]; then run "$label" "$@" --model "$what"; else run "$label" "$@" --no_prediction --feature "$what"; fi
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
# float_vif's prescale (also tests/expected/libvmaf_vif_prescale.json, on the fixtures).
vif_sets=(float_vif=vif_prescale=0.5 float_vif=vif_prescale=0.77:vif_prescale_method=bilinear
  float_vif=vif_prescale=1.3:vif_prescale_method=bicubic float_vif=vif_prescale=2.0:vif_prescale_method=lanczos4
  float_vif=vif_prescale=0.1:vif_prescale_method=lanczos4 float_vif=vif_prescale=4.0:vif_prescale_method=bilinear
  float_vif=vif_prescale=1.5:vif_prescale_method=nearest float_vif=vif_prescale=0.6:vif_prescale_method=bicubic)
model_sets=(version=vmaf_b_v0.6.3 version=vmaf_float_b_v0.6.3 version=vmaf_v1.0.16_3d0h version=vmaf_v1.0.16_5d0h
  version=vmaf_v1.0.16_3d0h_2160 version=vmaf_v1.0.16_hfr_1d5h_2160)
for src in "gradients=s=962x546:c0=0x202040:c1=0x303868:x0=0:y0=0:x1=962:y1=546:speed=0.01:rate=10" \
           "testsrc2=size=962x546:rate=10"; do
  for pf in yuv420p yuv420p10le yuv422p12le yuv444p; do
    ffmpeg -nostdin -y -loglevel error -f lavfi -i "$src" -frames:v 2 -pix_fmt $pf -strict -1 -f yuv4mpegpipe "$tmp/r.y4m"
    ffmpeg -nostdin -y -loglevel error -i "$tmp/r.y4m" -vf "boxblur=2:1,noise=alls=6:allf=t" -pix_fmt $pf -strict -1 -f yuv4mpegpipe "$tmp/d.y4m"
    label="${src%%=*} $pf"
    for f in "${cambi_sets[@]}" "${speed_sets[@]}" "${vif_sets[@]}"; do check_text "$label" "$f" -r "$tmp/r.y4m" -d "$tmp/d.y4m"; done
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
echo "$runs runs, $matched matched bit for bit (or both refused)"
((runs == matched))
