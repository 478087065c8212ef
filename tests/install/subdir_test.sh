#!/bin/bash
# vqtwin inside another project's tree (add_subdirectory, as FetchContent does): configured and built as a
# subproject (no tests, benchmarks or example), the consumer's VMAF equal to the CLI's bit for bit.
# Usage: subdir_test.sh SOURCE_DIR WORK_DIR VQTWIN_CLI REF.y4m DIST.y4m
set -euo pipefail
src=$1 work=$2 cli=$3 ref=$4 dist=$5
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$src/tests/install/subdir" -B "$work" -G Ninja -DVQTWIN_SOURCE_DIR="$src" -DVQTWIN_PYTHON=OFF -DVQTWIN_WERROR=ON \
  -DVQTWIN_CUDA=OFF "${launcher[@]}" > "$work.log"
cmake --build "$work" --target consumer_cpp >> "$work.log"
for t in unit_tests golden_tests vqtwin_bench make_example; do
  grep -q "^build $t:\|^build [^:]*/$t:" "$work/build.ninja" && { echo "FAIL: the subproject defines $t"; exit 1; }
done
expected=$("$cli" -r "$ref" -d "$dist" -q --json --precision max | sed -n '/"pooled_metrics"/,$p' |
           sed -n '/"vmaf": {/,/}/s/.*"mean": \([^,]*\),*/\1/p')
got=$("$work/consumer_cpp" "$ref" "$dist" | sed -n 's/^vmaf //p')
[ -n "$got" ] && [ "$got" = "$expected" ] || { echo "FAIL: VMAF '$got', the CLI '$expected'"; exit 1; }
echo "add_subdirectory consumer: VMAF $got (the CLI's)"
