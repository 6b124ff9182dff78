# Where the scan pair's time goes (issue 13: scan vs padded scan is the one textbook effect past
# 20%; gpusim has the plain scan 12% fast and the padded one 12% slow at 4096 blocks). Both
# kernels of validate/kernels/scan.cu (256 threads, 512 elements per block) timed by events at
# 1 block (one block's latency and the launch), 132 (one per SM), 1056 (a full wave: 8 per SM)
# and more: the slope is the throughput per block.
# Usage (on the device): python3 validate/probes/scan_parts.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import PROPS, kernel, timed, write_csv

SRC = "validate/kernels/scan.cu"
MHZ = PROPS["clockRate"] / 1000
BLOCK = 256
GRIDS = (1, 132, 264, 528, 1056, 2112, 4096, 8192)


def main():
    n = 2 * BLOCK * max(GRIDS)
    inp = cp.asarray(np.random.default_rng(6).integers(0, 1 << 20, n, dtype=np.uint32))
    out = cp.zeros(n, dtype=cp.uint32)
    shared = (2 * BLOCK + 2 * BLOCK // 32) * 4
    rows = []
    for name in ("scan_block", "scan_block_padded"):
        fn = kernel(SRC, name)
        for _ in range(20):  # the clock up, the input in the L2
            fn((max(GRIDS),), (BLOCK,), (inp, out), shared_mem=shared)
        for grid in GRIDS:
            us = timed(lambda: fn((grid,), (BLOCK,), (inp, out), shared_mem=shared), repeats=21)
            rows.append((name, grid, us, us * MHZ))
            print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/scan_parts.py ({BLOCK} threads; median of 21 launches by events; "
              f"cycles at {MHZ:.0f} MHz)", ["kernel", "blocks", "us", "cycles"], rows)


main()
