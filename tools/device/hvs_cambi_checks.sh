#!/bin/bash
# Runs on the device machine over what stage_hvs_cambi.sh staged beside this script: psnr_hvs_cuda and
# cambi_cuda.
#  1. Device time per frame of each twin alone on the GPU (twin_device_time: 1080p and 4K, 8 and 10 bits).
#  2. Whole process, 1080p, 120 and 600 frames ($FRAMES) of generated content: vqtwin -n --feature F with
#     --backend cuda and with --backend cpu --threads 16 (wall seconds, fps, the receipt).
#  3. At once: the twin harness of each twin (its full generated matrix, in shards, and the fixtures),
#     each twin's planted bug (the harness must exit 1), and the CLI with --backend cpu and --backend
#     cuda on every fixture pair at --precision max for psnr_hvs and several cambi option sets (JSON
#     equal but for fps/version; the receipt must name only twins).
# SUMMARY lines at the end; $OUT gets summary.txt and logs.tgz.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DEST=${OUT:-/tmp/hvs-cambi-out}
mkdir -p "$DEST"
bin=$here/bin
T=$(mktemp -d)
OUT=$T/logs
mkdir -p "$OUT/cli"
tar -xJf "$here/fx.tar.xz" -C "$T"
fx=$T/fx
export bin fx OUT T
say() { echo "SUMMARY: $*" >> "$OUT/summary.txt"; }
nvidia-smi -L
H=${HARNESS_S:-150}
FRAMES=${FRAMES:-120 600}  # frame counts of the whole-process runs

# 1. Device time per frame.
timeout ${BENCH_S:-50} "$bin/twin_device_time" --sizes 1920x1080,3840x2160 --depths 8,10 \
  --twins psnr_hvs_cuda,cambi_cuda --reps ${BENCH_REPS:-10} --ordered-sums 0 > "$OUT/bench.log" 2>&1
echo "bench rc=$?"; cat "$OUT/bench.log"

# 2. Whole process at 1080p: one generated clip pair of the largest count, each count read with --frame_cnt.
# Wall time (start-up included) and the JSON's fps (frames over the run after start-up).
counts=($FRAMES); max=${counts[-1]}
python3 "$here/gen_y4m.py" "$T/ref.y4m" 1920 1080 "$max" && python3 "$here/gen_y4m.py" "$T/dist.y4m" 1920 1080 "$max" --dist
for n in "${counts[@]}"; do
  for feat in psnr_hvs cambi; do
    for b in "cpu --threads 16" cuda; do
      o="$OUT/fps_${feat}_${n}_${b%% *}"
      t0=$(date +%s.%N)
      "$bin/vqtwin" -q -r "$T/ref.y4m" -d "$T/dist.y4m" --frame_cnt "$n" -n --feature $feat --backend $b --json -o "$o.json" \
        2> "$o.err"; rc=$?
      t1=$(date +%s.%N)
      say "whole process 1080p x$n --feature $feat --backend $b: rc=$rc $(python3 -c "import json,sys
w=$t1-$t0; f=json.load(open(sys.argv[1])).get('fps') if $rc == 0 else None
print('%.2f s wall (%.0f fps), JSON fps %s, receipt %s' % (w, $n / w, f, json.load(open(sys.argv[1])).get('backends') if $rc == 0 else '-'))" "$o.json")"
    done
  done
done
# The high-resolution speed-up starts at a 1080p encode (no fixture is that large): the generated pair,
# 8 frames, CLI --backend cuda against cpu at --precision max.
for spec in cambi=cambi_high_res_speedup=1080:full_ref=true cambi=cambi_high_res_speedup=1080:enc_bitdepth=8:max_log_contrast=4; do
  o="$OUT/hrs_$(echo "$spec" | tr -c 'a-z0-9\n' '_')"
  for b in cpu cuda; do
    "$bin/vqtwin" -q -r "$T/ref.y4m" -d "$T/dist.y4m" --frame_cnt 8 -n --feature "$spec" --precision max --json \
      -o "$o.$b.json" --backend $b 2> "$o.$b.err"
  done
  python3 - "$o.cpu.json" "$o.cuda.json" > "$o.diff" 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rec = b.pop('backends', None); a.pop('backends', None)
for k in ('fps', 'version'):
    a.pop(k, None); b.pop(k, None)
sys.exit(0 if a == b and all(str(v).endswith('_cuda') for v in (rec or {'': ''}).values()) else 1)
PY
  say "CLI 1080p x8 --feature $spec cuda vs cpu: $([ $? = 0 ] && echo identical || echo DIFFERENT)"
done
rm -f "$T/ref.y4m" "$T/dist.y4m"

# 3. Everything else at once.
JOBS=()
job() {  # name, args...
  local name=$1; shift
  JOBS+=("$name")
  (timeout $H "$bin/twin_harness" "$@" > "$OUT/harness_$name.log" 2>&1; echo $? > "$OUT/harness_$name.rc") &
}
for k in 0 1; do job hvs_$k --only psnr_hvs_cuda --shard $k/2; done
job hvs_fx --only psnr_hvs_cuda --fixtures "$fx" --fixtures-only --frames 8
for k in 0 1 2 3 4 5; do job cambi_$k --only cambi_cuda --shard $k/6; done
job cambi_fx --only cambi_cuda --fixtures "$fx" --fixtures-only --frames 8
PLANTS="psnr_hvs_cuda_luma_csf:psnr_hvs_cuda cambi_cuda_mask_ignored:cambi_cuda"
for p in $PLANTS; do
  (VQTWIN_PLANT=${p%%:*} timeout 90 "$bin/twin_harness" --quick --first-difference --only ${p##*:} \
     > "$OUT/plant_${p%%:*}.log" 2>&1; echo $? > "$OUT/plant_${p%%:*}.rc") &
done

cat > "$T/cmp.py" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rec = b.pop('backends', None) or {}
a.pop('backends', None)
for k in ('fps', 'version'):
    a.pop(k, None); b.pop(k, None)
bad = {k: v for k, v in rec.items() if not str(v).endswith('_cuda')}
if bad or not rec:
    print('not all on the device:', bad or 'no receipt'); sys.exit(1)
if a != b:
    for i, (fa, fb) in enumerate(zip(a.get('frames', []), b.get('frames', []))):
        for k in fa['metrics']:
            if fa['metrics'][k] != fb['metrics'].get(k):
                print('frame', i, k, repr(fa['metrics'][k]), repr(fb['metrics'].get(k))); sys.exit(1)
    print('pooled or other fields differ'); sys.exit(1)
PY
cli() {  # $1 = stem, $2 = label, $3 = feature spec
  local o="$OUT/cli/$1_$2"
  "$bin/vqtwin" -q -r "$fx/$1_ref.y4m" -d "$fx/$1_dist.y4m" -n --feature "$3" --precision max --json -o "$o.cpu.json" \
    --backend cpu 2> "$o.cpu.err"; local rc_cpu=$?
  "$bin/vqtwin" -q -r "$fx/$1_ref.y4m" -d "$fx/$1_dist.y4m" -n --feature "$3" --precision max --json -o "$o.cuda.json" \
    --backend cuda 2> "$o.cuda.err"; local rc_cuda=$?
  if [ $rc_cpu != 0 ] || [ $rc_cuda != 0 ]; then
    [ $rc_cpu != 0 ] && [ $rc_cuda != 0 ] && echo "same-refusal $1 $2: $(head -c 120 "$o.cpu.err" | tr '\n' ' ')" ||
      echo "DIFF $1 $2: rc cpu $rc_cpu cuda $rc_cuda $(cat "$o.cpu.err" "$o.cuda.err" | head -c 200 | tr '\n' ' ')"
    return
  fi
  python3 "$T/cmp.py" "$o.cpu.json" "$o.cuda.json" > "$o.diff" 2>&1 && echo "same $1 $2" ||
    echo "DIFF $1 $2: $(cat "$o.diff" "$o.cuda.err" 2>/dev/null | head -c 300 | tr "\n" " ")"
}
export -f cli
for ref in "$fx"/*_ref.y4m; do
  stem=$(basename "${ref%_ref.y4m}")
  echo "$stem psnr_hvs psnr_hvs"
  echo "$stem cambi cambi"
  echo "$stem cambi_full_ref cambi=full_ref=true"
  echo "$stem cambi_enc cambi=enc_width=480:enc_height=270:window_size=49:topk=0.2:tvi_threshold=0.012:max_log_contrast=3"
  echo "$stem cambi_8bit_pq cambi=enc_bitdepth=8:eotf=pq:cambi_vis_lum_threshold=0.5:max_log_contrast=4:full_ref=true"
  echo "$stem cambi_mlc5 cambi=max_log_contrast=5:window_size=127:cambi_topk=0.9:cambi_max_val=5"
  echo "$stem cambi_hrs cambi=cambi_high_res_speedup=1080:full_ref=true:src_width=1920:src_height=1080"
done | timeout $H xargs -P 4 -n 3 bash -c 'cli "$0" "$1" "$2"' > "$OUT/cli.log" 2>&1
# cambi's heatmap files, CPU against CUDA, byte for byte (and the JSON), on two pairs.
hm=0; hm_same=0
for stem in sd_576x324_8bit_420 hd_1280x720_10bit_420; do
  [ -e "$fx/${stem}_ref.y4m" ] || continue
  for b in cpu cuda; do
    "$bin/vqtwin" -q -r "$fx/${stem}_ref.y4m" -d "$fx/${stem}_dist.y4m" -n --precision max --json \
      --feature "cambi=heatmaps_path=$T/hm_${stem}_$b:full_ref=true" -o "$OUT/cli/hm_${stem}.$b.json" --backend $b \
      2> "$OUT/cli/hm_${stem}.$b.err"
  done
  for f in "$T/hm_${stem}_cpu"/*.gray; do
    hm=$((hm + 1))
    cmp -s "$f" "$T/hm_${stem}_cuda/$(basename "$f")" && hm_same=$((hm_same + 1))
  done
  python3 "$T/cmp.py" "$OUT/cli/hm_${stem}.cpu.json" "$OUT/cli/hm_${stem}.cuda.json" > "$OUT/cli/hm_${stem}.diff" 2>&1 \
    && echo "same $stem cambi_heatmaps" >> "$OUT/cli.log" || echo "DIFF $stem cambi_heatmaps: $(head -c 200 "$OUT/cli/hm_${stem}.diff")" >> "$OUT/cli.log"
done
say "cambi heatmap files cuda vs cpu: $hm_same/$hm identical"
wait

runs=$(grep -c . "$OUT/cli.log"); same=$(grep -c '^same' "$OUT/cli.log")
say "CLI --backend cuda vs cpu, --precision max ($(ls "$fx"/*_ref.y4m | wc -l) pairs x psnr_hvs + 6 cambi sets, heatmaps on 2): $same/$runs identical or refused by both"
grep -v '^same ' "$OUT/cli.log" | head -12
for job in "${JOBS[@]}"; do
  echo "== harness $job (rc $(cat "$OUT/harness_$job.rc" 2>/dev/null))"
  grep -v '^  DIFF\|^    ' "$OUT/harness_$job.log" | tail -4
  grep '^  DIFF\|<-' "$OUT/harness_$job.log" | head -8
  say "harness $job rc=$(cat "$OUT/harness_$job.rc" 2>/dev/null): $(grep -v '^ ' "$OUT/harness_$job.log" | grep -E '_cuda +[0-9]' | tr -s ' ') $(grep -E '^  [a-z_]+ [a-z]' "$OUT/harness_$job.log" | tail -1 | tr -s ' ')"
done
for p in $PLANTS; do
  rc=$(cat "$OUT/plant_${p%%:*}.rc" 2>/dev/null)
  say "plant ${p%%:*} rc=$rc ($([ "$rc" = 1 ] && echo caught || echo NOT CAUGHT)) $(grep -m1 '^  DIFF' "$OUT/plant_${p%%:*}.log" | cut -c1-150)"
done
tar -C "$T" -czf "$DEST/logs.tgz" logs
cp "$OUT/summary.txt" "$OUT/bench.log" "$DEST/" 2>/dev/null
cat "$OUT/summary.txt"
