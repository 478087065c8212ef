#!/bin/bash
# Device fault drills, on the device machine: each case must end with one clear error line (or,
# under --backend auto, the CPU and one warning line), exit status != 0 where it failed, the frames
# scored so far written, no hang (every case runs under a time limit), and no device memory left
# taken (nvidia-smi's memory.used before and after, and no vqtwin left among its compute apps).
#   tools/device/faults.sh BIN_DIR [WORK_DIR]
# BIN_DIR: a build folder or a folder with vqtwin, cuda_tests and cuda_hog (.device/bin).
# Prints one row per case: case | exit | error line | frames written | leak check, then a verdict;
# exits 1 if a case did not end as expected. Inputs are generated here (tools/device/gen_y4m.py).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin_dir=${1:?usage: faults.sh BIN_DIR [WORK_DIR]}
W=${2:-/tmp/vqtwin-faults}; mkdir -p "$W"
. "$(dirname "$0")/lib.sh"
V=$(find_bin "$bin_dir" vqtwin) || exit 2; T=$(find_bin "$bin_dir" cuda_tests) || exit 2
HOG=$(find_bin "$bin_dir" cuda_hog) || exit 2
gen() { "${PYTHON:-python3}" "$here/gen_y4m.py" "$@"; }
cd "$W" || exit 2
rm -f ./*.json ./*.err ./*.fifo

# Inputs: 1080p (SIZE=WxH for a dry run elsewhere), 120 frames on disk; endless clips through FIFOs
# for the runs that must be cut.
SIZE=${SIZE:-1920x1080}; sw=${SIZE%x*}; sh=${SIZE#*x}
[ -s r.y4m ] || gen r.y4m "$sw" "$sh" 120
[ -s d.y4m ] || gen d.y4m "$sw" "$sh" 120 --dist
MODEL="--model version=vmaf_v0.6.1"

mem_used() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 | tr -d ' '; }
vqtwin_apps() { nvidia-smi --query-compute-apps=pid,process_name --format=csv,noheader | grep -c vqtwin || true; }
frames_in() { local n; n=$(grep -c '"frameNum"' "$1" 2>/dev/null); echo "${n:-0}"; }

failed=0
printf '%-44s | %-4s | %-120s | %-6s | %s\n' case exit "error line (stderr, first line; lines)" frames "leak check"
# row NAME WANT_EXIT WANT_FRAMES NEEDLE: reports the last run (its rc in $rc, stderr in $W/$NAME.err,
# JSON in $W/$NAME.json). WANT_FRAMES: a number, ">0", or "-" (not checked).
row() {
  local name=$1 want=$2 want_frames=$3 needle=$4
  local said; said=$(grep -Ev '^vqtwin: peak memory' "$W/$name.err" 2>/dev/null)
  local lines; lines=$(printf '%s' "$said" | grep -c . || true)
  local frames; frames=$(frames_in "$W/$name.json")
  sleep 1  # the driver's accounting of a process that just ended
  local after; after=$(mem_used)
  local leak="ok (${before} -> ${after} MiB)"
  if [ $((after - before)) -gt 64 ] || [ "$(vqtwin_apps)" != 0 ]; then leak="LEAK (${before} -> ${after} MiB, $(vqtwin_apps) vqtwin apps)"; fi
  local ok=1
  [ "$rc" = "$want" ] || ok=0
  case $want_frames in -) ;; ">0") [ "$frames" -gt 0 ] || ok=0 ;; *) [ "$frames" = "$want_frames" ] || ok=0 ;; esac
  if [ -n "$needle" ]; then [ "$lines" = 1 ] && grep -qF -- "$needle" <<<"$said" || ok=0; fi
  [[ $leak == ok* ]] || ok=0
  [ $ok = 1 ] || failed=$((failed + 1))
  printf '%-44s | %-4s | %-120.120s | %-6s | %s%s\n' "$name" "$rc" "$(head -1 <<<"$said") ($lines)" "$frames" "$leak" \
    "$([ $ok = 1 ] || echo "  <- FAIL (want exit $want, frames $want_frames, one line with: $needle)")"
}
# vq NAME LIMIT ARGS...: vqtwin on the 1080p pair, JSON to NAME.json, stderr to NAME.err.
vq() {
  local name=$1 limit=$2; shift 2
  before=$(mem_used)
  timeout -k 5 "$limit" "$V" -q -r r.y4m -d d.y4m $MODEL --json -o "$name.json" "$@" 2>"$name.err"
  rc=$?
}

# 1. Out of memory at start: another process holds all but 256 MiB.
"$HOG" 256 120 >hog.txt & hog=$!
for _ in $(seq 60); do grep -q holding hog.txt 2>/dev/null && break; sleep 0.5; done
vq oom_at_start_cuda 60 --backend cuda
row oom_at_start_cuda 1 0 "out of memory"
VQTWIN_AUTO_FRAMES_PER_THREAD=0 vq oom_at_start_auto 120 --backend auto
row oom_at_start_auto 0 120 "warning"
kill "$hog"; wait "$hog" 2>/dev/null

# 2. Memory taken by another process mid-run: vqtwin allocates everything at the start, so the
#    run is not affected (all frames, exit 0); the hog gets what is left.
before=$(mem_used)
rm -f a.fifo b.fifo; mkfifo a.fifo b.fifo
gen a.fifo "$sw" "$sh" 3000 & g1=$!; gen b.fifo "$sw" "$sh" 3000 --dist & g2=$!
timeout -k 5 120 "$V" -q -r a.fifo -d b.fifo $MODEL --backend cuda --json -o oom_mid_run.json 2>oom_mid_run.err & p=$!
sleep 1.5; "$HOG" 0 60 >hog2.txt & hog=$!
wait $p; rc=$?; kill "$hog" "$g1" "$g2" 2>/dev/null; wait 2>/dev/null
echo "  (the hog held $(grep -o 'holding [0-9]* MiB' hog2.txt) while the run went on)"
row oom_mid_run 0 3000 ""

# 3. A CUDA call failing mid-run (the 1500th checked call: past the start, before the end) and a kernel that
#    traps at frame 60: one error line, exit 1, the frames scored before it written.
VQTWIN_FAULT=call@1500 vq call_fails_mid_run 60 --backend cuda
row call_fails_mid_run 1 ">0" "CUDA: "
VQTWIN_FAULT=kernel@60 vq kernel_fault_frame60 60 --backend cuda
row kernel_fault_frame60 1 ">0" "CUDA: "
# Under auto the device takes only some frames (the CPU the rest): the fault comes at its 5th upload. Two
# CPU threads, so that the device surely reaches its 5th frame (with 16 threads on an H100 the CPU had
# scored all 120 frames before the device's fifth).
VQTWIN_AUTO_FRAMES_PER_THREAD=0 VQTWIN_FAULT=kernel@5 vq kernel_fault_auto 60 --backend auto --threads 2
row kernel_fault_auto 1 ">0" "CUDA: "

# 4. --gpu naming a device that does not exist.
vq gpu_does_not_exist 30 --backend cuda --gpu 99
row gpu_does_not_exist 1 0 "CUDA devices"
VQTWIN_AUTO_FRAMES_PER_THREAD=0 vq gpu_does_not_exist_auto 120 --backend auto --gpu 99
row gpu_does_not_exist_auto 0 120 "warning"

# 5. SIGINT / SIGTERM while frames are in flight (an endless clip through FIFOs, cut after 4 s):
#    the frames scored written, exit 128 + signal.
for sig in INT TERM; do
  rm -f a.fifo b.fifo; mkfifo a.fifo b.fifo
  gen a.fifo "$sw" "$sh" 1000000 & g1=$!; gen b.fifo "$sw" "$sh" 1000000 --dist & g2=$!
  before=$(mem_used)
  # env --default-signal: a background job starts with SIGINT ignored, and vqtwin keeps it so.
  env --default-signal=INT timeout -k 5 60 "$V" -q -r a.fifo -d b.fifo $MODEL --backend cuda --json \
    -o "sig$sig.json" 2>"sig$sig.err" & p=$!
  sleep 4; kill -"$sig" "$p"; wait "$p"; rc=$?
  kill "$g1" "$g2" 2>/dev/null; wait 2>/dev/null; rm -f a.fifo b.fifo
  [ $sig = INT ] && want=130 || want=143
  row "sig$sig" "$want" ">0" "interrupted by SIG$sig: writing the"
done

# 6. Two and sixteen vqtwin processes on one GPU: every run exits 0 with the single run's numbers.
vq single 120 --backend cuda
row single 0 120 ""
strip() { grep -v '"fps"' "$1"; }
for n in 2 16; do
  before=$(mem_used)
  pids=()
  for i in $(seq "$n"); do
    timeout -k 5 300 "$V" -q -r r.y4m -d d.y4m $MODEL --backend cuda --json -o "p$n.$i.json" 2>"p$n.$i.err" & pids+=($!)
  done
  bad=0
  for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
  differ=0
  for i in $(seq "$n"); do cmp -s <(strip single.json) <(strip "p$n.$i.json") || differ=$((differ + 1)); done
  cat p$n.*.err >"processes_$n.err"; cp "p$n.1.json" "processes_$n.json"
  rc=$bad; [ $differ = 0 ] || rc="$bad/$differ differ"
  row "processes_$n" 0 120 ""
done

# 7. A library user: two sessions on one device from two threads (cuda_tests), twice; device
#    memory back after both.
before=$(mem_used)
timeout -k 5 120 "$T" --gtest_filter='SessionCuda.TwoSessions*' >two_sessions.log 2>&1; rc=$?
grep -q '^\[  SKIPPED' two_sessions.log && rc=77  # no device: not a pass
grep -E 'FAILED|Failure' two_sessions.log | head -1 >two_sessions.err; echo '' >two_sessions.json
row two_sessions 0 - ""

echo "faults.sh: $failed case(s) did not end as expected; files in $W"
[ "$failed" = 0 ]
