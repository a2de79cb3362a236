#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (built by scripts/sanitize.sh, with
# ASan + UBSan) on seed corpora from the repository:
#   onnx-import  the ONNX importer + qnt-fuse + qnt-insert-observers, inputs
#                mutated structurally (fuzz/OnnxMutator); seeds: every .onnx
#   npy          the .npy and .npz readers; seeds: every .npy and .npz
#   profile      calibration profiles (parse, merge, recompute qparams);
#                seeds: fuzz/profile-fuzzer/seeds
#   qnt          the qnt IR parser, verifiers and passes; seeds: every test's
#                .mlir, split at `// -----`
#   header       the generated C header with random names (graph, tensors,
#                layouts, paths, CPU): it must compile with gcc -std=c99
#                -Wall -Werror and declare exactly <name>_run, _runv,
#                _int8_isa, _metadata (_set_num_threads); needs gcc;
#                seeds: fuzz/header-fuzzer/seeds
#
# Usage: scripts/fuzz.sh [--seconds S | minutes] [target...]
#   minutes (default 1) or --seconds per target; all targets by default.
#   QUANTC_FUZZ_SEED=N fixes libFuzzer's seed (CI does, to be repeatable).
# The corpus grows in build-sanitize/fuzz/<target>/corpus (kept between
# runs); a crash, a sanitizer report or a timeout is written to
# build-sanitize/fuzz/<target>/findings and makes the script exit non-zero.
# A finding becomes a regression test of the normal suite (test/Import/
# Inputs/invalid, the tools' error tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_SANITIZE_BUILD_DIR:-$root/build-sanitize}
seconds=60
if [[ "${1:-}" == "--seconds" ]]; then
  seconds=$2
  shift 2
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  seconds=$(($1 * 60))
  shift
fi
targets=("$@")
((${#targets[@]})) || targets=(onnx-import npy profile qnt header)
QUANTC_SANITIZE_BUILD_DIR=$build "$root/scripts/sanitize.sh" --build-only

export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0}
# The memory limit of every input (docs/hardening.md), well inside
# libFuzzer's RSS limit (-rss_limit_mb=4096 below): an input that gets past
# it is a finding.
export QUANTC_MAX_INPUT_BYTES=${QUANTC_MAX_INPUT_BYTES:-256M}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Copies the seeds of target $1 into directory $2.
seed() {
  local target=$1 dir=$2
  cd "$root"
  case $target in
  onnx-import)
    git ls-files '*.onnx' | while read -r f; do cp "$f" "$dir/${f//\//_}"; done ;;
  npy)
    # The small ones: large calibration sets only slow the fuzzer down.
    git ls-files '*.npy' '*.npz' | while read -r f; do
      (($(stat -c %s "$f") < 65536)) && cp "$f" "$dir/${f//\//_}"
    done ;;
  profile)
    cp fuzz/profile-fuzzer/seeds/*.json "$dir/" ;;
  header)
    cp fuzz/header-fuzzer/seeds/*.bin "$dir/" ;;
  qnt)
    git ls-files 'test/*.mlir' | while read -r f; do
      awk -v out="$dir/${f//\//_}" \
        '/^\/\/ -----/ { n++; next } { print > (out "." n+0 ".mlir") }' "$f"
    done ;;
  *)
    echo "fuzz: unknown target '$target' (onnx-import, npy, profile, qnt," \
      "header)" >&2
    exit 2 ;;
  esac
}

failed=()
for target in "${targets[@]}"; do
  dir=$build/fuzz/$target
  mkdir -p "$dir/corpus" "$dir/findings"
  seed "$target" "$dir/corpus"
  echo "fuzz: $target for ${seconds}s ($(ls "$dir/corpus" | wc -l) inputs in the corpus)"
  rc=0
  "$build/bin/$target-fuzzer" "$dir/corpus" -max_total_time="$seconds" \
    -artifact_prefix="$dir/findings/" -max_len=262144 -rss_limit_mb=4096 \
    -timeout=60 -print_final_stats=1 ${QUANTC_FUZZ_SEED:+-seed=$QUANTC_FUZZ_SEED} \
    >"$dir/log.txt" 2>&1 || rc=$?
  grep -E "^stat::number_of_executed_units|^stat::new_units_added" \
    "$dir/log.txt" | sed "s/^/  /" || true
  if ((rc != 0)); then
    echo "fuzz: $target FOUND A PROBLEM (exit $rc); see $dir/log.txt:"
    grep -E "ERROR:|runtime error:|SUMMARY:|Test unit written" "$dir/log.txt" \
      | head -5 | sed "s/^/  /"
    failed+=("$target")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]}"
  exit 1
fi
echo "fuzz: no findings in ${targets[*]} (${seconds}s each)"
