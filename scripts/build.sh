#!/usr/bin/env bash
# Configures and builds one build folder. Usage: scripts/build.sh DIR [cmake options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$1"
shift
cmake -S . -B "$dir" -G Ninja -DCUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" "$@" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
