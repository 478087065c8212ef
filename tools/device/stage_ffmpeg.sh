#!/bin/bash
# Stages this machine's FFmpeg libraries (libavformat, libavcodec, libavutil, libswscale, libswresample)
# and everything they load, for a device machine that has no FFmpeg: vqtwin loads FFmpeg lazily
# (src/common/lazy_ffmpeg.cpp dlopen()s the sonames), so these files on LD_LIBRARY_PATH are all it needs.
# glibc (libc, libm, libpthread, libdl, librt, the loader, ...) and the C++/GCC runtimes are left out:
# the device machine's own must be used.
#   tools/device/stage_ffmpeg.sh STAGE            -> STAGE/ffmpeg-libs.tar.xz (and its unpack lines)
# On the device, in the command of the same call:
#   mkdir -p /dev/shm/ff && tar -xJf STAGE/ffmpeg-libs.tar.xz -C /dev/shm/ff
#   export LD_LIBRARY_PATH=/dev/shm/ff${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
set -euo pipefail
stage=${1:?usage: stage_ffmpeg.sh STAGE}
libdir=/usr/lib/x86_64-linux-gnu
roots=()
for lib in avformat avcodec avutil swscale swresample; do
  f=$(ls "$libdir"/lib$lib.so.[0-9]* 2>/dev/null | grep -E "lib$lib\.so\.[0-9]+$" | head -1)
  [ -n "$f" ] || { echo "stage_ffmpeg: lib$lib is not installed (apt-get install lib${lib}-dev)" >&2; exit 1; }
  roots+=("$f")
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ff"
# The closure, by soname, as the dynamic loader resolves it here.
skip='^(libc|libm|libpthread|libdl|librt|libresolv|libutil|libmvec|ld-linux-x86-64|linux-vdso|libstdc\+\+|libgcc_s)\.so'
{ for r in "${roots[@]}"; do echo "$(basename "$r") => $r"; ldd "$r"; done; } |
  awk '/=>/ && $3 ~ /^\// {print $1, $3}' | sort -u |
  while read -r name path; do
    [[ $name =~ $skip ]] && continue
    cp -L "$path" "$tmp/ff/$name"
  done
n=$(ls "$tmp/ff" | wc -l)
mkdir -p "$stage"
# xz -9e: a megabyte less than the default level, which the device tool's 64 MiB needs beside the test streams.
tar -C "$tmp/ff" -cf - . | xz -9e -T2 >"$stage/ffmpeg-libs.tar.xz"
echo "stage_ffmpeg: $n libraries ($(du -sh "$tmp/ff" | cut -f1) unpacked) in $stage/ffmpeg-libs.tar.xz ($(du -h "$stage/ffmpeg-libs.tar.xz" | cut -f1))"
cat <<LINES
# on the device:
mkdir -p /dev/shm/ff && tar -xJf $stage/ffmpeg-libs.tar.xz -C /dev/shm/ff
export LD_LIBRARY_PATH=/dev/shm/ff\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
LINES
