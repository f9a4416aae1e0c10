#!/bin/sh
# Install the Debian packages vkbench needs, when missing. As root: apt-get install them.
# Otherwise: print the exact command and stop.
# clang + libclang-rt-14-dev: the fuzz targets (libFuzzer, ASan, UBSan; `make fuzz`, and 20 s of `make test`).
pkgs="build-essential libvulkan-dev glslang-tools libgsl-dev libhwloc-dev gnuplot-nox mesa-vulkan-drivers vulkan-validationlayers libopenblas-dev clang libclang-rt-14-dev"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "vkbench: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
        echo "vkbench: apt-get install failed for:$missing" >&2; exit 1; }
else
    echo "vkbench: missing packages. Run as root:" >&2
    echo "  apt-get install -y$missing" >&2
    exit 1
fi
