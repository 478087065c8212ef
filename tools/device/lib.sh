# Shared by the device scripts (source it): staged binaries and where to find them.
# Stages carry binaries gzipped (the device tool's tree is limited); each script unpacks what it runs.

# unpack_bins DIR: every DIR/*.gz unpacked in place and made executable.
unpack_bins() {
  local z
  for z in "$1"/*.gz; do [ -e "$z" ] && gunzip -f "$z"; done
  chmod +x "$1"/* 2>/dev/null
  return 0
}

# find_bin DIR NAME: the absolute path of NAME in a build folder (DIR/tools/vqtwin, DIR/tests) or a staged
# bin folder (DIR, unpacked first if NAME.gz is there). Prints an error and fails when it is in none of them;
# callers write `X=$(find_bin DIR NAME) || exit 2`, so a missing binary stops the script.
find_bin() {
  local dir=$1 name=$2 p
  [ -e "$dir/$name.gz" ] && gunzip -f "$dir/$name.gz"
  for p in "$dir/$name" "$dir/tools/vqtwin/$name" "$dir/tests/$name"; do
    [ -f "$p" ] && { chmod +x "$p" 2>/dev/null; realpath "$p"; return 0; }
  done
  echo "$(basename "$0"): $name not found under $dir" >&2
  return 1
}
