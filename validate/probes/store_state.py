# Why stores into lines the previous launch wrote ("warm" in store_path.py) cost the H100 8-10
# cycles more per request than stores after the L2 was emptied (issue 13). The same launch of
# store_pattern (words_1_per_line: 32 lines of one word per request; whole_lines: one coalesced
# line) is timed after different histories of its 8 MB array:
#   warm       - the same launch just before (lines dirty in the L2, written from the same SMs)
#   emptied    - a 256 MB read just before (lines not in the L2)
#   read_one   - emptied, then one SM's blocks read the array (lines clean in the L2)
#   read_all   - emptied, then every SM reads it (clean, with copies on both sides)
#   written_other - emptied, then a coalesced fill of the array by every SM (dirty, other writers)
#   warm_gap   - warm, then an empty kernel in between (is it the launch right before?)
# Usage (on the device): python3 validate/probes/store_state.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, flush, kernel, timed, write_csv

store = kernel("validate/kernels/micro.cu", "store_pattern")
empty = kernel("validate/kernels/micro.cu", "empty_kernel")
read_sum = kernel("validate/kernels/memory_bench.cu", "stream_read")
sink = cp.zeros(SMS * 8 * 256, dtype=cp.float32)
LINES = 65536
y = cp.zeros(LINES * 32, dtype=cp.float32)
one = cp.zeros(1, dtype=cp.int32)
REPS = 64
CASES = {"words_1_per_line": (0, 0), "whole_lines": (3, 2)}


def launch(case, blocks):
    lps, spl = CASES[case]
    store((blocks,), (1024,), (y, np.int32(lps), np.int32(spl), np.int32(REPS), np.int32(LINES - 1), np.int32(0)))


HISTORIES = {
    "warm": lambda case, blocks: launch(case, blocks),
    "emptied": lambda case, blocks: flush(),
    "read_one": lambda case, blocks: (flush(), read_sum((1,), (1024,), (y, sink, np.int32(y.size)))),
    "read_all": lambda case, blocks: (flush(), read_sum((SMS * 8,), (256,), (y, sink, np.int32(y.size)))),
    "written_other": lambda case, blocks: (flush(), y.fill(1.0)),
    "warm_gap": lambda case, blocks: (launch(case, blocks), empty((1,), (32,), (one,))),
}


def main():
    rows = []
    for case in CASES:
        for blocks in (1, SMS):
            for history, before in HISTORIES.items():
                us = timed(lambda: launch(case, blocks), lambda: before(case, blocks))  # noqa: B023
                rows.append((case, blocks, history, us))
                print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/store_state.py (store_pattern, blocks of 1024 threads, {REPS} "
              f"requests per warp, {LINES} lines; median of 5)", ["case", "blocks", "history", "us"], rows)


main()
