#!/usr/bin/env bash
# The main job: a trained Fashion-MNIST CNN (examples/fashion-mnist/model.onnx,
# exported from PyTorch by examples/fashion-mnist/train.py) from float ONNX to
# an int8 object file in one command, linked with a C driver and evaluated on
# the 10,000 test images against the float model compiled the same way.
# Installs what is missing and builds first. Files land in build/quickstart/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" quant-compile >/dev/null
bin=${QUANTC_BUILD_DIR:-$root/build}/bin
example=$root/examples/fashion-mnist
out=${QUANTC_OUT_DIR:-$root/build/quickstart}
rm -rf "$out"
mkdir -p "$out/float" "$out/int8"

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f s", b - a }'; }

echo "== 1. float ONNX -> object file (quant-compile model.onnx) =="
t=$(seconds)
# -v prints the target (the int8 kernels of each variant) on stderr; step 2
# shows it.
"$bin/quant-compile" "$example/model.onnx" --name fmnist -v \
  -o "$out/float/model.o" 2>"$out/target.txt" || { cat "$out/target.txt" >&2; exit 1; }
echo "  $out/float/model.o + model.h in $(elapsed "$t")"

echo
echo "== 2. float ONNX -> int8 object file in one command =="
echo "  quant-compile model.onnx --calibration-data calibration.npy -o int8/model.o --report int8/report"
echo "  (import, conv-bn-relu fusion, observers, compiled calibration on 512 images,"
echo "   folding, quantization, int8 code generation: $(sed -nE \
  's/.*int8 kernels (.*), threads.*/\1/p' "$out/target.txt" |
  sed -E 's/ \(cpu [^)]*\)//g'))"
t=$(seconds)
"$bin/quant-compile" "$example/model.onnx" --name fmnist \
  --calibration-data "$example/calibration.npy" \
  --save-profile "$out/int8/profile.json" --report "$out/int8/report" \
  -o "$out/int8/model.o"
echo "  $out/int8/model.o + model.h in $(elapsed "$t") (with the per-layer report)"
echo
echo "  where each FP32 range went (--report: $out/int8/report/report.html, .json):"
/usr/bin/python3 "$root/scripts/show_report.py" "$out/int8/report/report.json"

echo
echo "== 3. C driver (examples/common/run_model.c) on the 10,000 test images =="
/usr/bin/python3 "$example/test_data.py" "$out"
for v in float int8; do
  cc -O2 -I"$out/$v" -DMODEL=fmnist -DMODEL_UPPER=FMNIST \
    "$root/examples/common/run_model.c" "$out/$v/model.o" -lm -o "$out/$v/run"
  "$out/$v/run" "$out/test_images.npy" "$out/$v/test_logits.npy" >/dev/null
done
/usr/bin/python3 "$example/evaluate.py" "$out/test_labels.npy" \
  "float=$out/float/test_logits.npy" "int8=$out/int8/test_logits.npy"

echo
echo "== 4. size and latency (one thread, best of 5 passes over the 512 calibration images) =="
for v in float int8; do
  printf "  %-5s object %7d bytes; " "$v" "$(stat -c %s "$out/$v/model.o")"
  "$out/$v/run" "$example/calibration.npy" "$out/$v/calib_logits.npy" 5 | tail -1
done
echo "  header: $out/int8/model.h"
