#!/bin/bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for SECONDS (default 60), one after
# the other, keeping the corpus between runs. Fails on any finding (crash, sanitizer report, leak,
# timeout, out-of-memory): the input is saved in BUILD/fuzz-artifacts/. Prints executions and
# coverage per target. CI runs it for 60 s a target; run it longer to search deeper:
#   tools/fuzz.sh 3600            # an hour per target
#   JOBS=2 tools/fuzz.sh 600      # two fuzzing processes per target
#   TARGETS="fuzz_model" tools/fuzz.sh 300
# Long campaigns: RUNS=N runs each target for N executions in all (split over JOBS parallel jobs, each
# with -runs=N/JOBS; SECONDS still caps each target's time), then merges the corpus (libFuzzer
# -merge=1: the smallest set of inputs with the same coverage replaces BUILD/fuzz-corpus/TARGET) and
# prints the merged corpus's coverage:
#   RUNS=2000000 JOBS=4 tools/fuzz.sh 3600
#   MERGE_ONLY=1 tools/fuzz.sh    # only merge the corpus (BUILD/fuzz-corpus, the seeds, tests/fuzz/corpus)
#   UPDATE_CORPUS=1 ...           # also copy each merged corpus into tests/fuzz/corpus/TARGET (committed:
#                                 # CI's 60 s runs start from the coverage a campaign reached)
# Prebuilt targets (another machine, e.g. tools/device/fuzz_campaign.sh): FUZZ_BIN_DIR=FOLDER holding
# fuzz_y4m, fuzz_raw_yuv, fuzz_options, fuzz_model and make_seeds skips configure and build; BUILD then
# only holds the corpus, seeds, logs and artifacts.
# Environment: BUILD (default build-fuzz), CC/CXX (default clang/clang++), JOBS (default 1), RUNS,
# MERGE_ONLY, UPDATE_CORPUS, FUZZ_CONFIGURE, FUZZ_BIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
BUILD=${BUILD:-build-fuzz}
JOBS=${JOBS:-1}
RUNS=${RUNS:-}
COMMITTED=tests/fuzz/corpus
TARGETS=${TARGETS:-"fuzz_y4m fuzz_raw_yuv fuzz_options fuzz_model"}
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

BIN=${FUZZ_BIN_DIR:-$BUILD/tests/fuzz}
if [ -z "${FUZZ_BIN_DIR:-}" ]; then
  # FUZZ_CONFIGURE=0: BUILD is already configured with VQTWIN_FUZZ=ON (CI's clang job, which also runs
  # the test suite from it).
  if [ "${FUZZ_CONFIGURE:-1}" != 0 ]; then
    CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S . -B "$BUILD" -G Ninja -DVQTWIN_FUZZ=ON -DVQTWIN_CUDA=OFF \
      -DVQTWIN_TESTS=OFF -DVQTWIN_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "${LAUNCHER[@]}" >/dev/null
  fi
  cmake --build "$BUILD" --target fuzz
fi
mkdir -p "$BUILD"
"$BIN/make_seeds" "$BUILD/fuzz-seeds"
mkdir -p "$BUILD/fuzz-corpus" "$BUILD/fuzz-artifacts"

# -entropic_scale_per_exec_time=1 (below): libFuzzer gives an input less of its time the slower it runs.
# fuzz_options' large pictures cost a hundred times a small one; with it, 40 s from the seeds ran 9x the
# executions and reached more coverage (cov 4673 against 4341). Nothing becomes unreachable: only the
# order in which inputs are mutated changes.
# The largest input each target is given (bytes): small pictures and models are enough to reach
# every branch, and smaller inputs mean more executions.
max_len() { case $1 in fuzz_options) echo 8192 ;; *) echo 65536 ;; esac; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
summary=""
# merge TARGET: the corpus, the seeds and the committed corpus merged into the smallest set with the
# same coverage, which replaces the corpus (and, with UPDATE_CORPUS=1, the committed one).
merge() {
  local t=$1 corpus="$BUILD/fuzz-corpus/$1" merged="$BUILD/fuzz-corpus/$1.merged"
  rm -rf "$merged" && mkdir -p "$merged"
  local dirs=("$corpus" "$BUILD/fuzz-seeds/$t")
  [ -d "$COMMITTED/$t" ] && dirs+=("$COMMITTED/$t")
  "$BIN/$t" -merge=1 -max_len="$(max_len "$t")" -timeout=25 -rss_limit_mb=2560 "$merged" "${dirs[@]}" \
    >"$BUILD/fuzz-$t.merge.log" 2>&1 || { echo "merge of $t failed: $BUILD/fuzz-$t.merge.log"; return 1; }
  rm -rf "$corpus" && mv "$merged" "$corpus"
  # The merge started from an empty folder: what it added is the whole corpus's coverage.
  merged_cov=$(grep -o 'MERGE-OUTER: [0-9]* new files with [0-9]* new features added; [0-9]* new coverage edges' \
    "$BUILD/fuzz-$t.merge.log" | tail -1 | awk '{print "cov: " $10 " ft: " $6}')
  echo "$t: merged corpus $(ls "$corpus" | wc -l) inputs, $(du -sk "$corpus" | cut -f1) KiB, ${merged_cov:-cov: ?}"
  if [ "${UPDATE_CORPUS:-0}" = 1 ]; then
    rm -rf "${COMMITTED:?}/$t" && mkdir -p "$COMMITTED/$t" && cp "$corpus"/* "$COMMITTED/$t/"
  fi
}
if [ "${MERGE_ONLY:-0}" = 1 ]; then
  for t in $TARGETS; do mkdir -p "$BUILD/fuzz-corpus/$t"; merge "$t"; done
  exit 0
fi

for t in $TARGETS; do
  corpus="$BUILD/fuzz-corpus/$t"
  mkdir -p "$corpus"
  log="$BUILD/fuzz-$t.log"
  extra=()
  [ -d "$COMMITTED/$t" ] && extra+=("$COMMITTED/$t")  # read only: new inputs go to the first folder
  [ -n "$RUNS" ] && extra+=(-runs=$(((RUNS + JOBS - 1) / JOBS)))
  [ "$JOBS" -gt 1 ] && extra+=(-jobs="$JOBS" -workers="$JOBS")
  merged_cov=""
  echo "== $t: ${SECONDS_PER_TARGET}s${RUNS:+, $RUNS executions}, $JOBS job(s)"
  rm -f fuzz-[0-9]*.log
  started=$(date +%s%N)
  set +e
  "$BIN/$t" "$corpus" "$BUILD/fuzz-seeds/$t" "${extra[@]}" -max_total_time="$SECONDS_PER_TARGET" \
    -max_len="$(max_len "$t")" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 -entropic_scale_per_exec_time=1 \
    -artifact_prefix="$BUILD/fuzz-artifacts/$t-" >"$log" 2>&1
  rc=$?
  set -e
  wall_ms=$((($(date +%s%N) - started) / 1000000 + 1))
  # With -jobs, each job writes fuzz-N.log into the working folder, and the parent copies it into its
  # own output when the job ends (so $log has every job's statistics once).
  rm -f fuzz-[0-9]*.log
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{s += $2} END {print s + 0}')
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  findings=$(ls "$BUILD/fuzz-artifacts" | grep -c "^$t-" || true)
  [ "$rc" -ne 0 ] && [ "$findings" -eq 0 ] && findings=1
  if [ -n "$RUNS" ] || [ "${UPDATE_CORPUS:-0}" = 1 ]; then
    merge "$t" || status=1
    [ -n "${merged_cov:-}" ] && cov=$merged_cov  # the union of every job's coverage
  fi
  units=$(ls "$corpus" | wc -l)
  rate=$((execs * 1000 / wall_ms))
  line="$t: exit $rc, $execs executions in $((wall_ms / 1000)) s ($rate/s, $JOBS job(s)), ${cov:-cov: ?}, corpus $units inputs, findings $findings"
  echo "$line"
  summary+="$line"$'\n'
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "FINDING in $t (log: $log):"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20
  fi
done
echo "== fuzz summary (${SECONDS_PER_TARGET}s per target${RUNS:+, $RUNS executions}, $JOBS job(s))"
printf '%s' "$summary"
exit $status
