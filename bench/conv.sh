#!/usr/bin/env bash
# int8 convolutions (ResNet-50 v1.5, MobileNetV2) against oneDNN 2.x, one
# thread pinned to one core; prints a Markdown section for docs/benchmarks.md.
# Usage: bench/conv.sh [extra quantc-bench-conv options, e.g. --isa=avx2]
# Needs libdnnl-dev (scripts/install-deps.sh installs it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
shapes=${QUANTC_BENCH_SHAPES:-/work/shared/bench}
if [[ -x "$root/scripts/build.sh" ]]; then
  "$root/scripts/build.sh" quantc-bench-conv >/dev/null
else
  ninja -C "$build" quantc-bench-conv >/dev/null
fi
bin=$build/bin/quantc-bench-conv
[[ -x $bin ]] || { echo "conv.sh: $bin not built (is libdnnl-dev installed?)" >&2; exit 1; }
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f|avx512bw|avx512vl|avx512_vnni|avx_vnni|avx512_bf16)$' | xargs)
echo "### Convolutions vs oneDNN ($(date -u +%Y-%m-%d), $cpu, $(nproc) vCPU, one thread pinned to core 0)"
echo
echo "ISA flags: \`$flags\`; /proc/cpuinfo MHz: $(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | xargs);"
echo "oneDNN $(dpkg-query -W -f='${Version}' libdnnl-dev 2>/dev/null || echo '?'), OMP_NUM_THREADS=1."
echo "Command: \`bench/conv.sh $*\`"
echo
# oneDNN is built with OpenMP: one thread, and the process pinned to core 0.
OMP_NUM_THREADS=1 taskset -c 0 "$bin" "$@" \
  "$shapes/resnet50_v1_5_conv_shapes.txt" "$shapes/mobilenet_v2_conv_shapes.txt"
