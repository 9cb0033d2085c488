#!/usr/bin/env bash
# Packs what the GPU machine needs to replay the editor's benchmark into two carries of under 64 MiB
# (one device call carries at most 64 MiB with the working tree): Debian's chromium-headless-shell and the
# chromium-common files it reads, the Debian libraries it links (a private prefix, used through
# LD_LIBRARY_PATH, never unpacked over /), a font, the editor's build and the recording.
#
#   scripts/gpu_bench/pack.sh DIST [RECORDING]   # -> .gpubench/bundle/chrome.sh (the shell, usable here too),
#                                                 #    .gpubench/a/ (call 1), .gpubench/b/ and .gl/ (call 2)
# The recording (gpubench.py record, made with .gpubench/bundle/chrome.sh) goes to .gpubench/b/recording.xz.
#
# .gpubench/ and .gl/ are listed in .git/info/exclude (never committed). Run on Debian 12 with the
# chromium package installed (its chromium-common is the same version as the headless shell).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIST=$(realpath "$1")
RECORDING=${2:+$(realpath "$2")}
W=$ROOT/.gpubench
B=$W/bundle
rm -rf "$B" "$W/a" && mkdir -p "$B/chromium" "$B/lib" "$B/fonts" "$W/debs" "$W/a" "$W/b"

cd "$W/debs"
ls chromium-headless-shell_*.deb >/dev/null 2>&1 || apt-get download chromium-headless-shell
rm -rf x && dpkg -x chromium-headless-shell_*.deb x
cp x/usr/lib/chromium/* "$B/chromium/"
for f in icudtl.dat v8_context_snapshot.bin snapshot_blob.bin libvulkan.so.1 libvk_swiftshader.so \
  vk_swiftshader_icd.json libEGL.so libGLESv2.so; do
  cp /usr/lib/chromium/$f "$B/chromium/"
done

# Every library the shell links except the C/C++ runtime (the GPU machine's glibc is newer), and the
# NSS modules NSS loads by path beside libnss3.
ldd "$B/chromium/chromium-headless-shell" | awk '$3 ~ /^\// {print $3}' |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+)\.so' |
  while read -r lib; do cp -L "$lib" "$B/lib/"; done
for f in libsoftokn3.so libfreebl3.so libfreeblpriv3.so libnssckbi.so libnssdbm3.so; do
  cp -L /usr/lib/x86_64-linux-gnu/$f "$B/lib/"
done

cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$B/fonts/"
cat >"$B/fonts/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">.</dir><cachedir>/tmp/gpubench-fontcache</cachedir></fontconfig>
EOF

# The shell started with the private prefix first; `exec` keeps the pid (the CPU time is read below it).
cat >"$B/chrome.sh" <<'EOF'
#!/bin/sh
HERE=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$HERE/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export FONTCONFIG_FILE="$HERE/fonts/fonts.conf"
exec "$HERE/chromium/chromium-headless-shell" "$@"
EOF
chmod +x "$B/chrome.sh"
cp -r "$DIST" "$B/dist"

# One xz stream (x86 filter: most of it is machine code), cut in two; the recording is xz already.
tar -C "$B" -cf - . | xz -T2 --x86 --lzma2=preset=9,dict=64MiB >"$W/bundle.tar.xz"
size=$(stat -c %s "$W/bundle.tar.xz")
first=$((50 * 1024 * 1024))
head -c "$first" "$W/bundle.tar.xz" >"$W/a/bundle.part0"
rm -f "$W/b/bundle.part1" && tail -c +$((first + 1)) "$W/bundle.tar.xz" >"$W/b/bundle.part1"
[ -z "$RECORDING" ] || cp "$RECORDING" "$W/b/recording.xz"
sha256sum "$W/bundle.tar.xz" | cut -d' ' -f1 >"$W/b/bundle.sha256"

# The GL loaders (libvulkan1, glvnd's EGL/GL/GLES) as the device README's recipe has them.
mkdir -p "$ROOT/.gl"
(cd "$ROOT/.gl" && ls libegl1_*.deb >/dev/null 2>&1 ||
  apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
echo "bundle $((size / 1048576)) MiB; a: $(du -sm "$W/a" | cut -f1) MiB, b: $(du -sm "$W/b" | cut -f1) MiB, .gl: $(du -sm "$ROOT/.gl" | cut -f1) MiB"
