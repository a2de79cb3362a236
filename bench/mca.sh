#!/usr/bin/env bash
# AArch64 inner kernels under llvm-mca: representative convolutions compiled
# by quant-compile for Neoverse N1 (dotprod: sdot kernel) and Neoverse V1
# (i8mm: smmla kernel), the innermost multiply-accumulate loop extracted from
# the assembly (bench/mca/kernel_loop.py) and analysed by llvm-mca-22 with
# the CPU's LLVM scheduling model. Prints a Markdown section.
# Usage: bench/mca.sh [--keep DIR]   (DIR keeps the .mlir, .s and loops)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" quant-compile >/dev/null
mca=llvm-mca-22
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ "${1:-}" == "--keep" ]]; then
  work=$2
  mkdir -p "$work"
  trap - EXIT
fi
py=/usr/bin/python3

# name  ic ih oc kh stride pad groups  (ResNet-50 v1.5 / MobileNetV2 layers)
layers=(
  "res3b_branch2b:3x3 128 28 128 3 1 1 1"
  "res4b_branch2a:1x1 1024 14 256 1 1 0 1"
  "mbv2_b2_dw:3x3-dw 144 56 144 3 1 1 144"
)
cpus=(neoverse-n1 neoverse-v1)

# The core's int8 peak from the same scheduling model: reciprocal throughput
# of independent sdot / smmla (16 / 32 MACs each).
peak() { # cpu instruction macs
  local f=$work/peak-$2.s
  for i in 0 1 2 3 4 5 6 7; do
    echo "$2 v$i.4s, v$((16 + i % 4)).16b, v$((20 + i % 4)).16b"
  done >"$f"
  "$mca" -mtriple=aarch64-linux-gnu -mcpu="$1" -mattr=+dotprod,+i8mm "$f" |
    awk -v macs="$3" '/Block RThroughput/ { printf "%.0f", 8 * macs / $3 }'
}

echo "### AArch64 kernels (llvm-mca) ($(date -u +%Y-%m-%d), $($mca --version | grep -m1 -o 'LLVM version [0-9.]*'))"
echo
echo "Peak int8 MAC/cycle in LLVM's scheduling models (8 independent 128-bit"
peaks=$(for c in "${cpus[@]}"; do
  echo -n "$c: sdot $(peak "$c" sdot 16), smmla $(peak "$c" smmla 32); "
done)
echo "instructions): ${peaks%; }."
echo
echo "| layer | cpu | kernel | instr/iter | uops/iter | cycles/iter (RThroughput) | cycles/iter (simulated) | MAC/iter | MAC/cycle | % of peak | limited by |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for spec in "${layers[@]}"; do
  name=${spec%% *}
  read -r ic ih oc kh stride pad groups <<<"${spec#* }"
  "$py" "$root/bench/mca/conv_layer.py" "$work/$name.mlir" "$ic" "$ih" "$oc" \
    "$kh" "$stride" "$pad" "$groups"
  for cpu in "${cpus[@]}"; do
    base=$work/${name//:/_}-$cpu
    kernel=$("$build/bin/quant-compile" "$work/$name.mlir" \
      --target aarch64-linux-gnu --cpu "$cpu" --emit=asm -o "$base.s" \
      --remarks 2>&1 | grep -o 'int8 kernel: .*' | sed 's/int8 kernel: //')
    macs=$("$py" "$root/bench/mca/kernel_loop.py" "$base.s" 2>&1 >"$base.loop" |
      cut -d' ' -f1)
    "$mca" -mtriple=aarch64-linux-gnu -mcpu="$cpu" -iterations=1000 \
      -bottleneck-analysis "$base.loop" >"$base.mca" 2>&1
    best=$(case $cpu in neoverse-n1) peak "$cpu" sdot 16 ;;
      *) if grep -q smmla "$base.loop"; then peak "$cpu" smmla 32; else
        peak "$cpu" sdot 16; fi ;; esac)
    awk -v name="$name" -v cpu="$cpu" -v kernel="$kernel" -v macs="$macs" \
      -v best="$best" '
      /^Iterations:/ { iters = $2 }
      /^Instructions:/ { instrs = $2 }
      /^Total Cycles:/ { cycles = $3 }
      /^Total uOps:/ { uops = $3 }
      /^Dispatch Width:/ { width = $3 }
      /^Block RThroughput:/ { rthr = $3 }
      /^Resources:/ { inres = 1; next }
      inres && /^\[/ { id = $1; res[id] = $3; order[++n] = id; next }
      inres && /^$/ { inres = 0 }
      /^Resource pressure per iteration:/ { getline hdr; getline vals;
        split(hdr, h, " +"); split(vals, v, " +") }
      END {
        # The busiest pipes against the dispatch limit.
        top = 0
        for (i in h) if (h[i] ~ /^\[/ && v[i] + 0 > top) top = v[i] + 0
        units = ""
        for (k = 1; k <= n; ++k)
          for (i in h)
            if (h[i] == order[k] && v[i] + 0 >= top - 0.05 && \
                index(units, res[order[k]]) == 0)
              units = units (units == "" ? "" : ", ") res[order[k]]
        disp = uops / iters / width
        why = disp >= top ? sprintf("dispatch (%.0f uops / %d per cycle)", uops / iters, width) \
                          : sprintf("%s (%.2f cycles)", units, top)
        sim = cycles / iters
        printf "| %s | %s | %s | %d | %d | %.2f | %.2f | %d | %.1f | %.0f %% | %s |\n",
          name, cpu, kernel, instrs / iters, uops / iters, rthr, sim, macs,
          macs / sim, 100 * macs / sim / best, why
      }' "$base.mca"
  done
done
