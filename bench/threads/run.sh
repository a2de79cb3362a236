#!/usr/bin/env bash
# The batch-1 thread-scaling run that `bench/threads.sh --build-only DIR`
# copies into DIR as DIR/run.sh. It needs only DIR (no quantc, no repository)
# and bash, coreutils, grep, sed, awk and gzip; python3 with numpy and
# onnxruntime adds the ONNX Runtime rows (ort_threads.py beside this file).
#
# For each model and kind listed in DIR/models.tsv (int8: the objects
# quant-compile makes from the zoo's ONNX export with its calibration images;
# float: timing copies whose weights repeat a short pattern, see
# tile_weights.py in bench/threads), compiled with --parallel=omp and linked
# with examples/common/run_model.c, it runs every thread count: latency per
# image, batch 1, best of N passes over the test images (N chosen so that a
# measurement takes about --budget seconds, at least 3 passes). It checks
# that the outputs are the same bytes at every thread count, and prints a
# Markdown table (ms per image, speed-up over the first thread count, the
# object's OpenMP parallel regions, the variant the object ran) to stdout;
# progress with timestamps goes to stderr.
#
# Usage: bash DIR/run.sh [--threads 1,2,4,8,16] [--budget SECONDS]
#          [--passes N] [--models resnet50,mobilenet_v2] [--no-ort]
#   --threads  thread counts, comma- or space-separated (default 1,2,4,8,16)
#   --budget   seconds per measurement (default 2: 60 measurements of 2-4 s
#              for the three models with ONNX Runtime, 3-4 minutes; a run of
#              the driver that hangs is stopped after 120 s)
#   --passes   a fixed number of passes instead of the budget
#   --models   a subset of models.tsv's models
#   --no-ort   skip ONNX Runtime
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
args="$*"
threads="1 2 4 8 16"
budget=2
passes=0
only=""
ort=yes
while (($#)); do
  case $1 in
    --threads) threads=${2//,/ }; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --models) only=" ${2//,/ } "; models_arg=$2; shift 2 ;;
    --no-ort) ort=no; shift ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
read -r -a tlist <<<"$threads"
base=${tlist[0]}
images=$here/test.npy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$here/lib" "$work/lib" # the drivers' run path is $ORIGIN/../lib
start=$(date +%s)
say() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - start))s] $*" >&2; }

# The machine.
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//' || true)
cores=""
if command -v lscpu >/dev/null; then
  cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
  per=$(lscpu | sed -n 's/^Core(s) per socket: *//p')
  sockets=$(lscpu | sed -n 's/^Socket(s): *//p')
  smt=$(lscpu | sed -n 's/^Thread(s) per core: *//p')
  [[ -n $per && -n $sockets ]] && cores="$((per * sockets)) cores, $smt thread(s) per core"
fi
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' |
  grep -xE 'avx2|avx512f|avx512_vnni|avx_vnni|amx_int8' | paste -sd, - || true)
omp=$(env | grep -E '^(OMP|KMP)_' | paste -sd' ' - || true)
machine="$cpu; $(nproc) CPUs online${cores:+ ($cores)}; CPU flags ${flags:-without avx2}; ${omp:-no OMP_/KMP_ variables set}"
say "machine: $machine"
say "threads: ${tlist[*]}; $( ((passes > 0)) && echo "$passes passes" || echo "about $budget s per measurement")"

# One measurement: latency per image in ms of "$exe" at $t threads (best of
# the passes), its outputs in $out. Sets ms, used (passes), isa.
measure() {
  local exe=$1 out=$2 t=$3 n=$passes log us
  if ((n == 0)); then # one pass first, to size the run to the budget
    log=$(timeout 120 "$exe" "$images" "$out" 1 "$t") || return 1
    us=$(sed -nE 's/^latency ([0-9.]+) us.*/\1/p' <<<"$log")
    samples=$(sed -nE 's/^ran ([0-9]+) samples.*/\1/p' <<<"$log")
    n=$(awk -v b="$budget" -v us="$us" -v s="$samples" 'BEGIN {
      n = int(b * 1e6 / (us * s)); print (n < 3 ? 3 : (n > 300 ? 300 : n)) }')
  fi
  log=$(timeout 120 "$exe" "$images" "$out" "$n" "$t") || return 1
  us=$(sed -nE 's/^latency ([0-9.]+) us.*/\1/p' <<<"$log")
  samples=$(sed -nE 's/^ran ([0-9]+) samples.*/\1/p' <<<"$log")
  isa=$(sed -nE 's/^ran .*\(int8 kernels: (.*)\)$/\1/p' <<<"$log")
  [[ -n $us ]] || { echo "run.sh: $exe printed no latency" >&2; return 1; }
  ms=$(awk -v us="$us" 'BEGIN { printf "%.3f", us / 1000 }')
  used=$n
}

declare -A time regions variant same
rows=()
while IFS=$'\t' read -r model label kind exe nregions _; do
  [[ $model == model || -z $model ]] && continue
  [[ -n $only && $only != *" $model "* ]] && continue
  rows+=("$model $kind")
  regions[$model.$kind]=$nregions
  path=$here/$exe
  if [[ $exe == *.gz ]]; then # float timing copies travel compressed
    path=$work/bin/$(basename "$exe" .gz)
    if command -v gzip >/dev/null; then
      gzip -dc "$here/$exe" >"$path"
    else
      python3 -c 'import gzip, shutil, sys; shutil.copyfileobj(gzip.open(sys.argv[1]), sys.stdout.buffer)' "$here/$exe" >"$path"
    fi
    chmod +x "$path"
  fi
  same[$model.$kind]=identical
  for t in "${tlist[@]}"; do
    out=$work/$model-$kind-$t.npy
    if ! measure "$path" "$out" "$t"; then
      say "$label $kind quantc, $t threads: FAILED"
      time[$model.$kind.quantc.$t]=failed
      continue
    fi
    time[$model.$kind.quantc.$t]=$ms
    variant[$model.$kind]=$isa
    say "$label $kind quantc, $t threads: $ms ms per image (best of $used passes; $isa)"
    if [[ $t != "$base" && -f $work/$model-$kind-$base.npy ]] &&
      ! cmp -s "$out" "$work/$model-$kind-$base.npy"; then
      same[$model.$kind]="DIFFER at $t threads"
      say "$label $kind: the outputs at $t threads differ from those at $base"
    fi
  done
  if [[ -f $here/expected/$model-$kind.npy && -f $work/$model-$kind-$base.npy ]]; then
    if cmp -s "$here/expected/$model-$kind.npy" "$work/$model-$kind-$base.npy"; then
      same[$model.$kind]+=", = build host"
    else
      same[$model.$kind]+=", != build host"
    fi
  fi
  cp "$work/$model-$kind-$base.npy" "$work/quantc-$model-$kind.npy" 2>/dev/null || true
done <"$here/models.tsv"

ortver=""
if [[ $ort == yes ]] && python3 -c 'import onnxruntime, numpy' 2>/dev/null; then
  ortver=$(python3 -c 'import onnxruntime; print(onnxruntime.__version__)')
  say "ONNX Runtime $ortver"
  select=()
  [[ -n $only ]] && select=(--models "$models_arg")
  python3 "$here/ort_threads.py" --dir "$here" --threads "${tlist[*]}" \
    --budget "$budget" --passes "$passes" --quantc-outputs "$work" \
    "${select[@]}" >"$work/ort.tsv" ||
    say "ort_threads.py failed: ONNX Runtime rows missing"
  while IFS=$'\t' read -r model kind t ms _; do
    [[ $t == note ]] && { same[$model.$kind.ort]=$ms; continue; } # ms: the text
    time[$model.$kind.ort.$t]=$ms
  done <"$work/ort.tsv"
elif [[ $ort == yes ]]; then
  say "no python3 with onnxruntime and numpy: no ONNX Runtime rows"
fi

label() { awk -F'\t' -v m="$1" '$1 == m { print $2; exit }' "$here/models.tsv"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {
  if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else printf "-" }'; }
echo "### Threads: batch 1, ${tlist[*]} threads ($(date -u +%Y-%m-%d))"
echo
echo "Machine: $machine. Command: \`bash run.sh $args\` ($(head -1 "$here/build.txt" 2>/dev/null));"
echo "latency per image in ms, batch 1, \`--parallel=omp\`, best of N passes over"
echo "the ${samples:-?} test images (about $budget s per measurement$( ((passes > 0)) && echo ", $passes passes")); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "int8: the zoo's models as quant-compile --calibration-data compiles them; float: copies"
echo "with repeated weights (the same graph and shapes; times do not depend on the values)."
echo "ORT: ONNX Runtime${ortver:+ $ortver} (intra_op_num_threads = threads, sequential, all graph"
echo "optimizations) on the float copy and on the QDQ int8 model of bench/peers (weights repeated too)."
echo
header="| model | kind | runtime |"
rule="|---|---|---|"
for t in "${tlist[@]}"; do header+=" $t thr |"; rule+="--:|"; done
for t in "${tlist[@]:1}"; do header+=" x$t |"; rule+="--:|"; done
echo "$header parallel regions | variant | outputs |"
echo "$rule--:|---|---|"
for row in "${rows[@]}"; do
  read -r model kind <<<"$row"
  for rt in quantc ort; do
    [[ $rt == ort && -z ${time[$model.$kind.ort.$base]:-} ]] && continue
    line="| $(label "$model") | $kind | $( [[ $rt == ort ]] && echo ORT || echo quantc) |"
    for t in "${tlist[@]}"; do line+=" ${time[$model.$kind.$rt.$t]:--} |"; done
    for t in "${tlist[@]:1}"; do
      line+=" $(ratio "${time[$model.$kind.$rt.$base]:-}" "${time[$model.$kind.$rt.$t]:-}") |"
    done
    if [[ $rt == quantc ]]; then
      line+=" ${regions[$model.$kind]} | ${variant[$model.$kind]:--} | ${same[$model.$kind]} |"
    else
      line+=" - | - | ${same[$model.$kind.ort]:--} |"
    fi
    echo "$line"
  done
done
if [[ -n $ortver ]]; then
  echo
  echo "ORT time / quantc time (above 1: quantc faster):"
  echo
  header="| model | kind |"
  rule="|---|---|"
  for t in "${tlist[@]}"; do header+=" $t thr |"; rule+="--:|"; done
  echo "$header"
  echo "$rule"
  for row in "${rows[@]}"; do
    read -r model kind <<<"$row"
    line="| $(label "$model") | $kind |"
    for t in "${tlist[@]}"; do
      line+=" $(ratio "${time[$model.$kind.ort.$t]:-}" "${time[$model.$kind.quantc.$t]:-}") |"
    done
    echo "$line"
  done
fi
say "done in $(($(date +%s) - start)) s"
