#!/bin/bash
# Records tests/expected/libvmaf_vif_prescale.json: libvmaf's float_vif with vif_prescale /
# vif_prescale_method on decoded fixture pairs, as a given `vmaf` CLI prints them (it must print %.17g,
# a build with its output format changed; this project never builds libvmaf). The cases (pairs and
# feature texts) are listed here; tests/unit/float_vif_prescale_test.cpp runs vqtwin on each and
# compares every value bit for bit.
#   tools/dev/record_vif_prescale.sh VMAF_BIN FIXTURES_DIR > tests/expected/libvmaf_vif_prescale.json
set -euo pipefail
vmaf=${1:?usage: record_vif_prescale.sh VMAF_BIN FIXTURES_DIR}
fixtures=${2:?usage: record_vif_prescale.sh VMAF_BIN FIXTURES_DIR}
frame_cnt=3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
methods=(nearest bilinear bicubic lanczos4)
cases=()  # "pair feature"
for pair in sd_576x324_8bit_420 odd_853x480_8bit_444; do
  for ps in 0.5 0.77 1.3 2.0; do
    for m in "${methods[@]}"; do cases+=("$pair float_vif=vif_prescale=$ps:vif_prescale_method=$m"); done
  done
done
# 10 bits; the range's ends (0.1 and 4, libvmaf refuses 0.09 and 4.01); a factor that keeps the size
# (576.29 x 324.16 rounds to 576 x 324: the plane is copied, the names still say ps).
for m in "${methods[@]}"; do
  cases+=("hd_1280x720_10bit_420 float_vif=vif_prescale=0.77:vif_prescale_method=$m")
  cases+=("sd_576x324_8bit_420 float_vif=vif_prescale=0.1:vif_prescale_method=$m")
  cases+=("sd_576x324_8bit_420 float_vif=vif_prescale=4.0:vif_prescale_method=$m")
done
cases+=("sd_576x324_8bit_420 float_vif=vif_prescale=1.0005:vif_prescale_method=lanczos4")
n=0
for c in "${cases[@]}"; do
  pair=${c%% *} feature=${c#* }
  "$vmaf" --cpumask 255 -q -r "$fixtures/${pair}_ref.y4m" -d "$fixtures/${pair}_dist.y4m" --frame_cnt $frame_cnt \
    --no_prediction --feature "$feature" --json -o "$tmp/$n.json" >/dev/null
  printf '%s\n%s\n' "$pair" "$feature" > "$tmp/$n.case"
  n=$((n + 1))
done
version=$("$vmaf" --version 2>&1)
python3 - "$tmp" "$n" "$frame_cnt" "$version" <<'PY'
import json, sys
tmp, n, frame_cnt, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
print('{"source": "libvmaf 3.2.0 (v3.2.0-13-g%s, its output.c printing %%.17g) CLI: vmaf --cpumask 255 -q -r <pair>_ref.y4m '
      '-d <pair>_dist.y4m --frame_cnt %d --no_prediction --feature <feature> --json, on the fixtures of shared/fixtures '
      'decoded by tests/support/decode_fixtures.sh; each case keeps its frames (frameNum, metrics) as written",' % (version, frame_cnt))
print(' "generator": "tools/dev/record_vif_prescale.sh",')
print(' "frame_cnt": %d,' % frame_cnt)
print(' "cases": [')
for i in range(n):
    pair, feature = open(f"{tmp}/{i}.case").read().split("\n")[:2]
    frames = json.load(open(f"{tmp}/{i}.json"))["frames"]
    sep = "," if i + 1 < n else ""
    print('  ' + json.dumps({"pair": pair, "feature": feature, "frames": frames}, separators=(",", ":")) + sep)
print(' ]}')
PY
