#!/usr/bin/env bash
# Dumps the SASS ptxas makes for every kernel source gpusim validates (validate/corpus/*.cu,
# validate/kernels/*.cu), with line information, for validate/sass_structure.py. Run where the
# CUDA toolkit has nvdisasm (the device machine): validate/dump_sass.sh OUT_DIR [sm_90]
set -euo pipefail
cd "$(dirname "$0")/.."
out="$1"
arch="${2:-sm_90}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
mkdir -p "$out"
"$cuda/bin/nvcc" --version | tail -2 >"$out/toolkit.txt"
for cu in validate/corpus/*.cu validate/kernels/*.cu; do
  name="$(basename "$(dirname "$cu")")_$(basename "$cu" .cu)"
  "$cuda/bin/nvcc" -cubin -arch="$arch" -lineinfo -Ivalidate/corpus -o "$out/$name.cubin" "$cu"
  "$cuda/bin/nvcc" -ptx -arch="$arch" -lineinfo -Ivalidate/corpus -o "$out/$name.ptx" "$cu"
  "$cuda/bin/nvdisasm" -c -g "$out/$name.cubin" >"$out/$name.sass"
  rm "$out/$name.cubin"
done
