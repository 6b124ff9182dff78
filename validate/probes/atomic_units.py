# Which cache lines share an L2 atomic unit (issue 13: histogram_global is 4x too fast in the
# model, and on the H100 its time depends on where its 8 lines of bins lie,
# validate/results/h100_hist_placement.csv). Kernel atomic_pair (micro.cu): half the warps add to
# the 32 words of line A, half to those of line B = A + d lines. Where A and B share a unit the
# launch takes about as long as with d = 0 (both halves on one line); where they do not, about
# half. A is moved over the first 8 lines of a 2 MB-aligned region, d from 1 to 32 lines, then
# powers of two to 16384 lines. Usage (on the device): python3 validate/probes/atomic_units.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, kernel, timed, write_csv

pair = kernel("validate/kernels/micro.cu", "atomic_pair")
REPS = 32
region = cp.zeros(48 << 20, dtype=cp.uint32)  # 192 MB
aligned = (-region.data.ptr) % (2 << 20) // 4  # words to the first 2 MB boundary


def main():
    rows = []
    for first in range(8):
        a = region[aligned:]
        for d in list(range(0, 33)) + ([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384] if first == 0 else []):
            args = (a, np.int64(first), np.int64(d), np.int32(REPS))
            rows.append((first, d, timed(lambda: pair((SMS * 8,), (256,), args))))  # noqa: B023
        print(first, [round(t) for _, _, t in rows[-33:]], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/atomic_units.py (atomic_pair, {SMS * 8} x 256 threads, {REPS} "
              "updates each; line A = first_line lines past a 2 MB boundary, B = A + d; median of 5)",
              ["first_line", "d_lines", "us"], rows)


main()
