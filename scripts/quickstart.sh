#!/usr/bin/env bash
# The main job on the bundled example CNN (examples/small-cnn):
#   1. fuse conv-bn-relu / conv-add-relu and insert observers where
#      PyTorch's prepare() would,
#   2. calibrate: run the model, compiled to native code, on 256 images;
#      the statistics land in the IR and in a JSON profile,
#   3. fold the calibrated ranges into constant scales / zero points.
# Installs what is missing and builds first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" quant-opt quant-calibrate >/dev/null
bin=${QUANTC_BUILD_DIR:-$root/build}/bin
example=$root/examples/small-cnn
out=${QUANTC_OUT_DIR:-$root/build/quickstart}
mkdir -p "$out"

echo "== 1. fused conv-bn-relu layers + observers (quant-opt --qnt-fuse --qnt-insert-observers) =="
"$bin/quant-opt" "$example/model.mlir" --qnt-fuse --qnt-insert-observers -o "$out/observed.mlir"
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
sed -nE 's/.*qnt\.fake_quant %[0-9a-z_]+ to (!quant\.uniform<[^>]*>) \{name = "([^"]+)", range_max = array<f32: ([^>]*)>, range_min = array<f32: ([^>]*)>\}.*/\2\t[\4] .. [\3]\t\1/p' \
  "$out/folded.mlir" | awk -F'\t' '{ r = $2; if (length(r) > 40) r = substr(r, 1, 37) "..."; t = $3; if (length(t) > 70) t = substr(t, 1, 67) "..."; printf "  %-13s %-40s -> %s\n", $1, r, t }'
echo "  folded IR: $out/folded.mlir"

echo
echo "== 4. quantized (quant-opt --qnt-quantize): int8 weights, int32 bias, requantization =="
"$bin/quant-opt" "$out/folded.mlir" --qnt-quantize -o "$out/int8.mlir"
sed -nE 's/.*= (qnt\.[a-z_0-9]+) .*-> tensor<([0-9x]+)x!quant\.uniform<([^>]*)>>.*/\1\t\2\t\3/p' \
  "$out/int8.mlir" | awk -F'\t' '{ printf "  %-16s %-12s -> !quant.uniform<%s>\n", $1, $2, $3 }'
echo "  int8 IR: $out/int8.mlir"
echo
echo "== 5. int8 vs float on the 256 images (int8 model run on the int8 reference; code generation is not built yet) =="
"$bin/quant-run" "$example/model.mlir" --input "$example/calibration.npy" -o "$out/float.npy"
"$bin/quant-run" "$out/int8.mlir" --reference --input "$example/calibration.npy" -o "$out/int8.npy"
/usr/bin/python3 "$root/scripts/sqnr.py" "$out/float.npy" "$out/int8.npy" 0 | head -1 | sed 's/^/  /'
