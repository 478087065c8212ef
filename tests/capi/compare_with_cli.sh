#!/bin/bash
# The C API's numbers against the CLI's, byte for byte: capi_test (tests/capi/capi_test.c) writes the
# session's and vqtwin_run_files' JSON at --precision max; the CLI writes its own with the same settings.
# Only the "fps" line (a timing) may differ.
# Usage: compare_with_cli.sh VQTWIN CAPI_TEST REF.y4m DIST.y4m WORKDIR
set -euo pipefail
cli=$1 capi=$2 ref=$3 dist=$4 dir=$5
mkdir -p "$dir"
"$cli" -r "$ref" -d "$dist" --feature psnr --threads 2 -q --json --precision max -o "$dir/cli.json"
"$capi" "$ref" "$dist" "$dir/session.json" "$dir/files.json"
strip() { grep -v '"fps":' "$1"; }
status=0
for out in session files; do
  if cmp -s <(strip "$dir/cli.json") <(strip "$dir/$out.json"); then
    echo "$out.json equals the CLI's JSON ($(grep -c '"frameNum"' "$dir/$out.json") frames)"
  else
    echo "FAIL: $out.json differs from the CLI's JSON:"; diff <(strip "$dir/cli.json") <(strip "$dir/$out.json") | head -20
    status=1
  fi
done
exit $status
