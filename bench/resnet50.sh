#!/usr/bin/env bash
# ResNet-50 compile time: torchvision's ResNet-50 v1.5 with seeded random
# weights, exported to ONNX (bench/resnet50/export.py, ~100 MB, generated
# into build/resnet50/, not committed), compiled to an int8 object file by
#   quant-compile resnet50.onnx --calibration-data calib.npy -o model.o
# calibrating on the first N of the 8 exported images (--max-samples N), with
# the time of each phase (--mlir-timing), then linked with
# examples/common/run_model.c and run on all 8 images: int8 vs PyTorch's
# float logits (SQNR, top-1 agreement). Then the same model compiled with
# --parallel=omp: latency per image on 1 and 2 threads next to the
# sequential object (best of 5 passes over the 8 images; outputs must be
# bit-identical).
# Usage: bench/resnet50.sh [N=2] [extra quant-compile options...]
# (prints a Markdown section; needs python3-torchvision, see
# scripts/install-deps.sh --with-reference)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
samples=${1:-2}
shift || true
"$root/scripts/build.sh" quant-compile >/dev/null
out=$build/resnet50
mkdir -p "$out"
if [[ ! -f $out/resnet50.onnx || ! -f $out/calib.npy || ! -f $out/reference.npy ]]; then
  /usr/bin/python3 "$root/bench/resnet50/export.py" "$out" 8 >&2
fi

echo "### ResNet-50 compile time ($(date -u +%Y-%m-%d), $(nproc) vCPU, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load average $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "\`quant-compile resnet50.onnx --calibration-data calib.npy --max-samples $samples -o model.o --name resnet50 --mlir-timing $*\`"
echo "($samples calibration images, $(du -m "$out/resnet50.onnx" | cut -f1) MB ONNX):"
echo
echo '```'
/usr/bin/time -f "total: %e s wall, %U s user + %S s system, %M KiB max RSS" \
  "$build/bin/quant-compile" "$out/resnet50.onnx" \
  --calibration-data "$out/calib.npy" --max-samples "$samples" \
  -o "$out/model.o" --name resnet50 \
  --mlir-timing --mlir-timing-display=tree "$@" 2>&1 |
  awk '!/^ *[0-9]/ || ($1 >= 0.1 && !/Verifier|\(A\)/)' || true
echo '```'
echo
cc -O2 -I"$out" -DMODEL=resnet50 -DMODEL_UPPER=RESNET50 \
  "$root/examples/common/run_model.c" "$out/model.o" -lm -o "$out/run"
echo "Object: $(du -m "$out/model.o" | cut -f1) MB. The int8 object on all 8 exported images against PyTorch's float model:"
echo
echo '```'
"$out/run" "$out/calib.npy" "$out/int8.npy" 1 | sed 's/^/driver: /'
/usr/bin/python3 "$root/scripts/sqnr.py" "$out/reference.npy" "$out/int8.npy" 0 | head -1
echo '```'
echo

# Threads: the same compile with --parallel=omp, linked with LLVM's libomp.
omp=/usr/lib/llvm-22/lib
mkdir -p "$out/omp"
"$build/bin/quant-compile" "$out/resnet50.onnx" \
  --calibration-data "$out/calib.npy" --max-samples "$samples" \
  -o "$out/omp/model.o" --name resnet50 --parallel=omp "$@" 2>/dev/null
cc -O2 -I"$out/omp" -DMODEL=resnet50 -DMODEL_UPPER=RESNET50 \
  "$root/examples/common/run_model.c" "$out/omp/model.o" \
  -L$omp -Wl,-rpath,$omp -lomp -lm -o "$out/run-omp"
latency() { "$@" | sed -nE 's/latency ([0-9.]+) us.*/\1/p'; }
none=$(latency "$out/run" "$out/calib.npy" "$out/int8-none.npy" 5)
one=$(latency "$out/run-omp" "$out/calib.npy" "$out/int8-one.npy" 5 1)
two=$(latency "$out/run-omp" "$out/calib.npy" "$out/int8-two.npy" 5 2)
cmp -s "$out/int8-none.npy" "$out/int8-one.npy" &&
  cmp -s "$out/int8-none.npy" "$out/int8-two.npy" ||
  { echo "resnet50.sh: outputs differ between thread counts" >&2; exit 1; }
ms() { awk -v u="$1" 'BEGIN { printf "%.2f ms", u / 1000 }'; }
echo "Latency per image (best of 5 passes over the 8 images; outputs bit-identical):"
echo
echo "| build | latency per image | speed-up over 1 thread |"
echo "|---|--:|--:|"
echo "| \`--parallel=none\` | $(ms "$none") | |"
echo "| \`--parallel=omp\`, 1 thread | $(ms "$one") | |"
echo "| \`--parallel=omp\`, 2 threads | $(ms "$two") | $(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2fx", a / b }') |"
