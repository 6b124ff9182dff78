# Where conv_columns (corpus convolution #5) gets its rows on the GPU (issue 13: gpusim is +39%
# there, L2-bound, its L1 serving only the filter). 1024 x 1024 floats, grid 4 x 1024 blocks
# of 256, each block 17 rows of a 1 KB strip; the input was just written by conv_rows, as in
# the workload. Timed (median of 5, after a 256 MB read and conv_rows):
#   default - conv_columns as the corpus has it (loads may hit in the L1)
#   cg      - the same with every load past the L1 (ld.global.cg). Measured 16x slower: the
#             filter w, read by every warp past the L1, is one line that one L2 slice must
#             serve 557 K times (about 2 requests a cycle): a hot spot, not the L1's share
#   placed  - the default with each block's SM and start time recorded
# From `placed`: how many of a block's 17 rows an earlier block on the same SM had read
# (same strip, rows overlapping), at most `window` blocks earlier on that SM.
# Usage (on the device): python3 validate/probes/column_reuse.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import flush, kernel, timed, write_csv

NX = NY = 1024
R1 = 8
rows_k = kernel("validate/corpus/stencil.cu", "conv_rows")
cols_k = kernel("validate/corpus/stencil.cu", "conv_columns")
cg_k = kernel("validate/kernels/column_reuse.cu", "conv_columns_cg")
placed_k = kernel("validate/kernels/column_reuse.cu", "conv_columns_placed")
rng = np.random.default_rng(5)
inp = cp.asarray(rng.random(NX * NY, dtype=np.float32))
w = cp.asarray(rng.random(2 * R1 + 1, dtype=np.float32))
tmp, out = cp.zeros(NX * NY, dtype=cp.float32), cp.zeros(NX * NY, dtype=cp.float32)
grid, block = (NX // 256, NY), (256,)
args = (tmp, w, out, np.int32(NX), np.int32(NY))
blocks = grid[0] * grid[1]
sm_of = cp.zeros(blocks, dtype=cp.uint32)
start_of = cp.zeros(blocks, dtype=cp.uint64)


def before():
    flush()
    rows_k(grid, block, (inp, w, tmp, np.int32(NX), np.int32(NY)))


def reuse(sm, start, window):
    """Fraction of all blocks' row reads that an earlier block on the same SM (within `window`
    of its blocks) had read too."""
    order = np.argsort(start, kind="stable")
    seen = {}  # sm -> list of (strip, y) in start order
    shared = 0
    for b in order:
        strip, y = b % grid[0], b // grid[0]
        history = seen.setdefault(int(sm[b]), [])
        rows = set()
        for s2, y2 in history[-window:]:
            if s2 == strip:
                rows |= set(range(max(y2 - R1, 0), min(y2 + R1, NY - 1) + 1))
        mine = set(range(max(y - R1, 0), min(y + R1, NY - 1) + 1))
        shared += len(rows & mine)
        history.append((strip, y))
    return shared / (blocks * (2 * R1 + 1))


def main():
    for _ in range(50):
        flush()
    rows = [("default", timed(lambda: cols_k(grid, block, args), before)),
            ("cg", timed(lambda: cg_k(grid, block, args), before)),
            ("placed", timed(lambda: placed_k(grid, block, args + (sm_of, start_of)), before))]
    sm, start = cp.asnumpy(sm_of), cp.asnumpy(start_of).astype(np.int64)
    for window in (8, 16, 32, 1000):
        rows.append((f"reuse_within_{window}_blocks", reuse(sm, start, window)))
    order = np.argsort(start, kind="stable")
    rows.append(("first_16_blocks_sms", " ".join(str(int(sm[b])) for b in order[:16])))
    rows.append(("sms_used", len(set(sm.tolist()))))
    same = sum(1 for b in range(blocks - grid[0]) if sm[b] == sm[b + grid[0]])
    rows.append(("next_row_same_sm", same / (blocks - grid[0])))
    for r in rows:
        print(r, flush=True)
    np.savetxt(sys.argv[1].replace(".csv", "_blocks.csv"), np.stack([np.arange(blocks), sm, start - start.min()], 1),
               fmt="%d", delimiter=",", header="block,sm,start_ns", comments="")
    write_csv(sys.argv[1], "python3 validate/probes/column_reuse.py (median of 5; each after a 256 MB read and conv_rows)",
              ("case", "value"), rows)


main()
