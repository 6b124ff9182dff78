# Does a shared load wait for the same warp's earlier shared store, and for how long? (issue
# 13: the plain scan's down-sweep, a load after a store each level, is 20% faster in gpusim than
# on the H100 for a lone block; validate/probes/scan_clock.py). One warp chases s[v] = v and each
# hop stores v, or loads an unrelated word, with 1-32 lanes per bank.
# Kernels: validate/kernels/shared_order.cu. Usage (on the device): python3 validate/probes/shared_order.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import kernel, write_csv

SRC = "validate/kernels/shared_order.cu"
TRIPS, REPEATS = 4096, 5
KERNELS = ("chase_only", "chase_store_1", "chase_store_2", "chase_store_8", "chase_store_32", "chase_load_1",
           "chase_load_32")


def main():
    out = cp.zeros(32, dtype=cp.uint32)
    cycles = cp.zeros(1, dtype=cp.int64)
    rows = []
    for name in KERNELS:
        fn = kernel(SRC, name)
        got = []
        for _ in range(REPEATS):
            fn((1,), (32,), (out, cycles, np.int32(TRIPS)))
            cp.cuda.Device().synchronize()
            got.append(int(cycles.get()[0]))
        c = float(np.median(got))
        rows.append((name, TRIPS, c, c / TRIPS))
        print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/shared_order.py (one warp; {TRIPS} trips; median of {REPEATS})",
              ["kernel", "trips", "cycles", "cycles_per_trip"], rows)


if __name__ == "__main__":
    main()
