#!/bin/bash
# ThreadSanitizer run of the CLI: builds vqtwin with -fsanitize=thread (GCC) and scores every decoded
# fixture pair with --threads 8, every extractor at once (the VMAF model's VIF, ADM and motion, and
# all the others, temporal ones included), so frames and contexts run concurrently. Any data race
# report fails the run (TSan's exit code 66). CI runs it (.ci/run, job tsan). TSan is 10-20x slower,
# so each pair stops after TSAN_FRAMES frames (default 10: more than the 8 workers).
#   tools/dev/tsan_cli.sh FIXTURES_DIR [BUILD_DIR]     (FIXTURES_DIR: the *_ref.y4m / *_dist.y4m pairs
#                                                      the tests decode, e.g. build/fixtures)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=${1:?usage: tsan_cli.sh FIXTURES_DIR [BUILD_DIR]}
build=${2:-$here/build-tsan}
san="-fsanitize=thread -fno-omit-frame-pointer"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVQTWIN_TESTS=OFF -DVQTWIN_BENCH=OFF \
  -DVQTWIN_CUDA=OFF -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
cmake --build "$build" --target vqtwin
cli=$build/tools/vqtwin/vqtwin
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
features=(--feature psnr=enable_apsnr=true --feature float_psnr --feature float_ssim --feature float_ms_ssim
          --feature integer_ssim --feature float_motion=motion_add_uv=true --feature float_vif --feature float_adm)
pairs=0
for ref in "$fixtures"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  [ -f "$dist" ] || continue
  t0=$SECONDS
  "$cli" -q -r "$ref" -d "$dist" --model version=vmaf_v0.6.1 "${features[@]}" --threads 8 \
    --frame_cnt "${TSAN_FRAMES:-10}" --json -o /dev/null
  echo "tsan: $(basename "${ref%_ref.y4m}"): no race ($((SECONDS - t0)) s)"
  pairs=$((pairs + 1))
done
[ "$pairs" -gt 0 ] || { echo "tsan: no fixture pairs in $fixtures" >&2; exit 1; }

# A ladder (renditions sharing one reader of the reference, at different offsets) and a batch (passes
# at once), on the first pair.
ref=$(ls "$fixtures"/*_ref.y4m | head -1); dist=${ref%_ref.y4m}_dist.y4m
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$cli" -q -r "$ref" -d "$dist" -d "$dist" -d "$ref" --threads 8 --frame_cnt "${TSAN_FRAMES:-10}" --sync auto \
  --json -o "$tmp/ladder_{index}.json"
echo "tsan: ladder of 3: no race"
printf 'reference,distorted,output,options\n%s,%s,a.json,--frame_skip_ref 1\n%s,%s,b.json,\n%s,%s,c.json,\n%s,%s,d.json,\n' \
  "$ref" "$dist" "$ref" "$dist" "$dist" "$ref" "$dist" "$dist" > "$tmp/m.csv"
"$cli" batch "$tmp/m.csv" -q --threads 8 --jobs 3 --frame_cnt "${TSAN_FRAMES:-10}"
echo "tsan: batch of 4 rows in 2 passes: no race"
