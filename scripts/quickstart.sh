#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the stencil on Kepler.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DGPUSIM_BUILD_TESTS=OFF
./build/gpusim --arch configs/kepler.yaml --workload workloads/stencil.yaml
