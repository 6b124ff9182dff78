# What block_turnover.py (on the GPU) and block_turnover_sim.py (gpusim) both read off a
# launch's stamps (validate/kernels/turnover_stamps.cu: each warp's start and end clock and
# its SM): how a block's warps start, how long they live, and how soon an SM starts its next
# block once one has ended. Clocks are compared only within one SM.
import numpy as np

FIELDS = ["start_spread", "start_step", "warp_life", "block_life", "turnover_gap", "sm_span"]


def summary(stamps, threads, resident):
    """Mean cycles of each FIELDS entry from a flat array of {start, end, SM} per warp, for
    blocks of `threads` of which `resident` fit on an SM at once."""
    warps = max(1, threads // 32)
    s = np.asarray(stamps, dtype=np.int64).reshape(-1, warps, 3)
    start, end, sm = s[:, :, 0], s[:, :, 1], s[:, 0, 2]
    first, last = start.min(axis=1), end.max(axis=1)
    spread = start.max(axis=1) - first
    gaps, spans = [], []
    for k in np.unique(sm):
        mine = sm == k
        starts, ends = np.sort(first[mine]), np.sort(last[mine])
        # The j-th block an SM starts past its first `resident` waits for the (j - resident)-th to end.
        if len(starts) > resident:
            gaps.extend(starts[resident:] - ends[:-resident])
        spans.append(ends[-1] - starts[0])
    return {
        "start_spread": float(spread.mean()),
        "start_step": float(spread.mean() / (warps - 1)) if warps > 1 else 0.0,
        "warp_life": float((end - start).mean()),
        "block_life": float((last - first).mean()),
        "turnover_gap": float(np.median(gaps)) if gaps else 0.0,
        "sm_span": float(np.mean(spans)),
    }


# (kernel, threads per block) measured: the four bodies at 1024 and 256 threads, and empty
# blocks of every size, over one 16 MB array (one element per thread).
N = 4194304
CASES = [(k, t) for t in (1024, 256) for k in ("read", "copy", "write", "empty")] + \
        [("empty", t) for t in (32, 64, 128, 512)] + [("read", t) for t in (128, 512)]


def resident(threads, max_threads=2048, max_blocks=32):
    """Blocks of `threads` resident on an H100 SM (threads bound them; registers are few)."""
    return min(max_blocks, max_threads // threads)
