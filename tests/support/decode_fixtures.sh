#!/bin/bash
# Decodes the shared fixtures once: skipped when every .y4m is already there.
set -euo pipefail
src=${1:?fixtures folder}; out=${2:?output folder}
missing=0
for mkv in "$src"/*.mkv; do
  name=${mkv##*/}; [[ -s "$out/${name%.mkv}.y4m" ]] || missing=1
done
if [[ $missing == 0 ]]; then echo "fixtures already decoded in $out"; exit 0; fi
command -v ffmpeg >/dev/null || { echo "ffmpeg is needed to decode the fixtures (apt-get install ffmpeg)"; exit 1; }
exec "$src/decode.sh" "$out"
