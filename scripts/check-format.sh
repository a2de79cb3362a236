#!/usr/bin/env bash
# Fails when a tracked C++ file is not clang-format-22 clean (.clang-format).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v clang-format-22 >/dev/null; then
  echo "check-format: clang-format-22 not installed" >&2
  exit 1
fi
files=$(git ls-files '*.cpp' '*.h' 2>/dev/null || find dialects include lib tools test bench -name '*.cpp' -o -name '*.h')
clang-format-22 --dry-run -Werror $files
echo "check-format: $(echo "$files" | wc -w) files clean"
