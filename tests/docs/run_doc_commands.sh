#!/bin/bash
# Runs every shell block of the README and docs/ that follows a `<!-- test: sh -->` line, as a user would
# after the README's command (1): in a scratch folder holding build/tools/vqtwin/vqtwin and the example pair
# in build/example. Each block runs with `bash -e`; the first failing line fails the test.
set -euo pipefail
vqtwin=${1:?vqtwin executable}; example=${2:?example folder (ref.y4m, dist.y4m)}; src=${3:?source folder}
work=${4:?scratch folder}
rm -rf "$work"; mkdir -p "$work/build/tools/vqtwin" "$work/build/example"
ln -s "$(realpath "$vqtwin")" "$work/build/tools/vqtwin/vqtwin"
cp "$example/ref.y4m" "$example/dist.y4m" "$work/build/example/"
ln -s "$(realpath "$src/models")" "$work/models"   # the checkout's models, as a user's
blocks=0
for md in "$src/README.md" "$src"/docs/*.md; do
  [[ -e $md ]] || continue
  # Each marked block into its own file: NAME.N.sh
  awk -v out="$work/${md##*/}" '
    /^<!-- test: sh -->$/ { armed = 1; next }
    armed && /^```sh$/ { n++; file = out "." n ".sh"; inside = 1; armed = 0; next }
    inside && /^```$/ { inside = 0; close(file); next }
    inside { print > file }
    { armed = armed && /^$/ }' "$md"
done
for block in "$work"/*.sh; do
  [[ -e $block ]] || break
  echo "::: ${block##*/}"
  (cd "$work" && bash -e -x "$block" >"$block.out" 2>&1) || {
    echo "FAILED: ${block##*/} (its commands and output:)"; cat "$block.out"; exit 1; }
  blocks=$((blocks + 1))
done
echo "$blocks marked command blocks ran"
[[ $blocks -gt 0 ]]
