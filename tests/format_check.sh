#!/usr/bin/env bash
# Fails when a C, C++ or CUDA file of the project's own code is not laid out
# as clang-format writes it (.clang-format at the root). Candidates and data
# under tests/data, tests/gpu and resources/problems keep their own layout:
# tests and problem hashes read them as they are.
#
# usage: tests/format_check.sh [--fix]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
command -v clang-format > /dev/null || { echo "format_check: clang-format is not installed (packaging/bootstrap.sh installs it)" >&2; exit 1; }
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- app core ui tests resources/harness resources/probe)
else
  mapfile -t files < <(find app core ui tests resources/harness resources/probe -type f)
fi
mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -E '\.(c|cc|cpp|h|hpp|cu|cuh)$' | grep -vE '^tests/(data|gpu)/')
if [ "${1:-}" = --fix ]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run -Werror --style=file "${files[@]}" 2> /tmp/format_check.$$; then
  grep -E '^[^ ].*: (error|warning):' /tmp/format_check.$$ | cut -d: -f1 | sort -u | sed 's/^/  /'
  echo "format_check: these files are not as clang-format writes them; run tests/format_check.sh --fix" >&2
  rm -f /tmp/format_check.$$
  exit 1
fi
rm -f /tmp/format_check.$$
echo "format_check: ${#files[@]} files as clang-format writes them"
