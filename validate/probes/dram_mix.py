# DRAM latency under a background stream of known direction, and the bandwidth each direction
# reaches (issue 13: load-dependent latency, bandwidth by read/write mix). One thread on SM 0
# chases a ring of lines in DRAM (64 timed hops after 16) while 1 to 32 warps on every SM stream
# for 300000 cycles: reading, writing, copying, or reading two arrays and writing a third.
# Kernels: validate/kernels/dram_mix.cu. Each case runs after a 256 MB read has emptied the L2.
# Usage (on the device): python3 validate/probes/dram_mix.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, flush, kernel, write_csv

SRC = "validate/kernels/dram_mix.cu"
LINES = 1 << 23          # 1 GB per streamed array: a stream never comes back to a line
RING_WORDS = 16 << 20    # 64 MB ring, one hop per line
HOPS, CYCLES, REPEATS = 64, 300000, 5
MODES = ("reads", "writes", "copy", "axpy")
ARRAYS = {"reads": 1, "writes": 1, "copy": 2, "axpy": 3}  # lines moved per streamed line index


def shape(warps_per_sm):
    """(blocks per SM, threads per block) for `warps_per_sm` streaming warps on every SM."""
    return (1, 32 * warps_per_sm) if warps_per_sm <= 8 else (warps_per_sm // 8, 256)


def cases():
    yield ("none", 0)
    for mode in MODES:
        for w in (1, 2, 4, 8, 16, 32):
            yield (mode, w)


def main():
    ring = cp.zeros(RING_WORDS, dtype=cp.uint32)
    kernel(SRC, "ring_init")((SMS * 8,), (256,), (ring, np.int32(RING_WORDS), np.int32(32)))
    a, b, c = (cp.zeros(LINES * 32, dtype=cp.float32) for _ in range(3))
    out = cp.zeros(2, dtype=cp.int64)
    for _ in range(50):  # a busy GPU first, so that its clock is up before the first timing
        flush()
    rows = []
    for mode, w in cases():
        per_sm, threads = shape(w) if w else (0, 32)
        grid = 1 + SMS * per_sm
        trips = cp.zeros(max(1, (grid - 1) * threads // 32), dtype=cp.int64)
        fn = kernel(SRC, f"chase_under_{mode if w else 'reads'}")
        hop, bpc = [], []
        for _ in range(REPEATS):
            flush()
            trips.fill(0)
            fn((grid,), (threads,), (ring, np.int32(HOPS), a, b, c, np.int64(LINES), np.int64(CYCLES), trips, out))
            cp.cuda.Device().synchronize()
            hop.append(int(out.get()[0]) / HOPS)
            moved = int(trips.get().sum()) * 4 * 128 * (ARRAYS[mode] if w else 0)
            bpc.append(moved / CYCLES)
        rows.append((mode, w, grid, threads, float(np.median(hop)), float(np.median(bpc))))
        print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/dram_mix.py (ring of {RING_WORDS * 4 >> 20} MB, {HOPS} hops after 16; "
              f"streams of {CYCLES} cycles over {LINES * 128 >> 20} MB arrays; median of {REPEATS}, each after a 256 MB read)",
              ["stream", "warps_per_sm", "grid", "threads", "cycles_per_hop", "stream_bytes_per_cycle"], rows)


main()
