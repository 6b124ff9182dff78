# One thread's DRAM latency, hop by hop, in the states the committed chases leave the L2 in
# (issue 13): micro_dram_chase (the ring written by a kernel just before, L2 full of its dirty
# later lines) against validate/probes/dram_mix.py's quiet case (the ring behind a 256 MB read,
# L2 full of clean lines), with sequential and random rings. Each hop is timed alone (kernel
# chase_hops, validate/kernels/dram_latency.cu), so hops served by the L2 show apart.
# Usage (on the device): python3 validate/probes/dram_latency.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import flush, kernel, write_csv

SRC = "validate/kernels/dram_latency.cu"
WORDS = 16 << 20  # a 64 MB ring, one word per 128-byte line used
REPEATS = 5
L2_BOUND = 500    # hops faster than this came from the L2


def random_ring(lines, seed):
    """A ring visiting `lines` lines (word 0 of each) in a random order, as word indices."""
    order = np.random.default_rng(seed).permutation(lines).astype(np.uint64) * 32
    ring = np.zeros(lines * 32, dtype=np.uint32)
    ring[order] = np.roll(order, -1).astype(np.uint32)
    return cp.asarray(ring), int(order[0])


def main():
    seq = cp.zeros(WORDS, dtype=cp.uint32)
    init = lambda: kernel(SRC, "ring_sequential")((1056,), (256,), (seq, np.int32(WORDS), np.int32(32)))
    init()
    rnd, rnd_start = random_ring(WORDS // 32, 7)
    big, big_start = random_ring(1 << 23, 8)  # 1 GB
    cycles = cp.zeros(4096, dtype=cp.int64)
    last = cp.zeros(1, dtype=cp.uint32)
    for _ in range(50):
        flush()
    chase = kernel(SRC, "chase_hops")
    cases = [
        # name, ring, start, hops, what runs before
        ("seq_after_flush", seq, 0, 80, flush),
        ("seq_after_flush", seq, 0, 2000, flush),
        ("seq_after_write", seq, 0, 2000, init),            # micro_dram_chase's state
        ("seq_after_write_flush", seq, 0, 2000, lambda: (init(), flush())),
        ("random64mb_after_flush", rnd, rnd_start, 2000, flush),
        ("random1gb_after_flush", big, big_start, 2000, flush),
        ("seq_second_lap", seq, 0, 2000, None),            # right after the same chase: the L2's
    ]
    rows = []
    for name, ring, start, hops, before in cases:
        per_repeat = []
        for _ in range(REPEATS):
            if before:
                before()
            chase((1,), (1,), (ring, np.uint32(start), np.int32(hops), cycles, last))
            cp.cuda.Device().synchronize()
            per_repeat.append(cycles[:hops].get())
        h = np.concatenate(per_repeat)
        slow = h[h >= L2_BOUND]
        fast = h[h < L2_BOUND]
        rows.append((name, hops, float(np.mean(h)), float(np.median(h)), float(np.mean(slow)) if slow.size else 0.0,
                     float(np.median(slow)) if slow.size else 0.0, float(slow.size / h.size),
                     float(np.median(fast)) if fast.size else 0.0))
        print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/dram_latency.py (64 MB rings, one word per line; {REPEATS} repeats; "
              f"hops under {L2_BOUND} cycles counted as L2 hits)",
              ["case", "hops", "mean_cycles", "median_cycles", "dram_mean", "dram_median", "dram_fraction",
               "l2_median"], rows)


if __name__ == "__main__":
    main()
