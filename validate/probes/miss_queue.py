# Does a load that misses the L1 wait behind other warps' misses, and how many lines an SM
# sends when it is busy? (issue 13: spmv_csr_vector, the corpus test part's worst launch, +53%
# in gpusim, where each of its three dependent loads waits about 1000 cycles behind the SM's
# one queue of departing lines, 2 cycles a line.) One block per SM (grid 1 or 132): warp 0
# chases a 4 MB ring of lines in the L2, G other warps gather 4 x 32 random lines of a 16 MB
# L2-resident table per trip until the chase ends. Per case: cycles per hop (median over
# blocks) and the gathering warps' lines per cycle (the block's trips x 128 over the chase).
# Kernel: validate/kernels/miss_queue.cu. Usage (on the device): python3 validate/probes/miss_queue.py OUT.csv
import sys

import numpy as np

SRC = "validate/kernels/miss_queue.cu"
RING_LINES, TABLE_LINES, HOPS = 1 << 15, 1 << 17, 256
GATHERING = (0, 3, 7, 15, 31)


def ring_of_lines(lines, seed=7):
    """ints[lines * 32]: element i * 32 holds the index of the next line's element, one random cycle."""
    order = np.random.default_rng(seed).permutation(lines)
    ring = np.zeros(lines * 32, dtype=np.int32)
    ring[order * 32] = np.roll(order, -1) * 32
    return ring


def main():
    import cupy as cp  # here, so that miss_queue_sim.py can import this file's layout without CuPy

    from on_device import kernel, write_csv
    ring = cp.asarray(ring_of_lines(RING_LINES))
    table = cp.asarray(np.random.default_rng(8).random(TABLE_LINES * 32, dtype=np.float32))
    cycles = cp.zeros(132, dtype=cp.int64)
    trips = cp.zeros(132 * 32, dtype=cp.uint32)
    sink = cp.zeros(132 + 132 * 1024, dtype=cp.float32)
    fn = kernel(SRC, "chase_under_gathers")
    rows = []
    for grid in (1, 132):
        for g in GATHERING:
            args = (ring, table, np.uint32(TABLE_LINES - 1), np.int32(HOPS), cycles, trips, sink)
            per_hop, lines = [], []
            for _ in range(3):  # the first brings ring and table into the L2
                trips.fill(0)
                fn((grid,), (32 * (1 + g),), args)
                cp.cuda.Device().synchronize()
                c = cycles.get()[:grid].astype(float)
                t = trips.get().reshape(132, 32)[:grid].sum(axis=1).astype(float)
                per_hop.append(np.median(c) / HOPS)
                lines.append(np.median(t * 128 / c))
            rows.append((grid, g, HOPS, per_hop[-1], lines[-1]))
            print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/miss_queue.py ({HOPS} hops over {RING_LINES} lines; the last of 3 "
              f"launches; medians over blocks)", ["blocks", "gathering_warps", "hops", "cycles_per_hop",
                                                  "lines_per_cycle_per_sm"], rows)


if __name__ == "__main__":
    main()
