# Where the scan pair's time goes, level by level (issue 13: per added wave the H100 runs the
# padded scan in 5.25K cycles at 88% of its issue bound, gpusim in 6.0-6.3K). Both kernels of
# validate/kernels/scan_clock.cu (validate/kernels/scan.cu with thread 0 stamping clock64
# after each barrier) at 1 block (one lone block's latency), 132 (one per SM), 1056 (a full
# wave, 8 per SM) and 8192 blocks. Per stamp interval: the median and the 10th/90th percentile
# over blocks; interval 0 is entry to the first barrier (the global loads), 1-9 the up-sweep's
# levels, 10-18 the down-sweep's, 19 the whole block; `per_sm_block` is each SM's span from its
# first block's entry to its last block's final barrier, divided by its blocks (median of SMs).
# Usage (on the device): python3 validate/probes/scan_clock.py OUT.csv [RAW_DIR]
import os
import sys

import cupy as cp
import numpy as np

from on_device import PROPS, kernel, timed, write_csv
from stamps import STAMPS, summary

SRC = "validate/kernels/scan_clock.cu"
MHZ = PROPS["clockRate"] / 1000
BLOCK = 256
GRIDS = (1, 132, 1056, 8192)


def main():
    raw = sys.argv[2] if len(sys.argv) > 2 else None
    n = 2 * BLOCK * max(GRIDS)
    inp = cp.asarray(np.random.default_rng(6).integers(0, 1 << 20, n, dtype=np.uint32))
    out = cp.zeros(n, dtype=cp.uint32)
    stamps = cp.zeros(max(GRIDS) * STAMPS, dtype=cp.int64)
    shared = (2 * BLOCK + 2 * BLOCK // 32) * 4
    rows = []
    for name in ("scan_block_stamped", "scan_block_padded_stamped"):
        fn = kernel(SRC, name)
        for _ in range(20):  # the clock up, the input in the L2
            fn((max(GRIDS),), (BLOCK,), (inp, out, stamps), shared_mem=shared)
        for grid in GRIDS:
            us = timed(lambda: fn((grid,), (BLOCK,), (inp, out, stamps), shared_mem=shared), repeats=21)
            rows.append((name, grid, "event_us", us, us, us))
            st = stamps.get().reshape(-1, STAMPS)[:grid]  # the last repeat's
            if raw:
                np.save(os.path.join(raw, f"{name}_{grid}.npy"), st)
            for r in summary(st):
                rows.append((name, grid, *r))
            print(rows[-2], rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/scan_clock.py ({BLOCK} threads; clock64 stamps of the last of "
              f"21 launches by events, input in the L2; {MHZ:.0f} MHz)",
              ["kernel", "blocks", "interval", "median", "p10", "p90"], rows)


main()
