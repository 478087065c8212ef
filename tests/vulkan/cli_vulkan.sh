#!/bin/bash
# The CLI on the Vulkan backend: --list-devices; psnr (all outputs) and the VMAF model with
# --backend vulkan against --backend cpu, every value compared at %.17g; the receipt names the Vulkan
# twin; without a loader one clear error line and a non-zero exit. Exit 77 (skipped) without a
# Vulkan device.
#   cli_vulkan.sh VQTWIN REF.y4m DIST.y4m
set -u
cli=$1 ref=$2 dist=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cli_vulkan: FAIL: $*"; exit 1; }

"$cli" --list-devices > "$tmp/devices" 2>&1 || fail "--list-devices exited $?"
cat "$tmp/devices"
if ! grep -q "^  usable by vqtwin" "$tmp/devices"; then echo "cli_vulkan: skipped: no usable Vulkan device"; exit 77; fi
grep -q "shaderInt64 " "$tmp/devices" || fail "--list-devices does not list the features"

same() {  # same A.json B.json: every frame and pooled value of A in B, bit for bit (as printed, %.17g)
  python3 - "$1" "$2" <<'PY' || fail "values differ: $1 $2"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
n = 0
for fa, fb in zip(a["frames"], b["frames"], strict=True):
    for k, v in fa["metrics"].items():
        assert fb["metrics"][k] == v, (fa["frameNum"], k, v, fb["metrics"].get(k)); n += 1
for k, v in a.get("pooled_metrics", {}).items():
    assert b["pooled_metrics"][k] == v, (k, v, b["pooled_metrics"].get(k)); n += 1
for k, v in a.get("aggregate_metrics", {}).items():
    assert b["aggregate_metrics"][k] == v, (k, v); n += 1
print(f"cli_vulkan: {n} values identical ({sys.argv[2]})")
PY
}

psnr="--feature psnr=enable_mse=true:enable_apsnr=true -n"
"$cli" -r "$ref" -d "$dist" $psnr --backend cpu --precision max --json -o "$tmp/cpu.json" -q || fail "cpu run"
"$cli" -r "$ref" -d "$dist" $psnr --backend vulkan --precision max --json -o "$tmp/vk.json" -q 2> "$tmp/vk.err" ||
  fail "vulkan run: $(cat "$tmp/vk.err")"
same "$tmp/cpu.json" "$tmp/vk.json"
grep -q '"psnr_y": "psnr_vulkan"' "$tmp/vk.json" || fail "the receipt does not name psnr_vulkan: $(grep -A5 receipt "$tmp/vk.json")"

"$cli" -r "$ref" -d "$dist" --model version=vmaf_v0.6.1 --backend cpu --precision max --json -o "$tmp/cpu_vmaf.json" -q ||
  fail "cpu vmaf run"
"$cli" -r "$ref" -d "$dist" --model version=vmaf_v0.6.1 --backend vulkan --precision max --json -o "$tmp/vk_vmaf.json" \
  -q 2> "$tmp/vk_vmaf.err" || fail "vulkan vmaf run: $(cat "$tmp/vk_vmaf.err")"
same "$tmp/cpu_vmaf.json" "$tmp/vk_vmaf.json"
echo "cli_vulkan: vmaf warnings: $(wc -l < "$tmp/vk_vmaf.err") line(s)"; head -3 "$tmp/vk_vmaf.err"

# No loader: one line, non-zero exit.
VQTWIN_VULKAN_LOADER=/nonexistent/libvulkan.so.1 "$cli" -r "$ref" -d "$dist" --feature psnr -n --backend vulkan \
  -q > /dev/null 2> "$tmp/noloader.err"
status=$?
[ $status -ne 0 ] || fail "no loader: exit 0"
[ "$(wc -l < "$tmp/noloader.err")" -eq 1 ] || fail "no loader: not one line: $(cat "$tmp/noloader.err")"
grep -q "no Vulkan loader" "$tmp/noloader.err" || fail "no loader: $(cat "$tmp/noloader.err")"
echo "cli_vulkan: without a loader: exit $status: $(cat "$tmp/noloader.err")"
echo "cli_vulkan: every check passed"
