#!/usr/bin/env bash
# Tile state under preemption: some virtual machines are reported to lose a
# thread's AMX tiles when it is descheduled. Compiles torchvision's
# ResNet-50 (the zoo's export, calibrated on its 16 images) with
# --parallel=omp into the default object, runs it with more OpenMP threads
# than the machine has vCPUs (so threads are preempted mid-kernel) for
# `passes` passes over the 16 images with the amx-int8 variant, and compares
# every pass's outputs byte for byte with one pass of the avx512-vnni variant
# (QUANTC_INT8_ISA). Exits 1 on any difference; skips where the host does
# not run amx-int8.
# Usage: bench/amx-stress.sh [passes=20] [threads=2 x vCPUs]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
passes=${1:-20}
threads=${2:-$((2 * $(nproc)))}
zoo=$build/zoo/224
work=$build/amx-stress
"$root/scripts/build.sh" quant-compile >/dev/null
if ! "$build/bin/quant-compile" --list-isas | grep -q '^\* amx-int8'; then
  echo "amx-stress: this machine does not run amx-int8; skipped"
  exit 0
fi
[[ -f $zoo/resnet50/model.onnx ]] ||
  /usr/bin/python3 "$root/bench/zoo/zoo.py" --models resnet50 >/dev/null
mkdir -p "$work"
"$build/bin/quant-compile" "$zoo/resnet50/model.onnx" --calibration-data "$zoo/calib.npy" \
  --parallel=omp -o "$work/model.o" --name resnet50 2>/dev/null
omp=$(sed -n 's/.*-L\([^ ]*\) .*-lomp.*/\1/p' "$work/model.h" | head -1)
omp=${omp:-/usr/lib/llvm-22/lib}
cc -O2 -I"$work" -DMODEL=resnet50 -DMODEL_UPPER=RESNET50 "$root/examples/common/run_model.c" \
  "$work/model.o" -lm -L"$omp" -Wl,-rpath,"$omp" -lomp -o "$work/run"
QUANTC_INT8_ISA=avx512-vnni "$work/run" "$zoo/calib.npy" "$work/vnni.npy" 0 "$threads" >/dev/null
bad=0
start=$(date +%s)
for i in $(seq "$passes"); do
  line=$("$work/run" "$zoo/calib.npy" "$work/amx.npy" 0 "$threads" | tr '\n' ' ')
  [[ $line == *amx-int8* ]] || { echo "amx-stress: the object ran ${line}, not amx-int8" >&2; exit 1; }
  cmp -s "$work/amx.npy" "$work/vnni.npy" || { bad=$((bad + 1)); echo "pass $i: outputs differ from avx512-vnni"; }
done
echo "amx-stress: $passes passes x 16 images, $threads threads on $(nproc) vCPUs ($(lscpu | sed -n 's/^Model name: *//p'), kernel $(uname -r)), $(( $(date +%s) - start )) s: $bad passes differ from avx512-vnni"
((bad == 0))
