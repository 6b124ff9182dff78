# Does histogram_global's time depend on where its 256 bins lie? Results: validate/results/h100_hist_placement.csv
import os

import cupy as cp
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
src = open(os.path.join(ROOT, "validate/corpus/reduce_scan.cu")).read()
m = cp.RawModule(code=src, options=("--gpu-architecture=sm_90",))
k = m.get_function("histogram_global")
n = 4194304
rng = np.random.default_rng(21)
inp = cp.asarray(rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32))
big = cp.zeros(1 << 22, dtype=cp.uint32)
s, e = cp.cuda.Event(), cp.cuda.Event()
for off_lines in [0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 1000, 5000]:
    bins = big[off_lines * 32:]
    ts = []
    for _ in range(5):
        bins[:256] = 0
        s.record(); k((1056,), (256,), (inp, bins, np.int32(n), np.int32(255))); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    print(f"bins at +{off_lines:5d} lines: {np.median(ts)*1e3:9.1f} us")
