#!/usr/bin/env bash
# The zoo modes of bench/threads.sh (see its header): builds a directory that
# times ResNet-50, MobileNetV2 and EfficientNet-B0 at batch 1 on 1-16 threads
# on another x86-64 Linux machine, and with --zoo runs it here.
#
# DIR holds, per model:
#   bin/<model>-int8       quant-compile model.onnx --calibration-data
#                          calib.npy --parallel=omp (the default object: int8
#                          kernels for every x86 ISA, chosen at run time),
#                          linked with examples/common/run_model.c
#   bin/<model>-float.gz   the same without calibration data, compiled from a
#                          timing copy of the model whose weights repeat a
#                          16-value pattern (tile_weights.py: ResNet-50's float
#                          object is 120 MB of weights that do not compress;
#                          this one gzips to under 1 MB; times do not depend
#                          on the values)
#   ort/<model>-float.onnx.gz  that copy, for ONNX Runtime
#   ort/<model>-int8.onnx.gz   bench/peers' QDQ model for ONNX Runtime (its
#                          qdq.py augment, ort_bench.js ranges, qdq.py quantize
#                          on the same 16 calibration images), weights repeated
#   expected/<model>-<kind>.npy  this machine's outputs on the test images
# and lib/libomp.so.5 (LLVM's; the drivers' run path is $ORIGIN/../lib),
# test.npy (the zoo's 4 test images), models.tsv (model, label, kind,
# driver, OpenMP parallel regions in the object, ONNX file), build.txt,
# run.sh and ort_threads.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
bin=$build/bin
zoo=$build/zoo/224
ort=$build/peers/ort
models="resnet50 mobilenet_v2 efficientnet_b0"
libomp=/usr/lib/llvm-22/lib
python=/usr/bin/python3
dir=""
mode=""
run_args=()
while (($#)); do
  case $1 in
    --build-only) mode=build; dir=$2; shift 2 ;;
    --zoo) mode=zoo; shift ;;
    --models) models=${2//,/ }; shift 2 ;;
    --ort) ort=$2; shift 2 ;;
    --no-ort) ort=""; shift ;;
    --zoo-dir) zoo=$2; shift 2 ;;
    --threads | --budget | --passes) run_args+=("$1" "$2"); shift 2 ;;
    *) echo "threads.sh: unknown argument $1 (see bench/threads.sh's header)" >&2
       exit 2 ;;
  esac
done
[[ -n $mode ]] || { echo "threads.sh: --build-only DIR or --zoo" >&2; exit 2; }
[[ -x $bin/quant-compile ]] ||
  { echo "threads.sh: no $bin/quant-compile (scripts/build.sh quant-compile)" >&2; exit 1; }
if [[ -n $ort && ! -d $ort/node_modules/onnxruntime-node ]]; then
  echo "threads.sh: no onnxruntime-node in $ort (--ort DIR, or --no-ort; see bench/peers/README.md)" >&2
  exit 1
fi
if [[ $mode == build && -e $dir ]]; then
  # Rebuilt from scratch; only a directory this script made is cleared.
  [[ -f $dir/models.tsv || -z $(ls -A "$dir") ]] ||
    { echo "threads.sh: $dir exists and is not a threads.sh directory" >&2; exit 1; }
  rm -rf "${dir:?}"/{bin,lib,ort,expected,models.tsv,build.txt,run.sh,ort_threads.py,test.npy}
fi
tmp=$(mktemp -d)
if [[ $mode == zoo ]]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$tmp" "$dir"' EXIT
else
  trap 'rm -rf "$tmp"' EXIT
fi
start=$(date +%s)
say() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - start))s] $*" >&2; }

mkdir -p "$dir/bin" "$dir/lib" "$dir/ort" "$dir/expected"
cp -L "$libomp/libomp.so.5" "$dir/lib/"
ln -sf libomp.so.5 "$dir/lib/libomp.so"
cp "$zoo/test.npy" "$dir/"
cp "$here/run.sh" "$here/ort_threads.py" "$dir/"
commit=$(git -C "$root" rev-parse --short HEAD)
git -C "$root" diff --quiet HEAD -- lib dialects tools include || commit+="+changes"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "built by bench/threads.sh at quantc $commit, $(date -u '+%Y-%m-%d %H:%M') UTC, on $cpu" >"$dir/build.txt"
printf 'model\tlabel\tkind\tdriver\tregions\tonnx\n' >"$dir/models.tsv"

# Compiles $1 (ONNX) to $2/model.o with quant-compile's further arguments
# (model name $4), links the driver $3 (in DIR/bin, for its run path) against
# DIR's libomp; prints the object's parallel regions.
compile() {
  local onnx=$1 out=$2 exe=$3 name=$4
  shift 4
  mkdir -p "$out"
  echo "quant-compile $(basename "$onnx") $* --parallel=omp --name $name" >>"$dir/build.txt"
  "$bin/quant-compile" "$onnx" "$@" --parallel=omp -o "$out/model.o" --name "$name" >&2
  # shellcheck disable=SC2016 # $ORIGIN is for the linker
  cc -O2 -I"$out" -DMODEL="$name" -DMODEL_UPPER="${name^^}" \
    "$root/examples/common/run_model.c" "$out/model.o" -L"$dir/lib" \
    -Wl,-rpath,'$ORIGIN/../lib' -lomp -lm -o "$exe" >&2
  /usr/lib/llvm-22/bin/llvm-nm "$out/model.o" | grep -c omp_par || true
}

# Runs a driver on the test images (1 thread) into DIR/expected and checks
# that it finds DIR's libomp and that the outputs are finite.
expect() {
  local exe=$1 npy=$dir/expected/$2.npy
  local lib
  lib=$(ldd "$exe" | sed -n 's/.*libomp.so.5 => \(.*\) (.*/\1/p')
  [[ $(readlink -f "$lib") == $(readlink -f "$dir/lib/libomp.so.5") ]] ||
    { echo "threads.sh: $exe loads libomp from '$lib', not $dir/lib" >&2; exit 1; }
  "$exe" "$dir/test.npy" "$npy" 0 1 >/dev/null
  "$python" -c "import numpy, sys; a = numpy.load(sys.argv[1]); sys.exit(
      0 if numpy.isfinite(a).all() and abs(a).max() > 0 else
      sys.argv[1] + ': outputs not finite, or all zero')" "$npy"
}

label() {
  case $1 in
    resnet50) echo ResNet-50 ;; mobilenet_v2) echo MobileNetV2 ;;
    efficientnet_b0) echo EfficientNet-B0 ;; *) echo "$1" ;;
  esac
}

calib=$zoo/calib.npy
for m in $models; do
  onnx=$zoo/$m/model.onnx
  [[ -f $onnx ]] || { echo "threads.sh: no $onnx (bench/zoo/zoo.sh --models $m makes it)" >&2; exit 1; }
  say "$m int8: quant-compile"
  regions=$(compile "$onnx" "$tmp/$m-int8" "$dir/bin/$m-int8" "$m" \
    --calibration-data "$calib")
  expect "$dir/bin/$m-int8" "$m-int8"
  rm -rf "$tmp/$m-int8"

  say "$m float: timing copy, quant-compile"
  "$python" "$here/tile_weights.py" "$onnx" "$tmp/$m-float.onnx" >/dev/null
  fregions=$(compile "$tmp/$m-float.onnx" "$tmp/$m-float" "$dir/bin/$m-float" "$m")
  expect "$dir/bin/$m-float" "$m-float"
  gzip -9 "$dir/bin/$m-float" # bin/<model>-float.gz
  rm -rf "$tmp/$m-float"

  int8_onnx=- float_onnx=-
  if [[ -n $ort ]]; then
    say "$m: ONNX Runtime's models (bench/peers' QDQ recipe)"
    gzip -9 -c "$tmp/$m-float.onnx" >"$dir/ort/$m-float.onnx.gz"
    float_onnx=ort/$m-float.onnx.gz
    "$python" "$root/bench/peers/qdq.py" augment "$onnx" "$tmp/augmented.onnx"
    node "$root/bench/peers/ort_bench.js" "$ort" ranges "$tmp/augmented.onnx" \
      "$calib" "$tmp/ranges.json"
    "$python" "$root/bench/peers/qdq.py" quantize "$onnx" "$tmp/ranges.json" \
      "$calib" "$tmp/qdq.onnx"
    "$python" "$here/tile_weights.py" "$tmp/qdq.onnx" "$tmp/qdq-tiled.onnx" >/dev/null
    gzip -9 -c "$tmp/qdq-tiled.onnx" >"$dir/ort/$m-int8.onnx.gz"
    int8_onnx=ort/$m-int8.onnx.gz
    rm -f "$tmp"/augmented.onnx "$tmp"/qdq*.onnx
  fi
  rm -f "$tmp/$m-float.onnx"
  printf '%s\t%s\tint8\tbin/%s-int8\t%s\t%s\n' "$m" "$(label "$m")" "$m" "$regions" "$int8_onnx" >>"$dir/models.tsv"
  printf '%s\t%s\tfloat\tbin/%s-float.gz\t%s\t%s\n' "$m" "$(label "$m")" "$m" "$fregions" "$float_onnx" >>"$dir/models.tsv"
done
size=$(du -sm "$dir" | cut -f1)
say "$dir: $(du -sh "$dir" | cut -f1)"
((size <= 50)) || say "warning: $dir is over 50 MiB (the device machine takes 64 MiB with the repository)"
if [[ $mode == zoo ]]; then
  bash "$dir/run.sh" "${run_args[@]}"
else
  say "run it with: bash $dir/run.sh [--threads 1,2,4,8,16] [--budget S] [--passes N]"
fi
