#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time (default 12 s each,
# about a minute in all) from the seed corpus in fuzz/corpus/. A crash leaves its input as
# crash-* (or timeout-*) in build-test/ and fails the script; add such inputs to the regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
seconds="${FUZZ_SECONDS:-12}"
# The same build as scripts/test.sh (after it, nothing is left to compile).
./scripts/configure-test-build.sh
cmake --build build-test -j"$(nproc)" --target fuzz_machine fuzz_kernel fuzz_experiment fuzz_trace fuzz_syscall fuzz_btf
work=""
trap '[ -z "$work" ] || rm -rf "$work"' EXIT  # also when a crash stops the script
for t in machine kernel experiment trace syscall btf; do
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$t/." "$work/"
  echo "fuzz_$t: ${seconds}s"
  max_len=4096
  [ "$t" = btf ] && max_len=16384  # the seed, a look-alike kernel's BTF, is 4.3 KB
  # -timeout: an input that takes more than 20 s is a hang, and fails the run like a crash.
  (cd build-test && ASAN_OPTIONS=detect_leaks=0 "./fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="$max_len" \
     -timeout=20 -print_final_stats=0 -close_fd_mask=3 "$work" 2>&1 | tail -2)
  rm -rf "$work"
done
echo "fuzz: no crashes"
