#!/usr/bin/env bash
# The README's second command, and CI's: install what is missing, build with -Werror and
# run every test; then build the tests with AddressSanitizer + UndefinedBehaviorSanitizer
# and run them again; last, replay the inputs fuzzing once found and fuzz each input parser
# briefly (scripts/fuzz.sh; longer campaigns are run by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

echo "== Release build, all tests"
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DGPUSIM_BUILD_TESTS=ON -DGPUSIM_WERROR=ON
ctest --test-dir build --output-on-failure -j "$(nproc)"

echo "== ASan + UBSan build, all tests but the GPU comparisons, the Slurm round trip, the labs and the source view of every workload (they ran above, in the Release build)"
scripts/build.sh build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSIM_BUILD_TESTS=ON -DGPUSIM_WERROR=ON \
  -DGPUSIM_SANITIZE=ON
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" -E "validation_(against|corpus)_h(100|200)|calibration_fits_synthetic|study_slurm_round_trip|lab_|source_view_every_workload"

echo "== Fuzzing: committed regressions, then 30 s per input parser"
scripts/fuzz.sh 30
