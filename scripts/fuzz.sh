#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time (default 12 s each,
# about a minute in all) from the seed corpus in fuzz/corpus/. A crash leaves its input as
# crash-* in build-fuzz/ and fails the script; add such inputs to the regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
seconds="${FUZZ_SECONDS:-12}"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWALKSIM_FUZZ=ON \
  -DWALKSIM_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_machine fuzz_kernel fuzz_experiment fuzz_trace fuzz_syscall
for t in machine kernel experiment trace syscall; do
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$t/." "$work/"
  echo "fuzz_$t: ${seconds}s"
  (cd build-fuzz && ASAN_OPTIONS=detect_leaks=0 "./fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=4096 \
     -print_final_stats=0 -close_fd_mask=3 "$work" 2>&1 | tail -2)
  rm -rf "$work"
done
echo "fuzz: no crashes"
