#!/usr/bin/env bash
# Runs every bundled study (studies/*.yaml) into OUT/NAME.db and draws its plots into
# docs/studies/ (PNG): how the figures in docs/sweeps.md were made.
#   scripts/run_studies.sh [OUT]      (default: build/studies; needs build/gpusim)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/studies}"
mkdir -p "$out" docs/studies
for study in studies/*.yaml; do
  name="$(basename "$study" .yaml)"
  echo "== $name"
  ./build/gpusim sweep "$study" --db "$out/$name.db" --no-progress > "$out/$name.txt"
  /usr/bin/python3 scripts/plot_study.py "$out/$name.db" --out docs/studies --metric cycles --formats png \
    --gpusim build/gpusim > /dev/null
done
