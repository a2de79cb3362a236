#!/usr/bin/env bash
# Calibration throughput and observer overhead on the bundled example CNN,
# one thread, plain float model and calibration build side by side.
# Usage: bench/calibration.sh [reps]   (prints a Markdown section)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" quantc-bench-calibration >/dev/null
bin=${QUANTC_BUILD_DIR:-$root/build}/bin/quantc-bench-calibration
model=$root/examples/small-cnn/model.mlir
data=$root/examples/small-cnn/calibration.npy
echo "### Calibration throughput ($(date -u +%Y-%m-%d), $(nproc) vCPU, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
echo
for kind in histogram min_max moving_average_min_max percentile entropy mse; do
  echo '```'
  taskset -c 0 "$bin" "$model" "$data" "$kind" "${1:-7}"
  echo '```'
done
