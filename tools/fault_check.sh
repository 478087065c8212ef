#!/bin/bash
# Fault and abuse checks of the vqtwin CLI (issue 12): every case must end with the expected exit
# status and one clear stderr line, lose nothing computed, and neither hang nor blow up memory.
# Usage: tools/fault_check.sh [VQTWIN_BINARY] (default build/tools/vqtwin/vqtwin). Prints one line a
# case and exits 1 if any failed. Run by ctest as `fault_script`; needs bash, coreutils, mkfifo.
set -uo pipefail
V=$(realpath "${1:-build/tools/vqtwin/vqtwin}")
W=$(mktemp -d "${TMPDIR:-/tmp}/vqtwin_fault.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
failed=0
cases=0
# ulimit -v cannot be combined with AddressSanitizer (it reserves terabytes): those cases are skipped.
sanitized=0
if grep -aq -e "__asan_init" -e "__tsan_init" "$V" 2>/dev/null; then sanitized=1; fi

# Deterministic bytes: N bytes of a repeating pattern (SEED varies it).
bytes() { yes "vqtwin$2 fault check $2 pattern" | tr -d '\n' | head -c "$1"; }
# y4m: FILE W H FRAMES [SEED] (8-bit 4:2:0).
y4m() {
  local size=$(($2 * $3 + 2 * (($2 + 1) / 2) * (($3 + 1) / 2)))
  { printf 'YUV4MPEG2 W%d H%d F25:1 C420jpeg\n' "$2" "$3"
    for ((f = 0; f < $4; f++)); do printf 'FRAME\n'; bytes "$size" "${5:-0}$f"; done; } >"$1"
}
frames_in() { local n; n=$(grep -c '"frameNum"' "$1" 2>/dev/null); echo "${n:-0}"; }
# N copies of one character.
repeat() { head -c "$1" /dev/zero | tr '\0' "$2"; }

# check NAME STATUS NEEDLE CMD...: runs CMD (a shell string, under a 60 s timeout), expects exit
# STATUS and exactly one stderr line containing NEEDLE (an empty NEEDLE: no stderr at all).
check() {
  local name=$1 want=$2 needle=$3 cmd=$4 extra=${5:-true}
  cases=$((cases + 1))
  local t0=$(date +%s%N)
  timeout -k 5 60 bash -c "$cmd" >out.txt 2>err.txt
  local got=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  # What vqtwin said: without the peak memory report and bash's job notices ("[1]+ Exit 130 ...").
  grep -Ev '^vqtwin: peak memory|^\[[0-9]+\][+-]? ' err.txt >said.txt
  local lines=$(wc -l <said.txt)
  local first=$(head -1 said.txt)
  local ok=1
  [ "$got" = "$want" ] || ok=0
  if [ -z "$needle" ]; then [ "$lines" = 0 ] || ok=0; else
    [ "$lines" = 1 ] || ok=0
    grep -qF -- "$needle" said.txt || ok=0
  fi
  tr -d '\n' <said.txt | LC_ALL=C grep -q '[[:cntrl:]]' && ok=0  # no control bytes reach the terminal
  eval "$extra" || ok=0
  if [ $ok = 1 ]; then printf 'ok    %-46s exit %-3s %6d ms  %s\n' "$name" "$got" "$ms" "${first:0:110}"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-46s exit %s (want %s), %s stderr lines: %s\n' "$name" "$got" "$want" "$lines" "$(head -c 400 said.txt)"
  fi
}
# Peak memory (MiB) of the last run, from VQTWIN_REPORT_PEAK_MEMORY.
peak_below() { local kb=$(awk '/peak memory/ {print $4}' err.txt); [ -n "$kb" ] && [ "$kb" -lt $(($1 * 1024)) ]; }

export VQTWIN_REPORT_PEAK_MEMORY=1
y4m r.y4m 64 48 5; y4m d.y4m 64 48 3 1; y4m big_other.y4m 66 48 3
F="--feature psnr --no_prediction"
bytes $((64 * 48 * 3 / 2 * 3)) 7 >r.yuv
RAW="-w 64 -h 48 -p 420 -b 8"

echo "== defects of issue 12"
check "1 raw yuv through a pipe (/dev/stdin)" 0 "" "cat r.yuv | $V -q -r r.yuv -d /dev/stdin $RAW $F --json -o o.json" \
  '[ "$(grep -c "\"psnr_y\": 60.000000" o.json)" = 3 ]'
check "1 raw yuv through standard input (-)" 0 "" "cat r.yuv | $V -q -r - -d r.yuv $RAW $F --json -o o.json" \
  '[ "$(grep -c "\"psnr_y\": 60.000000" o.json)" = 3 ]'
mkfifo in.fifo
check "1 raw yuv through a FIFO" 0 "" "(timeout 20 sh -c 'cat r.yuv > in.fifo' &); $V -q -r in.fifo -d r.yuv $RAW $F --json -o o.json" \
  '[ "$(grep -c "\"psnr_y\": 60.000000" o.json)" = 3 ]'
if [ $sanitized = 0 ]; then
  check "2 --threads 1024 (thread creation fails)" 1 "could not start thread" "ulimit -v 600000; $V -q -r r.y4m -d r.y4m $F --threads 1024"
  printf 'YUV4MPEG2 W8192 H8192 C444p16\nFRAME\n' >huge.y4m; truncate -s $((8192 * 8192 * 6 + 37)) huge.y4m
  check "2 out of memory in a worker" 1 "out of memory" "ulimit -v 300000; $V -q -r huge.y4m -d huge.y4m $F --threads 2"
fi
printf 'YUV4MPEG2 W16384 H16384 F25:1 C444p16\nFRAME\n' >tiny.y4m
check "3 140-byte header over the size limit" 1 "--max_pixels raises it" "$V -q -r tiny.y4m -d tiny.y4m $F"
check "3 huge header, regular file" 1 "frame 0 is truncated" "$V -q -r tiny.y4m -d tiny.y4m $F --max_pixels 268435456 --threads 8" 'peak_below 200'
check "3 huge header, pipes" 1 "frame 0 is truncated" "cat tiny.y4m | $V -q -r - -d <(cat tiny.y4m) $F --max_pixels 268435456 --threads 8" 'peak_below 200'
check "4 model from /dev/zero" 1 "is not a regular file" "$V -q -r r.y4m -d r.y4m --model path=/dev/zero"
mkfifo model.fifo
check "4 model from a FIFO (no writer: must not block)" 1 "is not a regular file" "$V -q -r r.y4m -d r.y4m --model path=model.fifo"
printf '{' >huge.json; truncate -s 3000000000 huge.json
check "4 model of 3 GB" 1 "a model is at most 16777216" "$V -q -r r.y4m -d r.y4m --model path=huge.json" 'peak_below 200'
{ printf '{"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none", "feature_names": ['
  seq 100000 | sed 's/.*/"VMAF_feature_x&_score"/' | paste -sd,
  printf '], "model": "svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\ntotal_sv 1000\\nrho -1\\nSV\\n'
  for ((i = 0; i < 1000; i++)); do printf '1 1:0.5\\n'; done
  printf '"}}'; } >wide.json
check "5 model of 100000 features" 1 "feature_names has 100000 entries" "$V -q -r r.y4m -d r.y4m --model path=wide.json" 'peak_below 300'
check "6 -o - into /dev/full" 1 "standard output: write failed (No space left on device)" "$V -q -r r.y4m -d r.y4m $F --json -o - >/dev/full"
check "6 summary into /dev/full" 1 "standard output: write failed" "$V -q -r r.y4m -d r.y4m $F >/dev/full"
check "6 standard output closed" 1 "standard output: write failed (Bad file descriptor)" "$V -q -r r.y4m -d r.y4m $F >&-"
check "6 --list into /dev/full" 1 "standard output: write failed" "$V --list >/dev/full"
check "6 output file /dev/full" 1 "/dev/full: write failed (No space left on device)" "$V -q -r r.y4m -d r.y4m $F -o /dev/full"
check "7 name with JSON/XML syntax" 1 "must be 1 to 64 letters" "$V -q -r r.y4m -d r.y4m --model 'version=vmaf_v0.6.1:name=a\"b<c' --json -o o.json"
{ printf 'YUV4MPEG2 W64 H48 C'; repeat 3000 x; printf '\nFRAME\n'; } >longtag.y4m
check "8 3000-byte colour tag" 1 "(3000 bytes)" "$V -q -r longtag.y4m -d r.y4m $F" '[ $(wc -c <err.txt) -lt 400 ]'
printf 'YUV4MPEG2 W64 H48 Z\033]0;title\007\377\nFRAME\n' >esc.y4m
check "8 escape sequence in a header" 1 "unknown y4m header tag 'Z\\x1b]0;title\\x07\\xff'" "$V -q -r esc.y4m -d r.y4m $F"
check "8 120 KB option key" 1 "psnr: unknown option" "$V -q -r r.y4m -d r.y4m --feature psnr=$(repeat 120000 k)=1 -n" '[ $(wc -c <err.txt) -lt 600 ]'
echo "== signals"
# A background job of a non-interactive shell starts with SIGINT ignored, and vqtwin leaves an
# ignored SIGINT ignored (as other tools do); env gives the job the default action back.
BG="env --default-signal=INT"
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 130 || echo 143)
  check "9 SIG$sig keeps the frames computed" $want "vqtwin: interrupted by SIG$sig: writing the" \
    "$BG $V -q -r /dev/zero -d /dev/zero -w 32 -h 32 -p 420 -b 8 $F --json -o sig.json --threads 2 & p=\$!; sleep 1.5; kill -$sig \$p; wait \$p" \
    '[ "$(frames_in sig.json)" -gt 0 ]'
done
# Many frames in flight (VMAF, four workers): the count the message names is the count written.
check "9 SIGINT mid-run: frames named = frames written" 130 "interrupted by SIGINT: writing the" \
  "$BG $V -q -r /dev/zero -d /dev/zero -w 176 -h 144 -p 420 -b 8 --json -o mid.json --threads 4 & p=\$!; sleep 1; kill -INT \$p; wait \$p" \
  'n=$(grep -o "writing the [0-9]* frames" said.txt | grep -o "[0-9]*"); [ -n "$n" ] && [ "$(frames_in mid.json)" = "$n" ]'
check "9 SIGTERM while a pipe stalls" 143 "interrupted by SIGTERM: writing the 2 frames" \
  "mkfifo st.fifo; timeout 20 sh -c 'exec 3>st.fifo; head -c $((37 + 2 * (6 + 4608) + 100)) r.y4m >&3; sleep 5' & $BG $V -q -r st.fifo -d r.y4m $F --json -o st.json & p=\$!; sleep 0.7; kill -TERM \$p; wait \$p" \
  '[ "$(frames_in st.json)" = 2 ]'
# The output goes to a FIFO nobody reads (held open by the shell): after the first SIGINT, writing it
# blocks; the second SIGINT must end the process at once.
mkfifo full.fifo
check "9 second SIGINT exits at once" 130 "interrupted by SIGINT" \
  "exec 5<>full.fifo; $BG $V -q -r /dev/zero -d /dev/zero -w 16 -h 16 -p 420 -b 8 $F --json -o - >full.fifo & p=\$!; sleep 0.5; kill -INT \$p; sleep 0.5; kill -0 \$p || exit 98; kill -INT \$p; sleep 0.3; kill -0 \$p 2>/dev/null && exit 99; wait \$p"
echo "== inputs and outputs"
check "11 folder as input" 1 "is a folder, not a video file" "$V -q -r . -d r.y4m $F"
check "11 output into a missing folder (checked first)" 1 "no/such/o.json: cannot write (No such file or directory)" "$V -q -r /dev/zero -d /dev/zero $RAW $F -o no/such/o.json"
check "11 output is a folder" 1 "cannot write (Is a directory)" "$V -q -r /dev/zero -d /dev/zero $RAW $F -o ."
if [ "$(id -u)" = 0 ]; then unwritable=/proc/vqtwin_fault.json; else mkdir ro; chmod 555 ro; unwritable=ro/o.json; fi
check "11 output not writable" 1 "cannot write" "$V -q -r /dev/zero -d /dev/zero $RAW $F -o $unwritable"
check "11 length mismatch: one warning" 0 "vqtwin: warning: d.y4m ended after 3 frames, r.y4m has 5; scored 3" "$V -q -r r.y4m -d d.y4m $F --json -o o.json" '[ "$(frames_in o.json)" = 3 ]'
check "11 length mismatch, --strict_length" 1 "scored 3 (--strict_length)" "$V -q -r r.y4m -d d.y4m $F --strict_length --json -o o.json" '[ "$(frames_in o.json)" = 3 ]'
head -c $((37 + 3 * 4614 + 6 + 1000)) r.y4m >cut.y4m
check "truncated frame mid-plane keeps earlier frames" 1 "cut.y4m: frame 3 is truncated" "$V -q -r cut.y4m -d r.y4m $F --json -o o.json" '[ "$(frames_in o.json)" = 3 ]'
check "mismatched formats" 1 "pictures differ in size" "$V -q -r r.y4m -d big_other.y4m $F"
y4m zero.y4m 64 48 0
check "zero-frame y4m" 1 "header but no frames" "$V -q -r zero.y4m -d r.y4m $F -o o2.json" '[ ! -e o2.json ]'
: >empty.yuv
check "empty raw file" 1 "file is empty" "$V -q -r empty.yuv -d r.yuv $RAW $F"
check "/dev/zero as y4m" 1 "not a y4m file" "$V -q -r /dev/zero -d r.y4m $F"
check "/dev/zero as raw: the other input decides" 0 "/dev/zero has more" "$V -q -r /dev/zero -d r.yuv $RAW $F --json -o o.json" '[ "$(frames_in o.json)" = 3 ]'
truncate -s 2000000000 sparse.yuv
check "sparse 2 GB raw file of the wrong size" 1 "is not a multiple of the 1920x1080" "$V -q -r sparse.yuv -d sparse.yuv -w 1920 -h 1080 -p 420 -b 8 $F" \
  '[ $ms -lt 2000 ]'
echo "== absurd option values"
check "--threads 1025" 2 "--threads must be a whole number from 0 to 1024" "$V -q -r r.y4m -d r.y4m $F --threads 1025"
check "--threads -1" 2 "--threads" "$V -q -r r.y4m -d r.y4m $F --threads -1"
check "--subsample 0" 2 "--subsample must be a whole number from 1" "$V -q -r r.y4m -d r.y4m $F --subsample 0"
check "--frame_cnt 99999999999" 2 "--frame_cnt" "$V -q -r r.y4m -d r.y4m $F --frame_cnt 99999999999"
check "--precision 99" 2 "--precision must be 0..17 or max" "$V -q -r r.y4m -d r.y4m $F --precision 99"
check "--pool perc1000" 2 "--pool: unknown method 'perc1000'" "$V -q -r r.y4m -d r.y4m $F --pool perc1000"
check "--max_pixels 0" 2 "--max_pixels must be a whole number from 1" "$V -q -r r.y4m -d r.y4m $F --max_pixels 0"
check "-w 99999999" 2 "--width must be a whole number from 1 to 65536" "$V -q -r r.yuv -d r.yuv -w 99999999 -h 48 -p 420 -b 8 $F"
check "-b 9" 1 "--bitdepth must be 8, 10, 12 or 16" "$V -q -r r.yuv -d r.yuv -w 64 -h 48 -p 420 -b 9 $F"
check "psnr min_sse=1e999" 1 "psnr: option 'min_sse' must be a number" "$V -q -r r.y4m -d r.y4m --feature psnr=min_sse=1e999 -n"
check "adm adm_csf_mode=99" 1 "out of range" "$V -q -r r.y4m -d r.y4m --feature adm=adm_csf_mode=99 -n"
check "--backend gpu" 2 "--backend" "$V -q -r r.y4m -d r.y4m $F --backend gpu"
echo "== duplicates"
check "the same feature twice: computed once" 0 "" "$V -q -r r.y4m -d r.y4m --feature psnr --feature psnr -n --json -o o.json" \
  '[ "$(grep -c "\"psnr_y\":" o.json)" = 6 ]'
check "two models writing 'vmaf'" 1 "two models write the score 'vmaf'" "$V -q -r r.y4m -d r.y4m --model version=vmaf_v0.6.1 --model version=vmaf_v0.6.1"

echo "== $cases cases, $failed failed"
[ $failed = 0 ]
