#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each for SECONDS (default 60),
# starting from the seed corpora (configs/, workloads/, the checked-in PTX, tests/fuzz/seeds)
# and a working corpus kept in build-fuzz/corpus. Any input that crashes, hangs (10 s), leaks
# or takes more than 2 GB lands in build-fuzz/artifacts/TARGET: copy it to
# tests/fuzz/regressions/TARGET/ once fixed, so that CI replays it.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: arch workload ptx expression study)
#        scripts/fuzz.sh --replay                 (only replay tests/fuzz/regressions)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
replay_only=0
if [ "${1:-}" = "--replay" ]; then replay_only=1; shift; elif [ -n "${1:-}" ]; then seconds=$1; shift; fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(arch workload ptx expression study)

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSIM_FUZZ=ON \
  -DGPUSIM_BUILD_TESTS=OFF -DGPUSIM_BUILD_BENCH=OFF -DCUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" >/dev/null
cmake --build build-fuzz --parallel "$(nproc)" --target "${targets[@]/%/_fuzz}"

seeds_of() {
  case "$1" in
    arch) echo configs ;;
    workload) echo "workloads workloads/micro" ;;
    ptx) echo "$(ls -d validate/kernels)" ;;
    expression) echo tests/fuzz/seeds/expression ;;
    study) echo studies ;;
  esac
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  fuzzer=build-fuzz/tests/fuzz/${t}_fuzz
  regressions=tests/fuzz/regressions/$t
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== $t: replaying $(ls "$regressions" | wc -l) committed input(s) that once failed"
    "$fuzzer" -runs=1 "$regressions"/* 2>&1 | grep -E "^Executed|ERROR|SUMMARY"
  fi
  [ "$replay_only" = 1 ] && continue
  corpus=build-fuzz/corpus/$t
  artifacts=build-fuzz/artifacts/$t/
  mkdir -p "$corpus" "$artifacts"
  echo "== $t: fuzzing for $seconds s"
  # shellcheck disable=SC2046
  "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" $(seeds_of "$t") 2>&1 | grep -E "^stat::number_of_executed_units|^stat::peak_rss|ERROR|SUMMARY|^#.*DONE" || true
  if [ -n "$(ls -A "$artifacts")" ]; then
    echo "fuzz: $t found failing inputs in $artifacts" >&2
    exit 1
  fi
done
