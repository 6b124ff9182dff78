# What a shared-memory access with every lane predicated off costs (issue 13: the plain scan's
# predicated up-sweep). 2 blocks of 1024 threads per SM run 8 LDS (or STS) per trip under a
# run-time predicate, lanes 1 or 32 words apart; cycles per warp access per SM.
# Kernels: validate/kernels/predicated_shared.cu. Usage (on the device): python3 validate/probes/predicated_shared.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import PROPS, SMS, kernel, timed, write_csv

SRC = "validate/kernels/predicated_shared.cu"
MHZ = PROPS["clockRate"] / 1000
TRIPS, THREADS = 256, 1024


def main():
    grid = 2 * SMS
    out = cp.zeros(grid * THREADS, dtype=cp.uint32)
    accesses = grid * THREADS // 32 * TRIPS * 8 / SMS  # warp accesses per SM
    rows = []
    for name in ("loads_if", "stores_if"):
        fn = kernel(SRC, name)
        for on, stride in ((1, 1), (0, 1), (1, 32), (0, 32)):
            args = (out, np.int32(TRIPS), np.int32(on), np.int32(stride))
            for _ in range(3):
                fn((grid,), (THREADS,), args)
            us = timed(lambda: fn((grid,), (THREADS,), args), repeats=11)
            rows.append((name, on, stride, TRIPS, us, us * MHZ, us * MHZ / accesses))
            print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/predicated_shared.py (2 blocks of {THREADS} threads per SM, "
              f"{TRIPS} trips of 8 accesses; median of 11 launches by events; cycles at {MHZ:.0f} MHz)",
              ["kernel", "on", "stride", "trips", "us", "cycles", "cycles_per_warp_access"], rows)


main()
