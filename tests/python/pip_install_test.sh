#!/bin/bash
# `pip install .` as the README says, on a copy of the source tree (pip writes its metadata beside
# setup.py), reusing the configured build folder; then the installed module, outside the build, scores
# the shared pair like the CLI (VMAF mean equal bit for bit).
# Usage: pip_install_test.sh PYTHON SOURCE_DIR BUILD_DIR WORK_DIR VQTWIN_CLI REF.y4m DIST.y4m
set -euo pipefail
py=$1 src=$2 build=$3 work=$4 cli=$5 ref=$6 dist=$7
rm -rf "$work"
mkdir -p "$work/src"
(cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -C "$work/src" -xf -
VQTWIN_BUILD_DIR=$build "$py" -m pip install -q --no-build-isolation --no-deps --no-index --target "$work/site" \
  "$work/src" > "$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
expected=$("$cli" -r "$ref" -d "$dist" -q --json --precision max | sed -n '/"pooled_metrics"/,$p' |
           sed -n '/"vmaf": {/,/}/s/.*"mean": \([^,]*\),*/\1/p')
got=$(cd "$work" && PYTHONPATH="$work/site" "$py" -c "import sys, vqtwin
assert vqtwin.__file__.startswith('$work/site'), vqtwin.__file__
print('%.17g' % vqtwin.score(sys.argv[1], sys.argv[2], threads=2)['pooled']['vmaf']['mean'])" "$ref" "$dist")
[ "$got" = "$expected" ] || { echo "FAIL: the pip-installed module's VMAF is '$got', the CLI's '$expected'"; exit 1; }
echo "pip install .: the installed module's VMAF $got equals the CLI's"
