#!/usr/bin/env bash
# The conventions, checked rather than remembered (CI runs this after the test build):
# - every tracked C++ file is as clang-format (.clang-format) writes it;
# - clang-tidy (.clang-tidy) finds nothing in the non-test C++ sources the last commit changed
#   (all of them take 3-4 minutes on two cores; CI has not the time). BASE=<rev> widens the range.
# Needs build-test/compile_commands.json (scripts/test.sh makes it).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
status=0
unformatted=$(git ls-files '*.cpp' '*.hpp' | while read -r f; do clang-format "$f" | cmp -s - "$f" || echo "$f"; done)
if [[ -n "$unformatted" ]]; then
  echo "check-style: not as clang-format writes them (run: clang-format -i FILE):"
  echo "$unformatted" | sed 's/^/  /'
  status=1
fi
base="${BASE:-HEAD~1}"
if git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  changed=$(git diff --name-only --diff-filter=d "$base" -- '*.cpp' | grep -v 'test' | grep -v '^fuzz/' || true)
else
  changed=""  # a single-commit clone: nothing to compare with
fi
if [[ -n "$changed" ]]; then
  db="${DB:-build-test}"
  [[ -f "$db/compile_commands.json" ]] || { echo "check-style: $db/compile_commands.json missing (run scripts/test.sh)"; exit 2; }
  # -Wno-unknown-warning-option: a compile database made by g++ (DB=...) carries options clang does not know.
  # (Test sources are left out: they are built with precompiled gtest headers, and CI has not the time.)
  out=$(echo "$changed" | xargs -P"$(nproc)" -n4 clang-tidy -p "$db" --quiet --extra-arg=-Wno-unknown-warning-option 2>/dev/null |
        grep -E '(warning|error):' || true)
  if [[ -n "$out" ]]; then
    echo "check-style: clang-tidy on the changed sources:"
    echo "$out"
    status=1
  fi
  echo "check-style: clang-tidy checked $(echo "$changed" | wc -l) changed source(s)"
fi
[[ $status -eq 0 ]] && echo "check-style: clang-format and clang-tidy clean"
exit $status
