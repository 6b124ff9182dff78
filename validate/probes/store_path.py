# What a store costs, by pattern (issue 13: the store path). Kernel store_pattern (micro.cu):
# every warp makes `reps` store requests of one word per lane, whole sectors (8 lanes a sector)
# or partial ones (1 or 4 lanes a sector), 1 to 32 lines per request, on 1, 16 or 132 SMs (one
# block of 32 warps each), into an 8 MB array the L2 holds (warm: written once before) or after
# a 256 MB read emptied the L2 (cold: a partial sector must then come from DRAM). Combined cases
# write the other words of the same sectors in the next requests of the warp (write combining).
# If 1 SM alone stores at the per-SM rate of 132, the SM's side sets the pace; if not, the L2's.
# Usage (on the device): python3 validate/probes/store_path.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, flush, kernel, timed, write_csv

store = kernel("validate/kernels/micro.cu", "store_pattern")
LINES = 65536                                       # 8 MB
y = cp.zeros(LINES * 32, dtype=cp.float32)
REPS = 64

# name: (lanes per sector log2, sectors per line log2, combine log2)
CASES = {
    "whole_lines": (3, 2, 0),         # 1 line per request, 4 whole sectors
    "whole_sectors_4": (3, 0, 0),     # 4 lines, one whole sector each
    "half_sectors_8": (2, 0, 0),      # 8 lines, 16 bytes of one sector each
    "words_4_per_line": (0, 2, 0),    # 8 lines, one word in each of 4 sectors
    "words_2_per_line": (0, 1, 0),    # 16 lines, one word in each of 2 sectors
    "words_1_per_line": (0, 0, 0),    # 32 lines, one word in one sector
    "words_4_per_line_x8": (0, 2, 3),  # as words_4_per_line, 8 requests filling the sectors
    "words_1_per_line_x8": (0, 0, 3),  # as words_1_per_line, 8 requests filling the sectors
}
COLD = ("whole_lines", "words_4_per_line", "words_1_per_line")


def main():
    rows = []
    for case, (lps, spl, comb) in CASES.items():
        for blocks in (1, 16, SMS):
            args = (y, np.int32(lps), np.int32(spl), np.int32(REPS), np.int32(LINES - 1), np.int32(comb))
            launch = lambda: store((blocks,), (1024,), args)  # noqa: E731
            for cold in ((False, True) if case in COLD else (False,)):
                launch()  # warm: the lines are in the L2, dirty
                rows.append((case, lps, spl, comb, blocks, "cold" if cold else "warm", timed(launch, flush if cold else None)))
                print(rows[-1], flush=True)
    write_csv(sys.argv[1], f"python3 validate/probes/store_path.py (store_pattern, blocks of 1024 threads, {REPS} "
              f"requests per warp, {LINES} lines; median of 5; cold: 256 MB read before each)",
              ["case", "lanes_per_sector_log2", "sectors_per_line_log2", "combine_log2", "blocks", "l2", "us"], rows)


main()
