# Whether DRAM and L2 latency depend on the SM (issue 13: micro_dram_loaded #1, 132 warps each
# walking its own lines at 1.3% of the bandwidth, takes 766 cycles a line where one warp alone
# takes 718). One thread on one SM at a time chases 1000 lines of its own (sequential, 128 B
# apart) twice: from DRAM, then from the L2 (a second lap's lines are all near: l2_partitions.py).
# Then every SM at once, on other lines. Kernel chase_on_sm, validate/kernels/dram_latency.cu.
# Usage (on the device): python3 validate/probes/sm_latency.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, flush, kernel, write_csv

SRC = "validate/kernels/dram_latency.cu"
WORDS = 16 << 20
HOPS = 1000


def main():
    ring = cp.zeros(WORDS, dtype=cp.uint32)
    kernel(SRC, "ring_sequential")((1056,), (256,), (ring, np.int32(WORDS), np.int32(32)))
    claimed = cp.zeros(SMS, dtype=cp.uint32)
    out = cp.zeros(3 * SMS, dtype=cp.int64)
    chase = kernel(SRC, "chase_on_sm")
    for _ in range(50):
        flush()
    alone = {}
    for target in range(SMS):
        claimed.fill(0)
        out.fill(0)
        chase((4 * SMS,), (32,), (ring, np.int32(0), np.int32(HOPS), np.int32(target), claimed, out))
        o = out.get().reshape(SMS, 3)
        alone[target] = o[target]
    flush()
    claimed.fill(0)
    out.fill(0)
    chase((4 * SMS,), (32,), (ring, np.int32(SMS * HOPS), np.int32(HOPS), np.int32(-1), claimed, out))
    together = out.get().reshape(SMS, 3)
    rows = []
    for sm in range(SMS):
        a, t = alone[sm], together[sm]
        rows.append((sm, a[0] / HOPS, a[1] / HOPS, t[0] / HOPS, t[1] / HOPS))
    write_csv(sys.argv[1], f"python3 validate/probes/sm_latency.py ({HOPS} hops a lap, one SM at a time, then all at once)",
              ["sm", "dram_alone", "l2_alone", "dram_together", "l2_together"], rows)
    a = np.array([r[1:] for r in rows])
    for name, col in zip(("dram alone", "l2 alone", "dram together", "l2 together"), a.T):
        print(f"{name:14s} mean {col.mean():7.1f} min {col.min():7.1f} max {col.max():7.1f} sd {col.std():6.1f}")


if __name__ == "__main__":
    main()
