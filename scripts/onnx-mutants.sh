#!/usr/bin/env bash
# A structure-level mutation campaign against the ONNX importer and the
# compiler: writes mutants of the repository's ONNX models (onnx-mutate) and
# runs each through quant-translate and quant-compile; mutants of a model
# with calibration data beside it (<model>.input.npy or calibration.npy)
# also through quant-compile --calibration-data (observers, calibration,
# quantization, int8 code). A tool may refuse a mutant (exit 1 with a
# message); a crash, a timeout or a sanitizer report is a finding, copied
# to <work>/findings with the tool's stderr.
#
# Usage: scripts/onnx-mutants.sh [--seed S] [--count N] [--build DIR]
#                                [--work DIR] [--no-compile] [model.onnx...]
#   --count N   mutants per model (default 100)
#   --max-mutations M  mutations per mutant, 1 to M (default 3)
#   --build DIR the build whose tools run (default build/; the sanitizer
#               build of scripts/sanitize.sh finds more)
# Exits non-zero when there is a finding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seed=$RANDOM$RANDOM
count=100
build=${QUANTC_BUILD_DIR:-$root/build}
work=""
compile=1
max_mutations=3
models=()
while (($#)); do
  case $1 in
  --seed) seed=$2; shift 2 ;;
  --count) count=$2; shift 2 ;;
  --max-mutations) max_mutations=$2; shift 2 ;;
  --build) build=$(cd "$2" && pwd); shift 2 ;;
  --work) work=$2; shift 2 ;;
  --no-compile) compile=0; shift ;;
  -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
  -*) echo "onnx-mutants: unknown option $1" >&2; exit 2 ;;
  *) models+=("$1"); shift ;;
  esac
done
if ((${#models[@]} == 0)); then
  # The repository's valid models (the invalid ones fail before any
  # mutation matters).
  mapfile -t models < <(cd "$root" && git ls-files '*.onnx' |
    grep -v '^test/Import/Inputs/invalid/' | sed "s|^|$root/|")
fi
work=${work:-$(mktemp -d)}
mkdir -p "$work/mutants" "$work/findings"
echo "onnx-mutants: seed $seed, $count mutants of ${#models[@]} models in $work"
"$build/bin/onnx-mutate" --seed "$seed" --count "$count" --out "$work/mutants" \
  --max-mutations "$max_mutations" \
  "${models[@]}"

# Calibration data of the m-th model (onnx-mutate names its mutants
# <m>-<stem>.<k>.onnx), one line "<m> <file>" each.
for m in "${!models[@]}"; do
  model=${models[$m]}
  for data in "${model%.onnx}.input.npy" "$(dirname "$model")/calibration.npy"; do
    if [[ -f $data ]]; then
      echo "$m $data"
      break
    fi
  done
done >"$work/data.txt"

# One mutant: prints "ok <file>" or "FINDING <tool> <file>".
run_one() {
  local f=$1 build=$2 compile=$3 findings=$4 work=$5 tmp m data
  tmp=$(mktemp -d)
  local tools=("quant-translate --import-onnx $f -o $tmp/out.mlir")
  if ((compile)); then
    tools+=("quant-compile $f -o $tmp/out.o")
    m=$(basename "$f")
    data=$(awk -v m="${m%%-*}" '$1 == m { print $2 }' "$work/data.txt")
    if [[ -n $data ]]; then
      tools+=("quant-compile $f --calibration-data $data --max-samples 16 -o $tmp/int8.o")
    fi
  fi
  for cmd in "${tools[@]}"; do
    local rc=0
    # ASan: no leak reports (Debian's uninstrumented MLIR keeps statics),
    # no false use-after-poison from its allocator.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0} \
      timeout 120 "$build/bin/"$cmd >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
    if ((rc > 1)) || grep -qE "Sanitizer|runtime error:" "$tmp/stderr"; then
      local tool=${cmd%% *} name
      name=$(basename "$f" .onnx)
      cp "$f" "$findings/$name.onnx"
      { echo "$ $cmd"; echo "exit $rc"; cat "$tmp/stderr"; } \
        >"$findings/$name.$tool.txt"
      echo "FINDING $tool $f (exit $rc)"
      rm -rf "$tmp"
      return 0
    fi
  done
  echo "ok $f"
  rm -rf "$tmp"
}
export -f run_one
find "$work/mutants" -name '*.onnx' | sort |
  xargs -P "$(nproc)" -I{} bash -c \
    "run_one {} '$build' $compile '$work/findings' '$work'" >"$work/results.txt"
total=$(wc -l <"$work/results.txt")
found=$(grep -c '^FINDING' "$work/results.txt" || true)
echo "onnx-mutants: $found finding(s) in $total mutants (seed $seed)"
grep '^FINDING' "$work/results.txt" || true
((found == 0))
