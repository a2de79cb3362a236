#!/usr/bin/env bash
# The sanitizer build: clang-22 with AddressSanitizer + UndefinedBehaviorSanitizer
# (any undefined behaviour is fatal) on every project source, in
# build-sanitize/ (QUANTC_SANITIZE_BUILD_DIR), with the libFuzzer targets of
# fuzz/ (scripts/fuzz.sh). Debian's LLVM / MLIR / protobuf stay
# uninstrumented.
#
# Usage: scripts/sanitize.sh [--build-only] [ctest args...]
#   builds, then runs the suites that exercise our C++ (ctest: unit tests and
#   lit, less the tests listed below, which scripts/test.sh runs) under the
#   sanitizers.
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
# The sanitizers watch our C++: the parsers, verifiers, passes, tools and
# runtime. The lit tests whose minutes go to LLVM's uninstrumented code
# generation and to running the generated code run once, in the plain build
# (scripts/test.sh), not twice:
# * the ONNX conformance runner (label conformance): hundreds of models;
# * the randomized kernel tests (test/Integration/Kernels/random-*: tens of
#   random models per test compiled for each ISA and run; the lowering they
#   take is the one of the small Integration/Kernels and Conversion tests,
#   which stay);
# * the zoo slice (test/Zoo: torchvision models, CI's reference stage);
# * the slowest end-to-end tests (20-80 s each in the plain build), whole
#   compiles of models that other tests compile too: Python/accuracy-budget (the budget's search),
#   Integration/Compile/{ortquant,batch-images,fashion-mnist-mobile},
#   Integration/Quantize/{vision,norm-act}.
# LIT_FILTER_OUT set by the caller replaces this list.
slow='Python/accuracy-budget|Integration/Compile/(ortquant|batch-images'
slow+='|fashion-mnist-mobile)|Integration/Quantize/(vision|norm-act)'
export LIT_FILTER_OUT=${LIT_FILTER_OUT:-"^QUANTC :: (Zoo/|Integration/Kernels/random-|($slow)[.]mlir\$)"}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -LE conformance "$@"
