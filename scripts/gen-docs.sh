#!/usr/bin/env bash
# Regenerates the ODS documentation of the qnt dialect and its passes into
# docs/Dialects/Qnt/ (the ctest `docs-up-to-date` fails when they are stale).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${QUANTC_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" mlir-doc >/dev/null
mkdir -p "$root/docs/Dialects/Qnt" "$root/docs/Conversion" "$root/docs/Transforms"
cp "$build"/docs/Qnt/*.md "$root/docs/Dialects/Qnt/"
cp "$build"/docs/Conversion/*.md "$root/docs/Conversion/"
cp "$build"/docs/Transforms/*.md "$root/docs/Transforms/"
echo "updated: $(ls "$root"/docs/Dialects/Qnt/*.md "$root"/docs/Conversion/*.md "$root"/docs/Transforms/*.md | xargs -n1 basename | tr '\n' ' ')"
