#!/bin/bash
# compute-sanitizer's four tools over the CUDA code, on the device machine:
#   memcheck (--leak-check full), racecheck, initcheck, synccheck
# each over (1) the CUDA unit tests, (2) the twin harness's reduced matrix (--sanitizer: every twin,
# every depth and chroma format, the smallest and odd sizes, the option sets), split in two shards,
# (3) a short CLI run per twin on a decoded fixture (2 frames, --backend cuda). racecheck and synccheck
# (the slowest; they look at shared memory and barriers, which options do not change) get the
# harness's sizes part only; memcheck and initcheck get its option sets too.
# The four tools run side by side (one process each at a time, 16 cores); every step has a time
# limit so the whole run ends in under 8 minutes. Prints one summary line per tool and exits 1 if any
# tool found an error, a program failed, or a step ran out of time. Logs: $OUT/sanitize/.
#   tools/device/sanitize.sh BIN_DIR FIXTURES_DIR
# BIN_DIR: a build folder (tools/vqtwin/vqtwin, tests/twin_harness, tests/cuda_tests) or a folder
# holding those three binaries (.device/bin as tools/device/prepare.sh stages it).
# FIXTURES_DIR: decoded fixtures (NAME_ref.y4m / NAME_dist.y4m; tests/support/decode_fixtures.sh).
set -uo pipefail
bin_dir=${1:?usage: sanitize.sh BIN_DIR FIXTURES_DIR}
fx=${2:?usage: sanitize.sh BIN_DIR FIXTURES_DIR}
OUT=${OUT:-/tmp/vqtwin-device-out}
log=$OUT/sanitize; mkdir -p "$log"
. "$(dirname "$0")/lib.sh"
V=$(find_bin "$bin_dir" vqtwin) || exit 2; H=$(find_bin "$bin_dir" twin_harness) || exit 2
T=$(find_bin "$bin_dir" cuda_tests) || exit 2
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
[ -x "$CS" ] || { echo "sanitize.sh: compute-sanitizer not found"; exit 2; }
ref=$(ls "$fx"/*_ref.y4m 2>/dev/null | grep -v hd_ | head -1)
[ -n "$ref" ] || { echo "sanitize.sh: no NAME_ref.y4m in $fx"; exit 2; }
dist=${ref%_ref.y4m}_dist.y4m
# Step limits (seconds), each tool's steps one after the other: 180 (unit tests) + 150 (the four
# harness shards side by side) + 11 x 10 (CLI runs; a few seconds each in practice) = 440 s at worst.
LIMIT_TESTS=${LIMIT_TESTS:-180} LIMIT_HARNESS=${LIMIT_HARNESS:-150} LIMIT_CLI=${LIMIT_CLI:-10}
SHARDS=${SHARDS:-4}

# One feature per twin (the twin's own feature name, as --list shows it without _cuda).
twins=$("$V" --list 2>/dev/null | grep -o '[a-z_0-9]*_cuda' | sort -u | sed 's/_cuda$//')
[ -n "$twins" ] || twins="psnr float_psnr float_ssim integer_ssim float_ms_ssim float_motion integer_motion float_vif integer_vif float_adm integer_adm"

# run TOOL NAME LIMIT CMD...: one program under one tool; appends "NAME rc errors" to the tool's tally.
run() {
  local tool=$1 name=$2 limit=$3; shift 3
  local extra=()
  case $tool in
    memcheck) extra=(--leak-check full) ;;
  esac
  VQTWIN_UNDER_SANITIZER=1 timeout -k 10 "$limit" "$CS" --tool "$tool" "${extra[@]}" --print-limit 20 "$@" >"$log/$tool.$name.log" 2>&1
  local rc=$?
  local errors
  errors=$(grep -ho 'ERROR SUMMARY: [0-9]*' "$log/$tool.$name.log" | awk '{s += $3} END {print s + 0}')
  # racecheck's hazard lines (RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)).
  local hazards
  hazards=$(grep -ho 'RACECHECK SUMMARY: [0-9]* hazard' "$log/$tool.$name.log" | awk '{s += $3} END {print s + 0}')
  echo "$name $rc $errors $hazards" >>"$log/$tool.tally"
}

one_tool() {
  local tool=$1
  rm -f "$log/$tool.tally"
  # The unit tests. The fault-injection test (2000 failure points per twin) is memcheck's alone:
  # it checks the error paths free what they took; for the other tools it adds only time.
  local filter='*'
  [ "$tool" = memcheck ] || filter='-*EveryFailurePoint*'
  # Under racecheck the two-sessions test took 17 s on an otherwise idle H100 but ran past 420 s while
  # other processes kept the GPU busy (2026-12-06): run this script with the device to itself.
  run "$tool" cuda_tests "$LIMIT_TESTS" "$T" --gtest_filter="$filter"
  # The harness matrix in SHARDS shards side by side.
  local phases=sanitizer-sizes,sanitizer-sets
  case $tool in racecheck | synccheck) phases=sanitizer-sizes ;; esac
  local k
  for ((k = 0; k < SHARDS; k++)); do
    run "$tool" "harness$k" "$LIMIT_HARNESS" "$H" --quick --phases "$phases" --shard "$k/$SHARDS" &
  done
  wait
  for f in $twins; do
    run "$tool" "cli_$f" "$LIMIT_CLI" "$V" -q -r "$ref" -d "$dist" --backend cuda --feature "$f" -n --frame_cnt 2 \
      --json -o "$log/$tool.cli_$f.json"
  done
}

start=$(date +%s)
for tool in memcheck racecheck initcheck synccheck; do one_tool "$tool" & done
wait
failed=0
for tool in memcheck racecheck initcheck synccheck; do
  # rc 124/137: the step ran out of time; any other non-zero rc: the program failed (or found errors).
  read -r programs errors hazards bad timeouts < <(awk '{n++; e += $3; h += $4; if ($2 != 0) b++; if ($2 == 124 || $2 == 137) t++}
    END {print n + 0, e + 0, h + 0, b + 0, t + 0}' "$log/$tool.tally")
  # Each twin's last phase line holds its tally in that shard.
  cases=$(for f in "$log/$tool".harness*.log; do awk '/sanitizer matrix/ {match($0, /: [0-9]+ cases/); c[$1] = substr($0, RSTART + 2, RLENGTH - 8)}
            END {for (t in c) s += c[t]; print s + 0}' "$f"; done |
          awk '{s += $1} END {print s + 0}')
  status=ok
  [ "$errors" = 0 ] && [ "$bad" = 0 ] || status=FAIL
  [ "$status" = FAIL ] && failed=1
  printf 'SANITIZE %-9s %-4s errors %-5s programs %-3s (failed %s, timed out %s) harness cases %-4s%s\n' \
    "$tool" "$status" "$errors" "$programs" "$bad" "$timeouts" "$cases" \
    "$([ "$tool" = racecheck ] && echo " hazards $hazards")"
  [ "$status" = FAIL ] && awk '$2 != 0 || $3 != 0 {print "    " $1 ": rc " $2 ", " $3 " errors"}' "$log/$tool.tally"
done
echo "sanitize.sh: $(($(date +%s) - start)) s; logs in $log"
exit $failed
