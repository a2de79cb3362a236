#!/usr/bin/env bash
# int8 convolutions (ResNet-50 v1.5, MobileNetV2) against oneDNN 2.x, one
# thread pinned to one core (--threads=N: N threads on cores 0..N-1); prints
# a Markdown section for docs/benchmarks.md.
# Usage: bench/conv.sh [extra quantc-bench-conv options, e.g. --isa=amx-int8,
#        --isa=avx2,
#        --filter=_dw, --threads=2]
# Needs libdnnl-dev (scripts/install-deps.sh installs it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
shapes=${QUANTC_BENCH_SHAPES:-$root/bench/shapes}
if [[ -x "$root/scripts/build.sh" ]]; then
  "$root/scripts/build.sh" quantc-bench-conv >/dev/null
else
  ninja -C "$build" quantc-bench-conv >/dev/null
fi
bin=$build/bin/quantc-bench-conv
[[ -x $bin ]] || { echo "conv.sh: $bin not built (is libdnnl-dev installed?)" >&2; exit 1; }
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f|avx512bw|avx512vl|avx512_vnni|avx_vnni|avx512_bf16|amx_tile|amx_int8)$' | xargs)
threads=1
for a in "$@"; do [[ $a == --threads=* ]] && threads=${a#--threads=}; done
cores=0-$((threads - 1))
if ((threads == 1)); then pinned="one thread pinned to core 0"; else pinned="$threads threads pinned to cores $cores"; fi
echo "### Convolutions vs oneDNN ($(date -u +%Y-%m-%d), $cpu, $(nproc) vCPU, $pinned, load average $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "ISA flags: \`$flags\`; /proc/cpuinfo MHz: $(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | xargs);"
echo "oneDNN $(dpkg-query -W -f='${Version}' libdnnl-dev 2>/dev/null || echo '?'), OMP_NUM_THREADS=$threads."
echo "Command: \`bench/conv.sh $*\`"
echo
# oneDNN is built with OpenMP: its thread count, and the process pinned.
OMP_NUM_THREADS=$threads taskset -c "$cores" "$bin" "$@" \
  "$shapes/resnet50_v1_5_conv_shapes.txt" "$shapes/mobilenet_v2_conv_shapes.txt"
