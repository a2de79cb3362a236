#!/usr/bin/env bash
# Installs missing packages, builds everything and runs all tests (lit suite
# and gtest unit tests) through ctest, which prints the closing summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${QUANTC_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j2
