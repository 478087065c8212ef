#!/bin/bash
# cambi_cuda's speed and exactness in one device call (under 4 minutes on an H100/H200 with 16 cores),
# over what stage_cambi_speed.sh staged beside this script (bin/ with vqtwin, twin_harness and
# twin_device_time; fx.tar.xz; gen_y4m.py, json_same.py). Speed first, on an idle GPU:
#   1. device time per frame (twin_device_time: 1080p and 4K, 8 and 10 bits);
#   2. -n --feature cambi alone, whole process, 1080p 8-bit, $LONG (600) frames of generated content, 16
#      threads, cpu against cuda, start-up from a 1-frame run of the same command (as speed_checks.sh's
#      FEATURES_ALONE): whole, once started (whole minus start-up) and the engine fps, cuda's JSON
#      against cpu's at --precision max; the high-resolution speed-up on the same pair (8 frames);
# then at once:
#   3. the twin harness of cambi_cuda: its full generated matrix in 6 shards and the fixtures;
#   4. its planted bugs, each must make the harness exit 1 (cambi_cuda_mask_ignored on the quick
#      generated matrix; cambi_cuda_sum_low_bit on the fixtures: generated pictures have cambi 0);
#   5. the CLI, --backend cuda against cpu at --precision max, on every fixture pair for seven cambi
#      option sets, and the heatmap files byte for byte (they take the path that reads every value back).
# SUMMARY lines at the end; $OUT gets summary.txt and logs.tgz.
#   bash DIR/cambi_speed_checks.sh        (knobs: LONG, THREADS, HARNESS_S, PY, DIR_IN for the inputs)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DEST=${OUT:-/tmp/cambi-speed-out}
mkdir -p "$DEST"
bin=$here/bin
chmod +x "$bin"/* 2>/dev/null
T=$(mktemp -d)
OUT=$T/logs
mkdir -p "$OUT/cli"
tar -xJf "$here/fx.tar.xz" -C "$T"
fx=$T/fx
export bin fx OUT T
PY=${PY:-python3}
LONG=${LONG:-600}
THREADS=${THREADS:-16}
H=${HARNESS_S:-120}
IN=${DIR_IN:-/dev/shm/cambi-speed}
mkdir -p "$IN"
t0=$SECONDS
say() { echo "SUMMARY: $*" >> "$OUT/summary.txt"; }
nvidia-smi -L

# 1. Device time per frame.
timeout 60 "$bin/twin_device_time" --backend cuda --sizes 1920x1080,3840x2160 --depths 8,10 --twins cambi_cuda --reps 20 \
  --ordered-sums 0 > "$OUT/bench.log" 2>&1
echo "bench rc=$?"; cat "$OUT/bench.log"
while read -r line; do say "device time: $line"; done < <(grep -E 'cambi' "$OUT/bench.log")

# 2. Whole process, alone.
"$PY" "$here/gen_y4m.py" "$IN/ref.y4m" 1920 1080 "$LONG" --distinct 24 &
"$PY" "$here/gen_y4m.py" "$IN/dist.y4m" 1920 1080 "$LONG" --distinct 24 --dist &
wait
run() {  # TAG BACKEND FRAMES ARGS...: prints the wall seconds
  local tag=$1 be=$2 n=$3; shift 3
  local s e rc
  s=$(date +%s.%N)
  timeout 60 "$bin/vqtwin" -q -r "$IN/ref.y4m" -d "$IN/dist.y4m" "$@" --backend "$be" --threads "$THREADS" \
    --frame_cnt "$n" --precision max --json -o "$OUT/$tag.json" 2> "$OUT/$tag.err"
  rc=$?
  e=$(date +%s.%N)
  if [ $rc != 0 ]; then echo "FAILED[rc=$rc: $(grep -v warning "$OUT/$tag.err" | head -1 | cut -c1-120)]"; return 1; fi
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }'
}
engine() { "$PY" -c "import json, sys; print('%.1f' % json.load(open(sys.argv[1])).get('fps', 0))" "$1" 2>/dev/null || echo 0; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else printf "n/a" }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a - b; else printf "n/a" }'; }
line="-n --feature cambi 1920x1080 x$LONG, $THREADS threads:"
declare -A whole=() start=() eng=()
for b in cpu cuda; do
  start[$b]=$(run alone_${b}_1 $b 1 -n --feature cambi)
  whole[$b]=$(run alone_$b $b "$LONG" -n --feature cambi)
  eng[$b]=$(engine "$OUT/alone_$b.json")
  line="$line $b ${whole[$b]} s (start-up ${start[$b]} s, engine ${eng[$b]} fps);"
done
once_cpu=$(minus "${whole[cpu]}" "${start[cpu]}"); once_dev=$(minus "${whole[cuda]}" "${start[cuda]}")
cmp=$("$PY" "$here/json_same.py" "$OUT/alone_cpu.json" "$OUT/alone_cuda.json" 2>&1 | tail -1)
say "$line cuda/cpu: whole process $(ratio "${whole[cpu]}" "${whole[cuda]}"), once started $(ratio "$once_cpu" "$once_dev") (target >= 5x), engine fps $(ratio "${eng[cuda]}" "${eng[cpu]}"); $cmp"
for spec in cambi=cambi_high_res_speedup=1080:full_ref=true cambi=cambi_high_res_speedup=1080:enc_bitdepth=8:max_log_contrast=4; do
  tag=hrs_$(echo "$spec" | tr -c 'a-z0-9\n' '_')
  run ${tag}_cpu cpu 8 -n --feature "$spec" > /dev/null; run ${tag}_cuda cuda 8 -n --feature "$spec" > /dev/null
  say "CLI 1080p x8 --feature $spec cuda vs cpu: $("$PY" "$here/json_same.py" "$OUT/${tag}_cpu.json" "$OUT/${tag}_cuda.json" 2>&1 | tail -1)"
done
rm -rf "$IN"
say "speed part done at $((SECONDS - t0)) s"

# 3 and 4 in the background.
JOBS=()
job() {  # name, args...
  local name=$1; shift
  JOBS+=("$name")
  (timeout "$H" "$bin/twin_harness" "$@" > "$OUT/harness_$name.log" 2>&1; echo $? > "$OUT/harness_$name.rc") &
}
for k in 0 1 2 3 4 5; do job cambi_$k --only cambi_cuda --shard $k/6; done
job cambi_fx --only cambi_cuda --fixtures "$fx" --fixtures-only --frames 8
plant() {  # name, harness args...
  local p=$1; shift
  (VQTWIN_PLANT=$p timeout 90 "$bin/twin_harness" --first-difference --only cambi_cuda "$@" > "$OUT/plant_$p.log" 2>&1
   echo $? > "$OUT/plant_$p.rc") &
}
plant cambi_cuda_mask_ignored --quick
plant cambi_cuda_sum_low_bit --fixtures "$fx" --fixtures-only --frames 2
PLANTS="cambi_cuda_mask_ignored cambi_cuda_sum_low_bit"

# 5. The CLI on every fixture pair.
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
  local r; r=$(python3 "$here/json_same.py" "$o.cpu.json" "$o.cuda.json" 2>&1 | tail -1)
  case "$r" in SAME*fallback*) echo "DIFF $1 $2: $r" ;; SAME*) echo "same $1 $2" ;; *) echo "DIFF $1 $2: $r" ;; esac
}
export -f cli
export here
for ref in "$fx"/*_ref.y4m; do
  stem=$(basename "${ref%_ref.y4m}")
  echo "$stem cambi cambi"
  echo "$stem cambi_full_ref cambi=full_ref=true"
  echo "$stem cambi_enc cambi=enc_width=480:enc_height=270:window_size=49:topk=0.2:tvi_threshold=0.012:max_log_contrast=3"
  echo "$stem cambi_8bit_pq cambi=enc_bitdepth=8:eotf=pq:cambi_vis_lum_threshold=0.5:max_log_contrast=4:full_ref=true"
  echo "$stem cambi_mlc5 cambi=max_log_contrast=5:window_size=127:cambi_topk=0.9:cambi_max_val=5"
  echo "$stem cambi_hrs cambi=cambi_high_res_speedup=1080:full_ref=true:src_width=1920:src_height=1080"
  echo "$stem cambi_topk cambi=topk=0.001:max_log_contrast=0:window_size=15"
done | timeout "$H" xargs -P 4 -n 3 bash -c 'cli "$0" "$1" "$2"' > "$OUT/cli.log" 2>&1
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
  r=$(python3 "$here/json_same.py" "$OUT/cli/hm_${stem}.cpu.json" "$OUT/cli/hm_${stem}.cuda.json" 2>&1 | tail -1)
  case "$r" in SAME*fallback*) echo "DIFF $stem cambi_heatmaps: $r" ;; SAME*) echo "same $stem cambi_heatmaps" ;;
    *) echo "DIFF $stem cambi_heatmaps: $r" ;; esac >> "$OUT/cli.log"
done
say "cambi heatmap files cuda vs cpu: $hm_same/$hm identical"
wait

runs=$(grep -c . "$OUT/cli.log"); same=$(grep -c '^same' "$OUT/cli.log")
say "CLI --backend cuda vs cpu, --precision max ($(ls "$fx"/*_ref.y4m | wc -l) pairs x 7 cambi sets, heatmaps on 2): $same/$runs identical or refused by both"
grep -v '^same ' "$OUT/cli.log" | head -12
for job in "${JOBS[@]}"; do
  echo "== harness $job (rc $(cat "$OUT/harness_$job.rc" 2>/dev/null))"
  grep -v '^  DIFF\|^    ' "$OUT/harness_$job.log" | tail -4
  grep '^  DIFF\|<-' "$OUT/harness_$job.log" | head -8
  say "harness $job rc=$(cat "$OUT/harness_$job.rc" 2>/dev/null): $(grep -v '^ ' "$OUT/harness_$job.log" | grep -E '_cuda +[0-9]' | tr -s ' ') $(grep -E '^  [a-z_]+ [a-z]' "$OUT/harness_$job.log" | tail -1 | tr -s ' ')"
done
for p in $PLANTS; do
  rc=$(cat "$OUT/plant_$p.rc" 2>/dev/null)
  say "plant $p rc=$rc ($([ "$rc" = 1 ] && echo caught || echo NOT CAUGHT)) $(grep -m1 '^  DIFF' "$OUT/plant_$p.log" | cut -c1-150)"
done
say "total $((SECONDS - t0)) s"
tar -C "$T" -czf "$DEST/logs.tgz" logs
cp "$OUT/summary.txt" "$OUT/bench.log" "$DEST/" 2>/dev/null
echo "=== summary"; cat "$OUT/summary.txt"
