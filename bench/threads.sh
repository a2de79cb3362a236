#!/usr/bin/env bash
# Thread scaling, two modes.
#
# The example model: 1 vs 2 threads on the bundled example CNN, compiled
# ahead of time with --parallel=omp (int8 as the quick start quantizes it,
# and float), timed with examples/common/run_model.c (best of N passes over
# 256 images) next to the same model compiled with --parallel=none. Prints a
# Markdown section for docs/benchmarks.md.
#   bench/threads.sh [passes]   (default 20)
#
# The zoo: ResNet-50, MobileNetV2 and EfficientNet-B0 at batch 1 on 1, 2, 4,
# 8 and 16 threads, int8 and float, quantc (--parallel=omp) and ONNX Runtime.
# --build-only DIR compiles and links everything into DIR, a directory that
# runs on another x86-64 Linux machine without quantc or this repository:
# `bash DIR/run.sh` times it there and prints the table (bench/threads/run.sh;
# options --threads 1,2,4,8,16 --budget S --passes N --models a,b --no-ort).
# --zoo builds into a temporary directory and runs it here.
#   bench/threads.sh --build-only DIR [--models resnet50,mobilenet_v2,...]
#       [--ort NODE_ORT_DIR | --no-ort] [--zoo-dir build/zoo/224]
#   bench/threads.sh --zoo [the same build options] [run.sh's options]
# Needs the built quant-compile (it builds nothing in these modes), the zoo's
# exports and images (bench/zoo/zoo.sh or bench/peers/peers.sh make them),
# Debian's python3 with onnx and numpy, and for ONNX Runtime's int8 model
# onnxruntime-node (as bench/peers; default build/peers/ort) to calibrate it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == --* ]]; then
  exec "$root/bench/threads/zoo.sh" "$@" # the zoo modes
fi
"$root/scripts/build.sh" quant-opt quant-calibrate quant-compile >/dev/null
bin=${QUANTC_BUILD_DIR:-$root/build}/bin
example=$root/examples/small-cnn
data=$example/calibration.npy
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
passes=${1:-20}
omp=/usr/lib/llvm-22/lib

"$bin/quant-opt" "$example/model.mlir" --qnt-fuse \
  --qnt-insert-observers="target=x86" -o "$out/observed.mlir"
"$bin/quant-calibrate" "$out/observed.mlir" --data "$data" --quiet \
  -o "$out/calibrated.mlir"
"$bin/quant-opt" "$out/calibrated.mlir" --qnt-fold-observers --qnt-quantize \
  -o "$out/int8.mlir"

latency() { "$@" | sed -nE 's/latency ([0-9.]+) us.*/\1/p'; }
echo "### Threads: the example model, 1 vs 2 threads ($(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) vCPU)"
echo
echo "Command: \`bench/threads.sh $*\`; best of $passes passes over 256 images,"
echo "latency per image in microseconds; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| model | --parallel=none | omp, 1 thread | omp, 2 threads | 2-thread speed-up | parallel regions |"
echo "|---|--:|--:|--:|--:|--:|"
for v in int8 float; do
  src=$out/int8.mlir
  [[ $v == float ]] && src=$example/model.mlir
  mkdir -p "$out/$v-none" "$out/$v-omp"
  "$bin/quant-compile" "$src" --name small_cnn -o "$out/$v-none/model.o"
  "$bin/quant-compile" "$src" --name small_cnn --parallel=omp -o "$out/$v-omp/model.o"
  cc -O2 -I"$out/$v-none" -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN \
    "$root/examples/common/run_model.c" "$out/$v-none/model.o" -lm -o "$out/$v-none/run"
  cc -O2 -I"$out/$v-omp" -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN \
    "$root/examples/common/run_model.c" "$out/$v-omp/model.o" \
    -L$omp -Wl,-rpath,$omp -lomp -lm -o "$out/$v-omp/run"
  none=$(latency "$out/$v-none/run" "$data" "$out/none.npy" "$passes")
  one=$(latency "$out/$v-omp/run" "$data" "$out/one.npy" "$passes" 1)
  two=$(latency "$out/$v-omp/run" "$data" "$out/two.npy" "$passes" 2)
  cmp -s "$out/none.npy" "$out/one.npy" && cmp -s "$out/none.npy" "$out/two.npy" ||
    { echo "threads.sh: $v outputs differ between thread counts" >&2; exit 1; }
  regions=$(/usr/lib/llvm-22/bin/llvm-nm "$out/$v-omp/model.o" | grep -c 'omp_par' || true)
  speedup=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2fx", a / b }')
  echo "| $v | $none | $one | $two | $speedup | $regions |"
done
echo
echo "Outputs are bit-identical across the three builds and thread counts."
