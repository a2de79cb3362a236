#!/usr/bin/env bash
# The default object (no --cpu: a variant per x86 int8 instruction set,
# chosen at run time) against objects pinned to one CPU, on torchvision's
# ResNet-50 and MobileNetV2 (the zoo's exports: seeded weights, BatchNorm
# re-estimated; bench/zoo/zoo.py makes them) calibrated on the zoo's 16
# images:
#   default          quant-compile model.onnx --calibration-data calib.npy
#   default:avx2     the same object run with QUANTC_INT8_ISA=avx2 (what an
#                    AVX2-only CPU runs)
#   native           --cpu=native (this machine; 8-bit activations on VNNI)
#   haswell          --cpu=haswell (pinned AVX2, 7-bit activations)
# Compile time and object size of each, then latency per image (batch 1,
# one thread, the 16 images per pass) in interleaved rounds: the best of
# `rounds` rounds of 3 passes. Prints a Markdown section.
# Usage: bench/dispatch.sh [rounds=3] [models=resnet50,mobilenet_v2]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
rounds=${1:-3}
models=${2:-resnet50,mobilenet_v2}
zoo=$build/zoo/224
work=$build/dispatch
"$root/scripts/build.sh" quant-compile >/dev/null
if [[ ! -f $zoo/calib.npy ]] || ! for m in ${models//,/ }; do [[ -f $zoo/$m/model.onnx ]] || exit 1; done; then
  /usr/bin/python3 "$root/bench/zoo/zoo.py" --models "$models" >/dev/null
fi
configs="default native haswell"

echo "### Run-time dispatch vs pinned objects ($(date -u +%Y-%m-%d), $(nproc) vCPU, $(lscpu | sed -n 's/^Model name: *//p'), load average $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "| model | object | compile s | object MB |"
echo "|---|---|--:|--:|"
for m in ${models//,/ }; do
  for c in $configs; do
    d=$work/$m/$c
    mkdir -p "$d"
    case $c in default) flags=();; *) flags=(--cpu="$c");; esac
    start=$(date +%s.%N)
    "$build/bin/quant-compile" "$zoo/$m/model.onnx" --calibration-data "$zoo/calib.npy" \
      -o "$d/model.o" --name "$m" "${flags[@]}" 2>/dev/null
    end=$(date +%s.%N)
    cc -O2 -I"$d" -DMODEL="$m" -DMODEL_UPPER="${m^^}" "$root/examples/common/run_model.c" \
      "$d/model.o" -lm -o "$d/run"
    printf '| %s | %s | %.1f | %.1f |\n' "$m" "$c" "$(echo "$end - $start" | bc)" \
      "$(echo "$(stat -c %s "$d/model.o") / 1048576" | bc -l)"
  done
done
echo

declare -A best isa
for r in $(seq "$rounds"); do
  for m in ${models//,/ }; do
    for c in default default:avx2 native haswell; do
      d=$work/$m/${c%%:*}
      env=()
      [[ $c == *:* ]] && env=(QUANTC_INT8_ISA="${c#*:}")
      line=$(env "${env[@]}" "$d/run" "$zoo/calib.npy" "$d/out.npy" 3 | tr '\n' ' ')
      us=$(sed -n 's/.*latency \([0-9.]*\) us per sample.*/\1/p' <<<"$line")
      isa[$m/$c]=$(sed -n 's/.*int8 kernels: \([a-z0-9-]*\).*/\1/p' <<<"$line")
      if [[ -z ${best[$m/$c]:-} ]] || (( $(echo "$us < ${best[$m/$c]}" | bc) )); then
        best[$m/$c]=$us
      fi
    done
  done
done
echo "Latency per image, batch 1, one thread (best of $rounds interleaved rounds):"
echo
echo "| model | default (ISA) | pinned --cpu=native | default / native | default with QUANTC_INT8_ISA=avx2 | pinned --cpu=haswell | avx2: default / haswell |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for m in ${models//,/ }; do
  d=${best[$m/default]} n=${best[$m/native]} a=${best[$m/default:avx2]} h=${best[$m/haswell]}
  printf '| %s | %.2f ms (%s) | %.2f ms | %.3f | %.2f ms | %.2f ms | %.3f |\n' "$m" \
    "$(echo "$d / 1000" | bc -l)" "${isa[$m/default]}" "$(echo "$n / 1000" | bc -l)" \
    "$(echo "$d / $n" | bc -l)" "$(echo "$a / 1000" | bc -l)" "$(echo "$h / 1000" | bc -l)" \
    "$(echo "$a / $h" | bc -l)"
done
