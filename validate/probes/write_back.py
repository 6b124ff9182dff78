# What the H100's L2 does with the lines a kernel writes (issue 13: the store path, achievable
# DRAM bandwidth by read/write mix). Every case starts after a 256 MB read has filled the L2 with
# clean lines. Timed (median of 5, CUDA events around the launch alone):
#   fill S     - fill_f32 writes S MB (SMS x 8 blocks of 256, grid-stride)
#   copy S     - copy_f32 reads S MB and writes S MB
#   vecadd S   - vecadd reads 2 x S MB and writes S MB (one element per thread, 256 per block)
#   read_after S / read_after_gap S - a 256 MB read of other data right after a fill of S MB
#                (S = 0: after the flush alone), or with a spin of GAP cycles in between: what
#                the read pays for writing back the dirty lines the fill left, and whether the
#                L2 writes them back on its own while the GPU is idle.
# Kernels: validate/kernels/memory_bench.cu, vecadd.cu, write_back.cu.
# Usage (on the device): python3 validate/probes/write_back.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import SMS, flush, kernel, timed, write_csv

BENCH = "validate/kernels/memory_bench.cu"
GAP = 400000  # cycles of spin: about 200 us, 4x what 256 MB take to write at 3 TB/s
FILL_MB = (2, 4, 8, 16, 24, 32, 48, 64, 128, 256)
COPY_MB = (4, 8, 16, 32, 64, 128)
VECADD_MB = (4, 16, 64, 128)
AFTER_MB = (0, 8, 16, 32, 64, 256)

fill_k, copy_k, read_k = kernel(BENCH, "fill_f32"), kernel(BENCH, "copy_f32"), kernel(BENCH, "stream_read")
vecadd_k = kernel("validate/kernels/vecadd.cu", "vecadd")
spin_k = kernel("validate/kernels/write_back.cu", "spin_cycles")
a, b, c = (cp.zeros(256 << 18, dtype=cp.float32) for _ in range(3))
other = cp.zeros(256 << 18, dtype=cp.float32)
sink = cp.zeros(SMS * 8 * 256, dtype=cp.float32)
spun = cp.zeros(1, dtype=cp.int64)


def floats(mb):
    return np.int32(mb << 18)


def fill(mb):
    fill_k((SMS * 8,), (256,), (c, floats(mb), np.float32(1)))


def read_other():
    read_k((SMS * 8,), (256,), (other, sink, np.int32(other.size)))


def spin():
    spin_k((1,), (1,), (np.int64(GAP), spun))


def before_read(mb, gap):
    def run():
        flush()
        if mb:
            fill(mb)
        if gap:
            spin()
    return run


def main():
    for _ in range(50):  # a busy GPU first, so that its clock is up before the first timing
        flush()
    rows = []
    for mb in FILL_MB:
        rows.append(("fill", mb, timed(lambda: fill(mb), flush)))
    for mb in COPY_MB:
        rows.append(("copy", mb, timed(lambda: copy_k((SMS * 8,), (256,), (a, c, floats(mb))), flush)))
    for mb in VECADD_MB:
        n = floats(mb)
        rows.append(("vecadd", mb, timed(lambda: vecadd_k(((int(n) + 255) // 256,), (256,), (a, b, c, n)), flush)))
    for mb in AFTER_MB:
        rows.append(("read_after", mb, timed(read_other, before_read(mb, False))))
        rows.append(("read_after_gap", mb, timed(read_other, before_read(mb, True))))
    rows.append(("spin", 0, timed(spin, flush)))
    for r in rows:
        print(r, flush=True)
    write_csv(sys.argv[1], "python3 validate/probes/write_back.py (median of 5; each case after a 256 MB read; "
              f"read_after: a 256 MB read of other data; gap: a spin of {GAP} cycles)",
              ["case", "mb", "us"], rows)


main()
