# How much of a footprint the H100's L2 keeps pass after pass, by access order (issue 13: the
# L2's replacement). Every SM reads the same footprint four times, one launch per pass, after a
# 256 MB read emptied the L2:
#   sweep   - l2_read_passes: all threads step through the array together (coalesced, ld.cg);
#   streams - lines_in_flight_16: each of 132 x 4 warps walks its own contiguous region;
#   one_warp - lines_in_flight_16 with one warp on one SM.
# Under LRU nothing of a cyclic walk larger than the cache survives; what does, pass by pass,
# tells the policy. Usage (on the device): python3 validate/probes/l2_passes.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, flush, kernel, write_csv

PASSES = 4
data = cp.zeros(24 << 20, dtype=cp.float32)       # 96 MB
out = cp.zeros(SMS * 8 * 256, dtype=cp.float32)
lines_16 = kernel("validate/kernels/micro.cu", "lines_in_flight_16")
passes_kernel = kernel("validate/kernels/micro.cu", "l2_read_passes")


def launcher(order, mb):
    floats = mb << 18
    if order == "sweep":
        threads = SMS * 8 * 256
        n = floats // (4 * threads) * 4 * threads
        return lambda: passes_kernel((SMS * 8,), (256,), (data, out, np.int32(n), np.int32(1)))
    blocks = SMS * 4 if order == "streams" else 1
    groups = (floats // 32) // (blocks * 16)
    return lambda: lines_16((blocks,), (32,), (data, out, np.int32(groups), np.int64(32)))


def passes(order, mb):
    run = launcher(order, mb)
    ev = [cp.cuda.Event() for _ in range(PASSES + 1)]
    times = []
    for _ in range(3):
        flush()
        ev[0].record()
        for p in range(PASSES):
            run()
            ev[p + 1].record()
        ev[-1].synchronize()
        times.append([cp.cuda.get_elapsed_time(ev[p], ev[p + 1]) * 1e3 for p in range(PASSES)])
    return np.median(np.array(times), axis=0)


def main():
    rows = []
    for order, sizes in (("sweep", (8, 24, 32, 36, 40, 44, 48, 56, 64)),
                         ("streams", (8, 24, 32, 36, 40, 44, 48, 56, 64)),
                         ("one_warp", (8, 24, 28, 32, 40, 48))):
        for mb in sizes:
            t = passes(order, mb)
            rows.append((order, mb, *t))
            print(rows[-1], flush=True)
    write_csv(sys.argv[1], "python3 validate/probes/l2_passes.py (median of 3; 256 MB read before each; one launch per pass)",
              ["order", "footprint_mb"] + [f"pass{p + 1}_us" for p in range(PASSES)], [(o, mb, *t) for o, mb, *t in rows])


main()
