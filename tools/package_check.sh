#!/bin/bash
# The Debian package, as a user gets it: `cpack -G DEB` in a built folder, the package's own files unpacked
# into a fresh root (nothing else of the build there), its Depends resolvable on this system, and the installed
# CLI, library, pkg-config file and models at work: the example pair scored (VMAF 77.908555, as command (1)
# prints), a C program built against the package. Then, if pip is here, the Python wheel.
# Usage: tools/package_check.sh BUILD_DIR [WORK_DIR]
set -euo pipefail
build=$(realpath "${1:?build folder}"); work=$(realpath -m "${2:-$(mktemp -d)}")
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work"; mkdir -p "$work"
(cd "$build" && cpack -G DEB -B "$work/cpack" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/cpack/vqtwin_*_amd64.deb)
echo "package: ${deb##*/} ($(du -k "$deb" | cut -f1) KiB)"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
echo "Recommends: $(dpkg-deb -f "$deb" Recommends)"
# Every dependency resolvable from this system's packages (a dry run: nothing is installed).
if command -v apt-get >/dev/null; then
  apt-get install -s -q "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; echo "FAIL: Depends not satisfiable"; exit 1; }
fi
root=$work/root
mkdir -p "$root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/vqtwin usr/lib/libvqtwin.so usr/lib/libvqtwin.a usr/include/vqtwin/vqtwin.h usr/include/vqtwin/session.hpp \
         usr/lib/pkgconfig/vqtwin.pc usr/lib/cmake/vqtwin/vqtwinConfig.cmake usr/share/vqtwin/models/vmaf_v0.6.1.json \
         usr/share/man/man1/vqtwin.1; do
  [[ -e $root/$f ]] || { echo "FAIL: the package lacks /$f"; exit 1; }
done
echo "files: $(dpkg-deb -c "$deb" | grep -vc '/$') (CLI, libraries, headers, pkg-config, CMake package, models, man page present)"
ref=$build/example/ref.y4m dist=$build/example/dist.y4m
out=$(LD_LIBRARY_PATH=$root/usr/lib "$root/usr/bin/vqtwin" -r "$ref" -d "$dist")
echo "$out" | head -2
grep -qx 'vmaf: 77.908555' <<<"$out" || { echo "FAIL: the installed CLI's VMAF is not 77.908555"; exit 1; }
model=$(LD_LIBRARY_PATH=$root/usr/lib "$root/usr/bin/vqtwin" -r "$ref" -d "$dist" --model "path=$root/usr/share/vqtwin/models/vmaf_v0.6.1.json")
grep -qx 'vmaf: 77.908555' <<<"$model" || { echo "FAIL: the packaged model file does not give 77.908555"; exit 1; }
# A C program against the package's library, through its pkg-config file (relocatable: found from its folder).
cat >"$work/app.c" <<'C'
#include <stdio.h>
#include <vqtwin/vqtwin.h>
int main(int argc, char** argv) {
  vqtwin_config* c = vqtwin_config_new();
  vqtwin_results* r;
  double vmaf;
  if (argc != 3 || vqtwin_run_files(c, argv[1], argv[2], &r) != VQTWIN_OK) { puts(vqtwin_last_error()); return 1; }
  if (vqtwin_results_pooled(r, "vmaf", "mean", &vmaf) != VQTWIN_OK) return 1;
  printf("vmaf: %f\n", vmaf);
  vqtwin_results_free(r);
  vqtwin_config_free(c);
  return 0;
}
C
export PKG_CONFIG_PATH=$root/usr/lib/pkgconfig
cc -std=c99 -o "$work/app" "$work/app.c" $(pkg-config --cflags --libs vqtwin)
capi=$(LD_LIBRARY_PATH=$root/usr/lib "$work/app" "$ref" "$dist")
echo "C program through pkg-config: $capi"
[[ $capi == "vmaf: 77.908555" ]] || { echo "FAIL: the C program's VMAF"; exit 1; }
# The wheel, with the Python the build found (its module is built for that one).
py=$(sed -n 's/^_\{0,1\}Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" | head -1)
if [[ -z $py ]] || ! "$py" -c "import pip, wheel" 2>/dev/null; then
  echo "wheel: skipped (no Python module in this build, or no pip and wheel for ${py:-python3})"
else
  mkdir -p "$work/src"
  (cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -C "$work/src" -xf -
  VQTWIN_BUILD_DIR=$build "$py" -m pip wheel -q --no-deps --no-build-isolation --no-index -w "$work/wheel" "$work/src" \
    >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
  wheel=$(ls "$work"/wheel/vqtwin-*.whl)
  "$py" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
assert "vqtwin/__init__.py" in names and any(n.startswith("vqtwin/_vqtwin") and n.endswith(".so") for n in names), names
print("wheel:", sys.argv[1].rsplit("/", 1)[1], len(names), "files")
PY
fi
echo "package check passed"
