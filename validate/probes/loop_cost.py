# What a loop's back branch costs (issue 13: taken branches; a warp walking lines one load and add
# per trip is about 20 cycles a line slower than an unrolled chase). One thread on one SM:
# K = 1, 2, 4, 8 dependent FADDs per trip of a loop that is not unrolled; a chase from the L2 and
# from DRAM unrolled 1 and 16 times; a walk of lines (load, add) from the L2 and from DRAM.
# Kernels: validate/kernels/loop_cost.cu. Usage (on the device): python3 validate/probes/loop_cost.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import flush, kernel, write_csv

SRC = "validate/kernels/loop_cost.cu"
TRIPS, HOPS, REPEATS = 4096, 2048, 5


def main():
    ring_words = HOPS * 32
    ring = cp.asarray(((np.arange(ring_words, dtype=np.uint64) + 32) % ring_words).astype(np.uint32))
    out = cp.zeros(2, dtype=cp.float32)
    cycles = cp.zeros(1, dtype=cp.int64)
    last = cp.zeros(1, dtype=cp.uint32)
    for _ in range(50):
        flush()
    rows = []

    def median(fn, args, before):
        got = []
        for _ in range(REPEATS):
            if before:
                before()
            fn((1,), (32,), args)
            cp.cuda.Device().synchronize()
            got.append(int(cycles.get()[0]))
        return float(np.median(got))

    for k in (1, 2, 4, 8):
        c = median(kernel(SRC, f"fadd_loop_{k}"), (out, cycles, np.int32(TRIPS), np.float32(0.999)), None)
        rows.append((f"fadd_loop_{k}", "registers", TRIPS, c, c / TRIPS))
    for name in ("chase_unroll_1", "chase_unroll_16", "walk_lines", "chase_then_add", "chase_test_value",
                 "walk_lines_unroll_4"):
        fn = kernel(SRC, name)
        args = (ring, cycles, last, np.int32(HOPS))
        c = median(fn, args, flush)
        rows.append((name, "dram", HOPS, c, c / HOPS))
        fn((1,), (32,), args)  # the lines into the L2
        c = median(fn, args, None)
        rows.append((name, "l2", HOPS, c, c / HOPS))
    for r in rows:
        print(r, flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/loop_cost.py (one thread; {TRIPS} trips, {HOPS} hops over lines 128 B "
              f"apart; median of {REPEATS}; dram: after a 256 MB read; l2: after the same kernel)",
              ["kernel", "data", "trips", "cycles", "cycles_per_trip"], rows)


if __name__ == "__main__":
    main()
