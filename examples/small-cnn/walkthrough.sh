#!/usr/bin/env bash
# A step-by-step walkthrough on the small example CNN (examples/small-cnn,
# random weights), one tool per step:
#   1. fuse conv-bn-relu / conv-add-relu and insert observers where
#      PyTorch's prepare() would,
#   2. calibrate: run the model, compiled to native code, on 256 images;
#      the statistics land in the IR and in a JSON profile,
#   3. fold the calibrated ranges into constant scales / zero points.
# Installs what is missing and builds first.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" quant-opt quant-calibrate quant-run quant-compile >/dev/null
bin=${QUANTC_BUILD_DIR:-$root/build}/bin
example=$root/examples/small-cnn
out=${QUANTC_OUT_DIR:-$root/build/walkthrough}
mkdir -p "$out"

echo "== 1. fused conv-bn-relu layers + observers (quant-opt --qnt-fuse --qnt-insert-observers) =="
# target=x86: activations get reduce_range (7 bits, as PyTorch's x86
# qconfig), so that the avx2 kernels of the default quant-compile object
# (beside the VNNI ones, chosen at run time) take vpmaddubsw.
# (quant-compile --calibration-data keeps 8 bits on both sides; its avx2
# variant then widens the inputs to 16 bits for vpmaddwd.)
"$bin/quant-opt" "$example/model.mlir" --qnt-fuse \
  --qnt-insert-observers="target=x86" -o "$out/observed.mlir"
sed -nE 's/.*= qnt\.observe (%[0-9a-z_]+) config (<[^>]*>) \{name = "([^"]+)"\}.*/  \3: \2/p' \
  "$out/observed.mlir"

echo
echo "== 2. calibration (quant-calibrate: JIT-compiled model, 256 images) =="
"$bin/quant-calibrate" "$out/observed.mlir" --data "$example/calibration.npy" \
  -o "$out/calibrated.mlir" --save-profile "$out/profile.json" | sed 's/^/  /'
echo "  calibrated IR: $out/calibrated.mlir"
echo "  profile:       $out/profile.json"

echo
echo "== 3. folded (quant-opt --qnt-fold-observers): FP32 range -> quantized type =="
"$bin/quant-opt" "$out/calibrated.mlir" --qnt-fold-observers -o "$out/folded.mlir"
sed -nE 's/.*qnt\.fake_quant %[0-9a-z_]+ to (!quant\.uniform<.*>) \{name = "([^"]+)", range_max = array<f32: ([^>]*)>, range_min = array<f32: ([^>]*)>\}.*/\2\t[\4] .. [\3]\t\1/p' \
  "$out/folded.mlir" | awk -F'\t' '{ r = $2; if (length(r) > 40) r = substr(r, 1, 37) "..."; t = $3; if (length(t) > 70) t = substr(t, 1, 67) "..."; printf "  %-13s %-40s -> %s\n", $1, r, t }'
echo "  folded IR: $out/folded.mlir"

echo
echo "== 4. quantized (quant-opt --qnt-quantize): int8 weights, int32 bias, requantization =="
"$bin/quant-opt" "$out/folded.mlir" --qnt-quantize -o "$out/int8.mlir"
sed -nE 's/.*= (qnt\.[a-z_0-9]+) .*-> tensor<([0-9x]+)x(!quant\.uniform<.*)>$/\1\t\2\t\3/p' \
  "$out/int8.mlir" | awk -F'\t' '{ printf "  %-16s %-12s -> %s\n", $1, $2, $3 }'
echo "  int8 IR: $out/int8.mlir"
echo
echo "== 5. int8 vs float on the 256 images (the int8 model run on the int8 reference, quant-run --reference) =="
"$bin/quant-run" "$example/model.mlir" --input "$example/calibration.npy" -o "$out/float.npy"
"$bin/quant-run" "$out/int8.mlir" --reference --input "$example/calibration.npy" -o "$out/int8.npy"
/usr/bin/python3 "$root/scripts/sqnr.py" "$out/float.npy" "$out/int8.npy" 0 | sed -n "1s/^/  /p"

echo
echo "== 6. compiled ahead of time (quant-compile: object file + C header), linked with a C driver =="
mkdir -p "$out/float" "$out/int8"
"$bin/quant-compile" "$example/model.mlir" --name small_cnn -o "$out/float/model.o"
"$bin/quant-compile" "$out/int8.mlir" --name small_cnn -o "$out/int8/model.o" --remarks 2>&1 |
  sed -nE 's/.*remark: int8 kernel: (.*)/  conv kernel: \1/p' | sort | uniq -c | sed 's/^ */  /'
for v in float int8; do
  cc -O2 -I"$out/$v" -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN \
    "$root/examples/common/run_model.c" "$out/$v/model.o" -lm -o "$out/$v/run"
  printf "  %-5s object %7d bytes; " "$v" "$(stat -c %s "$out/$v/model.o")"
  "$out/$v/run" "$example/calibration.npy" "$out/$v/out.npy" 20 | tail -1
done
if cmp -s "$out/int8/out.npy" "$out/int8.npy"; then
  echo "  int8 object file outputs: bit-identical to the int8 reference"
else
  echo "  int8 object file outputs: DIFFER from the int8 reference"; exit 1
fi
echo "  header: $out/int8/model.h"
