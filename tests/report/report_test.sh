#!/bin/bash
# One CLI run writes the report and its JSON (pooled at default precision with the report's pools, and
# every value at --precision max); check_report.py holds the page to them and opens it in Chromium.
# Usage: report_test.sh VQTWIN REF.y4m DIST.y4m OUT_DIR
set -euo pipefail
cli=$1 ref=$2 dist=$3 out=$4
here=$(dirname "$0")
mkdir -p "$out"
pools=(--pool mean --pool harmonic_mean --pool min --pool max --pool perc5 --pool perc50)
"$cli" -q -r "$ref" -d "$dist" --feature psnr --threads 2 --json -o "$out/pooled.json" "${pools[@]}" \
  --report "$out/report.html"
"$cli" -q -r "$ref" -d "$dist" --feature psnr --threads 2 --json --precision max -o "$out/max.json"
exec python3 "$here/check_report.py" "$out/report.html" "$out/pooled.json" "$out/max.json" "$out"
