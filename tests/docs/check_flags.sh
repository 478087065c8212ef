#!/bin/bash
# The CLI reference (docs/cli.md) and the man page (docs/vqtwin.1) name every flag `vqtwin --help` lists.
set -euo pipefail
vqtwin=${1:?vqtwin executable}; src=${2:?source folder}
flags=$("$vqtwin" --help | grep -oE '^  (-[a-z], ?)?--[a-z_-]+' | grep -oE -- '--[a-z_-]+' | sort -u)
[[ -n $flags ]] || { echo "no flag found in vqtwin --help"; exit 1; }
man=$(sed 's/\\-/-/g' "$src/docs/vqtwin.1")
missing=0
for f in $flags; do
  grep -qE -- "$f([^a-z_-]|\$)" "$src/docs/cli.md" || { echo "docs/cli.md does not name $f"; missing=1; }
  grep -qE -- "$f([^a-z_-]|\$)" <<<"$man" || { echo "docs/vqtwin.1 does not name $f"; missing=1; }
done
echo "$(wc -w <<<"$flags") flags of vqtwin --help checked in docs/cli.md and docs/vqtwin.1"
exit $missing
