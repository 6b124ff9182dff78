# How soon an SM starts its next block once one ends, for every block size (issue 13):
# blocks whose warps spin S cycles (release_spin, validate/kernels/block_release.cu; no memory
# access) in 8 and in 16 waves of the blocks an SM holds at once. Spins long enough that the
# SM's slots, not the GPU-wide dispatcher, bound the rate; the 8 waves added cost
# 8 x (S + the warps' own instructions + the release), whatever the launch costs.
# Usage (on the device): python3 validate/probes/block_release_spin.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import PROPS, SMS, kernel, timed, write_csv

MHZ = PROPS["clockRate"] / 1000


def main():
    out = cp.zeros(1, dtype=cp.int32)
    fn = kernel("validate/kernels/block_release.cu", "release_spin")
    for _ in range(50):  # the clock up
        fn((SMS * 16,), (256,), (out, np.int64(2000)))
    rows = []
    for threads in (64, 128, 256, 512, 1024):
        resident = min(32, 2048 // threads)
        for spin in (3000, 6000):
            waves = {w: timed(lambda w=w: fn((SMS * resident * w,), (threads,), (out, np.int64(spin))), repeats=9)
                     for w in (8, 16)}
            per_wave = (waves[16] - waves[8]) * MHZ / 8
            rows.append((threads, resident, spin, waves[8], waves[16], per_wave, per_wave - spin))
            print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/block_release_spin.py (median of 9 launches; cycles at {MHZ:.0f} MHz)",
              ["threads", "blocks_per_sm", "spin", "us_8_waves", "us_16_waves", "cycles_per_wave", "beyond_spin"], rows)


main()
