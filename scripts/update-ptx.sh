#!/usr/bin/env bash
# Regenerates the checked-in PTX (validate/kernels/*.ptx, the labs' docs/labs/*/*.ptx and bench/*.ptx,
# target compute_75, as gpusim compiles) and register tables (*.regs: "sm_XX ENTRY REGISTERS"
# from ptxas) that let a machine without the CUDA toolkit simulate the bundled kernels. Run
# after editing a .cu.
# -lineinfo keeps the .cu line of each instruction (the source view); the code is the same.
# The .file path is cut to the file's name: gpusim finds it beside the PTX.
set -euo pipefail
cd "$(dirname "$0")/.."
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
for cu in validate/kernels/*.cu docs/labs/*/*.cu bench/*.cu; do
  dir="$(dirname "$cu")"
  name="$(basename "$cu" .cu)"
  (
    cd "$dir"
    "$CUDA_HOME/bin/nvcc" -ptx -O3 -lineinfo -arch=compute_75 "$name.cu" -o "$name.ptx"
    sed -i -E 's|^([[:space:]]*\.file[[:space:]]+[0-9]+[[:space:]]+")[^"]*/([^"/]*")|\1\2|' "$name.ptx"
    : > "$name.regs"
    for sm in 75 80 90; do
      "$CUDA_HOME/bin/ptxas" -arch=sm_$sm -v "$name.ptx" -o /dev/null 2>&1 |
        awk -v sm="sm_$sm" '/Compiling entry function/ { gsub(/\x27/, "", $7); entry = $7 }
                            /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") print sm, entry, $(i + 1) }' >> "$name.regs"
    done
  )
done
