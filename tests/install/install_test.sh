#!/bin/bash
# The installed tree as a user gets it: `cmake --install` to a temporary prefix, then
#  - the files a user looks for (CLI, libraries with a versioned SONAME, headers, package, .pc, models, man);
#  - the shared library's dynamic symbols: only the API (the C functions of vqtwin.h, the classes and
#    functions include/ marks VQTWIN_API), nothing of std::, nlohmann:: or vqtwin's internals;
#  - a consumer project built with find_package(vqtwin) (C++ shared and static, C), and a C program built
#    with pkg-config (shared, and static with --static), each run on the shared pair and printing VMAF,
#    which must equal the CLI's bit for bit.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR REF.y4m DIST.y4m
set -euo pipefail
build=$1 src=$2 work=$3 ref=$4 dist=$5
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
fail() { echo "FAIL: $*"; exit 1; }

libdir=$(dirname "$(find "$prefix" -name libvqtwin.a | head -1)")
[ -d "$libdir" ] || fail "no libvqtwin.a installed"
for f in bin/vqtwin include/vqtwin/vqtwin.h include/vqtwin/session.hpp include/vqtwin/export.hpp \
         share/man/man1/vqtwin.1 share/vqtwin/models/vmaf_v0.6.1.json; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
for f in libvqtwin.so pkgconfig/vqtwin.pc cmake/vqtwin/vqtwinConfig.cmake cmake/vqtwin/vqtwinConfigVersion.cmake; do
  [ -e "$libdir/$f" ] || fail "$libdir/$f is not installed"
done
soname=$(readelf -d "$libdir/libvqtwin.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[[ $soname =~ ^libvqtwin\.so\.[0-9]+\.[0-9]+$ ]] || fail "SONAME '$soname' is not versioned"
[ -e "$libdir/$soname" ] || fail "$soname is not installed"
ls "$prefix/include/vqtwin" | grep -qv '\.h\(pp\)\?$' && fail "something other than headers in include/vqtwin"
echo "installed: $(cd "$prefix" && find . -type f | wc -l) files, SONAME $soname"

# Exported symbols: each must be part of the public API.
api_class='(Error|Picture|PictureFormat|Results|Pooling|Session)'
api_function='(to_string|parse_backend|write_output|format_number|run|apply_preset|version|describe_extractors|describe_models|describe_devices|write_report|one_percent_low|headline|run_ladder|parse_rcpss)'
nm -D --defined-only "$libdir/$soname" | awk '$2 != "A" {print $3}' | c++filt | sed 's/@@.*//' > "$work/symbols.txt"
grep -Ev "^vqtwin_[a-z_]+$|^vqtwin::$api_class(::|$)|^vqtwin::$api_function(\[abi:cxx11\])?\(|^(typeinfo|typeinfo name|vtable) for vqtwin::$api_class$" \
  "$work/symbols.txt" > "$work/unexpected.txt" || true
if [ -s "$work/unexpected.txt" ]; then
  echo "FAIL: libvqtwin.so exports symbols outside the API:"; head -20 "$work/unexpected.txt"; exit 1
fi
declared=$(grep -o 'vqtwin_[a-z_]*(' "$prefix/include/vqtwin/vqtwin.h" | sort -u | wc -l)
exported=$(grep -c '^vqtwin_' "$work/symbols.txt")
[ "$declared" = "$exported" ] || fail "vqtwin.h declares $declared functions, the library exports $exported"
echo "exports: $(wc -l < "$work/symbols.txt") symbols, all API ($exported C functions)"

expected=$("$prefix/bin/vqtwin" -r "$ref" -d "$dist" -q --json --precision max | sed -n '/"pooled_metrics"/,$p' |
           sed -n '/"vmaf": {/,/}/s/.*"mean": \([^,]*\),*/\1/p')
[ -n "$expected" ] || fail "no VMAF from the installed CLI"
check() {  # NAME COMMAND...: the program's "vmaf X" line must equal the CLI's
  local name=$1 got
  shift
  got=$("$@" "$ref" "$dist" | sed -n 's/^vmaf //p')
  [ "$got" = "$expected" ] || fail "$name printed VMAF '$got', the CLI '$expected'"
  echo "$name: VMAF $got (the CLI's)"
}

cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log"
cmake --build "$work/consumer" >> "$work/consumer.log"
check "find_package C++ (shared)" "$work/consumer/consumer_cpp"
check "find_package C++ (static)" "$work/consumer/consumer_cpp_static"
check "find_package C" "$work/consumer/consumer_c"
readelf -d "$work/consumer/consumer_cpp_static" | grep -q 'NEEDED.*libvqtwin' && fail "the static consumer needs libvqtwin.so"
"$work/consumer/consumer_cpp" "$ref" "$dist" | grep -qx 'psnr_y 60' || fail "the session consumer's psnr_y is not 60"

export PKG_CONFIG_PATH=$libdir/pkgconfig
cc -std=c99 -Wall -Werror -pedantic "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags --libs vqtwin) \
  -o "$work/c_pkgconfig"
LD_LIBRARY_PATH=$libdir check "pkg-config C (shared)" "$work/c_pkgconfig"
cc -std=c99 "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags vqtwin) "$libdir/libvqtwin.a" \
  $(pkg-config --static --libs vqtwin | sed 's/ -lvqtwin / /') -o "$work/c_pkgconfig_static"
readelf -d "$work/c_pkgconfig_static" | grep -q 'NEEDED.*libvqtwin' && fail "the static C program needs libvqtwin.so"
check "pkg-config C (static)" "$work/c_pkgconfig_static"
echo "install test passed"
