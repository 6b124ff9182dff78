# nbody_direct with few warps (issue 13: the corpus's worst test kernel, -45% on the H100, ran
# 32 blocks of 8 warps). The kernel, its loads alone (uniform_stream) and its arithmetic alone
# (nbody_arith, validate/kernels/nbody_parts.cu), each with 1, 8 and 32 warps on one SM, and
# with 8 warps on each of 32 SMs as the corpus runs it. Every thread walks the same 8192 bodies
# (128 KB, in the L2 after the first launch). Then how far ptxas hoists loads above work: one warp
# loading a new line each trip and running W dependent multiply-adds on it (load_then_work_W,
# 4096 lines of 128 B, in the L2 after the first launch). Last, dependent chains of 8192 special
# functions (sfu_F, sfu_F_ftz), one warp: what ptxas's range fix-up of a non-ftz MUFU costs.
# Usage (on the device): python3 validate/probes/nbody_parts.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import flush, kernel, timed, write_csv

N = 8192
LINES, STRIDE = 4096, 32
WORK = (1, 4, 8, 16, 32)
SFU = ("rsqrt", "ex2", "lg2", "rcp", "sqrt", "sin")
CASES = [(1, 32), (1, 256), (1, 1024), (32, 256)]  # (blocks, threads per block)


def main():
    pos = cp.asarray(np.random.default_rng(45).random(4 * N, dtype=np.float32))
    out = cp.zeros(4 * 32 * 1024, dtype=cp.float32)
    launches = {
        "nbody_direct": lambda b, t: kernel("validate/corpus/misc.cu", "nbody_direct")((b,), (t,), (pos, out, np.int32(N))),
        "uniform_stream": lambda b, t: kernel("validate/kernels/nbody_parts.cu", "uniform_stream")((b,), (t,), (pos, out, np.int32(N))),
        "nbody_arith": lambda b, t: kernel("validate/kernels/nbody_parts.cu", "nbody_arith")((b,), (t,), (out, np.int32(N))),
    }
    lines = cp.zeros(LINES * STRIDE, dtype=cp.float32)
    for w in WORK:
        launches[f"load_then_work_{w}"] = lambda b, t, w=w: kernel("validate/kernels/nbody_parts.cu", f"load_then_work_{w}")(
            (b,), (t,), (lines, out, np.int32(LINES), np.int32(STRIDE)))
    for f in SFU:
        for name in (f"sfu_{f}", f"sfu_{f}_ftz"):
            launches[name] = lambda b, t, name=name: kernel("validate/kernels/nbody_parts.cu", name)((b,), (t,), (out, np.int32(N)))
    for _ in range(50):  # a busy GPU first, so that its clock is up before the first timing
        flush()
    rows = []
    for name, launch in launches.items():
        for blocks, threads in (CASES if name in ("nbody_direct", "uniform_stream", "nbody_arith") else [(1, 32)]):
            launch(blocks, threads)  # warm: the bodies in the L2, the code in the caches
            rows.append((name, blocks, threads, timed(lambda: launch(blocks, threads))))  # noqa: B023
            print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/nbody_parts.py (n {N}; load_then_work: {LINES} lines, stride {STRIDE} floats; median of 5, each after a warm launch)",
              ["kernel", "blocks", "threads", "us"], rows)


main()
