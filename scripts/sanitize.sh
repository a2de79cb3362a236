#!/usr/bin/env bash
# The sanitizer build: clang-22 with AddressSanitizer + UndefinedBehaviorSanitizer
# (any undefined behaviour is fatal) on every project source, in
# build-sanitize/ (QUANTC_SANITIZE_BUILD_DIR), with the libFuzzer targets of
# fuzz/ (scripts/fuzz.sh). Debian's LLVM / MLIR / protobuf stay
# uninstrumented.
#
# Usage: scripts/sanitize.sh [--build-only] [ctest args...]
#   builds, then runs the whole suite (ctest) under the sanitizers, but for
#   the ONNX conformance runner (test/Conformance, run by scripts/test.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_SANITIZE_BUILD_DIR:-$root/build-sanitize}
run_tests=1
if [[ "${1:-}" == "--build-only" ]]; then
  run_tests=0
  shift
fi
if [[ ! -f $build/build.ninja ]]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DQUANTC_SANITIZE=ON \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$build"
((run_tests)) || exit 0
# Runtime options: any report fails the test that triggered it.
# * allow_user_poisoning=0: Debian's uninstrumented libMLIR.so poisons its
#   allocator's memory by hand, which reads as use-after-poison otherwise;
# * detect_leaks=0: LLVM / MLIR tools leave their statics to the OS at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Tests that run once, in the plain build (scripts/test.sh), because they
# spend their minutes in LLVM's uninstrumented code generation and in the
# generated code, not in ours:
# * the ONNX conformance runner (label conformance): hundreds of models;
# * the per-ISA random kernel tests (test/Integration/Kernels/random-*-<isa>:
#   the same lowering as random-convs / random-matmuls / ..., which stay,
#   compiled and run for AVX-VNNI, AVX-512 VNNI, AMX and AArch64 under
#   qemu, 1-2 minutes each);
# * the zoo slice (test/Zoo: torchvision models, CI's reference stage).
# LIT_FILTER_OUT set by the caller replaces this list.
export LIT_FILTER_OUT=${LIT_FILTER_OUT:-'^QUANTC :: (Zoo/|Integration/Kernels/random-[a-z-]*-(aarch64|vnni|amx|amx-twin)[.]mlir$)'}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -LE conformance "$@"
