# The corpus's spmv_csr_vector launch (workloads/corpus/sparse.yaml: 131072 rows of 1-32
# entries, the matrix just written by make_matrix, so in the L2) for Nsight Compute to profile:
# ncu -k spmv_csr_vector --launch-skip 2 --launch-count 1 python3 spmv_profile.py
# (issue 13: the corpus test part's worst launch, +53% in gpusim).
import cupy as cp
import numpy as np

from on_device import kernel

SRC = "validate/corpus/sort_sparse.cu"
ROWS = 131072


def main():
    row_ptr = cp.zeros(ROWS + 1, dtype=cp.int32)
    cols = cp.zeros(ROWS // 32 * 528, dtype=cp.int32)
    vals = cp.zeros(ROWS // 32 * 528, dtype=cp.float32)
    ell_cols = cp.zeros(ROWS * 32, dtype=cp.int32)
    ell_vals = cp.zeros(ROWS * 32, dtype=cp.float32)
    x = cp.asarray(np.random.default_rng(33).random(ROWS, dtype=np.float32))
    y = cp.zeros(ROWS, dtype=cp.float32)
    make, spmv = kernel(SRC, "make_matrix"), kernel(SRC, "spmv_csr_vector")
    for _ in range(3):
        make((ROWS // 256,), (256,), (row_ptr, cols, vals, ell_cols, ell_vals, np.int32(ROWS)))
        spmv((ROWS * 32 // 256,), (256,), (row_ptr, cols, vals, x, y, np.int32(ROWS)))
    cp.cuda.Device().synchronize()


main()
