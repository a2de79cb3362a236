#!/usr/bin/env bash
# The torchvision zoo (bench/zoo/zoo.py: 23 torchvision models exported to
# ONNX, compiled by quant-compile, checked against PyTorch) with Debian's
# python3. Builds quant-compile first unless --bin names the tools.
# Usage: bench/zoo/zoo.sh [zoo.py options] > docs/zoo.md
# (the Markdown report on stdout, progress on stderr; needs
# python3-torchvision, see scripts/install-deps.sh --with-reference)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
case " $* " in
  *" --bin "* | *" --bin="*) ;;
  *) "$root/scripts/build.sh" quant-compile >&2 ;;
esac
exec /usr/bin/python3 "$root/bench/zoo/zoo.py" "$@"
