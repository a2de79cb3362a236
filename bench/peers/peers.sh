#!/usr/bin/env bash
# quantc against ONNX Runtime and PyTorch, int8 and float, in one run of
# interleaved rounds (bench/peers/peers.py; see bench/peers/README.md).
# Builds nothing: it uses the tools in ${QUANTC_BUILD_DIR:-build}/bin as
# they are (scripts/build.sh quant-compile first) and onnxruntime-node from
# --ort DIR (default <work>/ort).
# Usage: bench/peers/peers.sh [--models resnet50,mobilenet_v2,...]
#          [--batches 1,8] [--threads 1,2] [--rounds K] [--runs R]
#          [--warmup W] [--work DIR] [--ort DIR] [--contestants a,b,...]
#        > report.md   (Markdown on stdout, progress on stderr; raw numbers
#                       in <work>/peers.json, default build/peers)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec /usr/bin/python3 "$root/bench/peers/peers.py" "$@"
