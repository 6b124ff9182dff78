# The scan probes' clock stamps (validate/kernels/scan_clock.cu) summarised alike for the H100's
# (validate/probes/scan_clock.py) and gpusim's (scan_clock_sim.py): numpy only.
import numpy as np

STAMPS = 24    # per block: SM id, entry clock, a clock after each barrier, spare
BARRIERS = 19  # n = 512: 1 after the loads, 9 up-sweep, 9 down-sweep


def summary(st):
    """Rows (interval, median, p10, p90) of one launch's stamps (blocks x STAMPS)."""
    clocks = st[:, 1:2 + BARRIERS]
    rows = []
    for i in range(BARRIERS):
        d = clocks[:, i + 1] - clocks[:, i]
        rows.append((i, *np.percentile(d, [50, 10, 90])))
    whole = clocks[:, -1] - clocks[:, 0]
    rows.append((BARRIERS, *np.percentile(whole, [50, 10, 90])))
    spans = []
    for sm in np.unique(st[:, 0]):
        mine = clocks[st[:, 0] == sm]
        spans.append((mine[:, -1].max() - mine[:, 0].min()) / len(mine))
    rows.append(("per_sm_block", np.median(spans), np.percentile(spans, 10), np.percentile(spans, 90)))
    return rows
