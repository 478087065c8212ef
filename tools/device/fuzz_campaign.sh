#!/bin/bash
# A long fuzzing campaign on the device host's CPU cores (the fuzz targets need no GPU): every target
# for up to RUNS executions (default 10 million), JOBS parallel processes each (default: every core),
# within SECONDS in all, then the corpus merged; one SUMMARY line per target (executions, rate,
# coverage of the merged corpus, corpus size, findings).
#
# Here (builds the targets with the C++ runtime linked in and FFmpeg's libraries dropped from the
# start-up list, strips their debug information, stages them in STAGE, default .device-fuzz):
#   tools/device/fuzz_campaign.sh stage [STAGE]
# On the device, in one call: carry [".device-fuzz"], command
#   SECONDS_BUDGET=240 bash tools/device/fuzz_campaign.sh run .device-fuzz
# Comes back in $OUT: summary.txt, each target's log, the merged corpora (fuzz-corpus.tar.gz: unpack
# into build-fuzz/fuzz-corpus, then UPDATE_CORPUS=1 MERGE_ONLY=1 tools/fuzz.sh commits a small one),
# and any finding's input (fuzz-artifacts.tar.gz).
#
# The device has no FFmpeg: inputs that are not y4m then end at "FFmpeg's libraries could not be
# loaded" (an error line, as on a machine without them), so the campaign does not reach the decoded
# input's code; the runs here and in CI (with FFmpeg) do.
# Time: targets run one after the other (fastest first); each gets the time left divided by the
# targets left, so time a fast target does not use goes to the slower ones.
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: fuzz_campaign.sh stage|run [STAGE]}
stage=${2:-.device-fuzz}

if [ "$mode" = stage ]; then
  set -e
  build=${FUZZ_DEVICE_BUILD:-build-fuzz-device}
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # Same compile flags as tools/fuzz.sh's build (so ccache serves it); only the links differ: the C++
  # runtime linked in, and --as-needed drops FFmpeg's libraries, which the lazy loader dlopen()s.
  CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S . -B "$build" -G Ninja -DVQTWIN_FUZZ=ON -DVQTWIN_CUDA=OFF \
    -DVQTWIN_TESTS=OFF -DVQTWIN_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVQTWIN_STATIC_RUNTIME=ON \
    -DCMAKE_EXE_LINKER_FLAGS=-Wl,--as-needed "${launcher[@]}" >/dev/null
  cmake --build "$build" --target fuzz
  rm -rf "$stage" && mkdir -p "$stage/bin"
  for b in fuzz_y4m fuzz_raw_yuv fuzz_options fuzz_model make_seeds; do
    strip --strip-debug -o "$stage/bin/$b" "$build/tests/fuzz/$b"  # symbols kept: reports name functions
    needs=$(readelf -d "$stage/bin/$b" | grep -o 'NEEDED.*\[.*\]' | grep -v -E 'lib(c|m)\.so' || true)
    [ -z "$needs" ] || { echo "fuzz_campaign: $b needs more than libc and libm: $needs" >&2; exit 1; }
  done
  glibc=$(objdump -T "$stage"/bin/* | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  echo "fuzz_campaign: staged in $stage ($(du -sh "$stage" | cut -f1)); needs $glibc or newer (libc, libm only)"
  exit 0
fi

[ "$mode" = run ] || { echo "usage: fuzz_campaign.sh stage|run [STAGE]" >&2; exit 2; }
OUT=${OUT:-/tmp/vqtwin-fuzz-out}; mkdir -p "$OUT"
budget=${SECONDS_BUDGET:-240}
runs=${RUNS:-10000000}
jobs=${JOBS:-$(nproc)}
work=${FUZZ_WORK:-/dev/shm/vqtwin-fuzz}
targets=${TARGETS:-"fuzz_raw_yuv fuzz_y4m fuzz_model fuzz_options"}
rm -rf "$work" && mkdir -p "$work"
summary() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
: > "$OUT/summary.txt"
start=$(date +%s)

# LeakSanitizer stops the process to scan it; where the sandbox does not allow that, every run would
# "fail": leak checking is then turned off, and the summary says so.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$stage/bin/make_seeds" "$work/probe-seeds" >/dev/null
"$stage/bin/fuzz_raw_yuv" -runs=200 "$work/probe-seeds/fuzz_raw_yuv" >"$work/probe.log" 2>&1
if grep -q 'LeakSanitizer has encountered a fatal error\|LeakSanitizer does not work' "$work/probe.log"; then
  export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
  summary "leak checking unavailable here (LeakSanitizer cannot stop the process): run without it"
fi
summary "host: $(nproc) cores, $jobs jobs a target, budget ${budget}s, up to $runs executions a target; $(ldd --version 2>&1 | head -1)"

left=$(echo $targets | wc -w)
status=0
for t in $targets; do
  now=$(date +%s)
  cap=$(((budget - (now - start)) / left - 5))  # a few seconds for the merge
  left=$((left - 1))
  [ "$cap" -ge 5 ] || { summary "$t: not run (budget spent)"; status=1; continue; }
  TARGETS=$t RUNS=$runs JOBS=$jobs BUILD=$work FUZZ_BIN_DIR=$stage/bin bash tools/fuzz.sh "$cap" \
    >"$OUT/$t.txt" 2>&1 || status=1
  line=$(grep "^$t: exit" "$OUT/$t.txt" | tail -1)
  summary "${line:-$t: no result (see $t.txt)}"
  cp "$work/fuzz-$t.log" "$OUT/$t-fuzz.log" 2>/dev/null
done

tar -C "$work" -czf "$OUT/fuzz-corpus.tar.gz" fuzz-corpus
if [ -n "$(ls "$work/fuzz-artifacts" 2>/dev/null)" ]; then
  tar -C "$work" -czf "$OUT/fuzz-artifacts.tar.gz" fuzz-artifacts
  summary "FINDINGS: $(ls "$work/fuzz-artifacts" | tr '\n' ' ')(fuzz-artifacts.tar.gz)"
fi
summary "done in $(($(date +%s) - start))s, status $status"
exit $status
