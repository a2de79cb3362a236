#!/usr/bin/env bash
# Installs the Debian packages this project needs, only those that are missing.
# Usage: scripts/install-deps.sh [--with-reference]
#   --with-reference  also install PyTorch/numpy/ONNX python packages used to
#                     regenerate golden data and torchvision for
#                     bench/resnet50.sh (not needed to build or test).
# llvm-mca-22 (bench/mca.sh) comes with llvm-22, a dependency of llvm-22-dev.
set -euo pipefail

pkgs=(cmake ninja-build g++ llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
      libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
      clang-22 lld-22 clang-format-22 libclang-rt-22-dev libgtest-dev python3
      python3-numpy zlib1g-dev
      libdnnl-dev dataset-fashion-mnist
      libomp-22-dev
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
if [[ "${1:-}" == "--with-reference" ]]; then
  pkgs+=(python3-torch python3-torchvision python3-onnx)
fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
