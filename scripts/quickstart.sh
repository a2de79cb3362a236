#!/usr/bin/env bash
# The main job: installs what is missing, builds quant-opt, and runs it on the
# bundled example CNN to insert observers where PyTorch's prepare() would.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" quant-opt >/dev/null
build=${QUANTC_BUILD_DIR:-$root/build}
model=$root/examples/small-cnn/model.mlir
echo "== $model: float CNN (TOSA, NHWC) with observers inserted =="
# Weights are elided in the listing; the IR itself keeps them.
"$build/bin/quant-opt" "$model" --qnt-insert-observers \
  --mlir-elide-elementsattrs-if-larger=8
echo "== observers (name: kind) =="
"$build/bin/quant-opt" "$model" --qnt-insert-observers |
  sed -nE 's/.*qnt\.observe .* config <kind = ([a-z_]+).*name = "([^"]+)".*/  \2: \1/p'
