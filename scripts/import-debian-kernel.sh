#!/usr/bin/env bash
# Re-creates configs/kernels/linux-6.1-debian.yaml from the real kernel it describes: downloads
# Debian 12's linux-image-6.1.0-57-amd64 (6.1.192-3), unpacks the vmlinux from its xz-compressed
# vmlinuz (CONFIG_KERNEL_XZ; the image carries its BTF: CONFIG_DEBUG_INFO_BTF=y) and runs
# `walksim layout import` on it. Needs the network and Debian's archive (apt-get download).
# Usage: scripts/import-debian-kernel.sh [PACKAGE] [OUT.yaml]
set -euo pipefail
cd "$(dirname "$0")/.."
package="${1:-linux-image-6.1.0-57-amd64}"
out="${2:-configs/kernels/linux-6.1-debian.yaml}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "$package" >/dev/null)
dpkg -x "$work"/*.deb "$work/x"
python3 - "$work" <<'PY'
import glob, lzma, sys
work = sys.argv[1]
image = open(glob.glob(work + "/x/boot/vmlinuz-*")[0], "rb").read()
at = image.find(b"\xfd7zXZ\x00")
if at < 0:
    sys.exit("no xz stream in the vmlinuz (not CONFIG_KERNEL_XZ?)")
open(work + "/vmlinux", "wb").write(lzma.LZMADecompressor().decompress(image[at:]))
PY
./build/walksim layout import --btf "$work/vmlinux" --out "$out"
# The header names the command that made the file; the vmlinux was a scratch copy.
sed -i "s|$work/vmlinux|<the vmlinux of $package, unpacked by scripts/import-debian-kernel.sh>|g" "$out"
