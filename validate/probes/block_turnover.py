# Short blocks, stamped (issue 13): each case of turnover_stats.CASES launched over an
# L2-resident 16 MB array with every warp's start and end clock recorded
# (validate/kernels/turnover_stamps.cu). Writes the summary per case and, for the 1024- and
# 256-thread cases, the stamps of SM 0 in one .npz (for a look at one SM's timeline).
# Usage (on the device): python3 validate/probes/block_turnover.py OUT.csv [STAMPS_DIR]
import os
import sys

import cupy as cp
import numpy as np

from on_device import PROPS, kernel, timed, write_csv
from turnover_stats import CASES, FIELDS, N, resident, summary

SRC = "validate/kernels/turnover_stamps.cu"
MHZ = PROPS["clockRate"] / 1000


def main():
    rng = np.random.default_rng(34)
    inp = cp.asarray(rng.random(N, dtype=np.float32))
    out = cp.zeros(N, dtype=cp.float32)
    stamps = cp.zeros(N // 32 * 3, dtype=cp.uint64)
    warm = kernel("validate/kernels/turnover.cu", "turnover_read")
    for _ in range(20):  # the clock up, and the array in the L2
        warm((N // 256,), (256,), (inp, out, np.float32(2.0)))
    rows, sm0 = [], {}
    for name, threads in CASES:
        fn = kernel(SRC, f"stamped_{name}")
        args = {"empty": (stamps,), "read": (inp, out, np.float32(2.0), stamps),
                "copy": (inp, out, stamps), "write": (out, stamps)}[name]
        us = timed(lambda: fn((N // threads,), (threads,), args), repeats=10)
        raw = stamps.get()
        got = summary(raw, threads, resident(threads))
        rows.append([name, threads, N // threads, us, us * MHZ] + [got[f] for f in FIELDS])
        print(rows[-1], flush=True)
        if len(sys.argv) > 2 and threads in (1024, 256):
            s = raw.reshape(-1, 3)
            sm0[f"{name}_{threads}"] = s[s[:, 2] == 0]
    if sm0:
        np.savez_compressed(os.path.join(sys.argv[2], "turnover_stamps_sm0.npz"), **sm0)
    write_csv(sys.argv[1], f"python3 validate/probes/block_turnover.py (one element per thread of {N}; "
              f"median of 10 launches, stamps of the last; cycles at {MHZ:.0f} MHz)",
              ["kernel", "threads", "blocks", "us", "cycles"] + FIELDS, rows)


main()
