# How much of a footprint the H100's L2 keeps between two reads (issue 13: the L2's usable
# size). For footprints of 8-64 MB: every SM reads its own share (132 x 4 warps, 16 lines in
# flight each), or one warp on one SM reads it all; then the same read again. The second
# read's time, against the first (from DRAM) and a footprint that surely fits (4 MB, scaled),
# gives the share of lines the L2 kept. Each case starts after a 256 MB read replaced the
# L2's contents. Usage (on the device): python3 validate/probes/l2_capacity.py OUT.csv
import datetime
import os
import subprocess
import sys

import cupy as cp
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
module = cp.RawModule(code=open(os.path.join(ROOT, "validate/kernels/micro.cu")).read(),
                      options=("--gpu-architecture=sm_90",))
bench = cp.RawModule(code=open(os.path.join(ROOT, "validate/kernels/memory_bench.cu")).read(),
                     options=("--gpu-architecture=sm_90",))
SMS = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]
flush_buf = cp.zeros(64 << 20, dtype=cp.float32)  # 256 MB
sink = cp.zeros(SMS * 8 * 256, dtype=cp.float32)
data = cp.zeros(80 << 20, dtype=cp.float32)      # 320 MB
out = cp.zeros(SMS * 4 * 32, dtype=cp.float32)
ev = [cp.cuda.Event() for _ in range(3)]
lines_16 = module.get_function("lines_in_flight_16")
read_sum = bench.get_function("stream_read")


def flush():
    read_sum((SMS * 8,), (256,), (flush_buf, sink, np.int32(flush_buf.size)))


def two_reads(blocks, groups):
    args = (data, out, np.int32(groups), np.int64(32))
    firsts, seconds = [], []
    for _ in range(5):
        flush()
        ev[0].record(); lines_16((blocks,), (32,), args); ev[1].record(); lines_16((blocks,), (32,), args); ev[2].record()
        ev[2].synchronize()
        firsts.append(cp.cuda.get_elapsed_time(ev[0], ev[1]) * 1e3)
        seconds.append(cp.cuda.get_elapsed_time(ev[1], ev[2]) * 1e3)
    return float(np.median(firsts)), float(np.median(seconds))


def main():
    rows = []
    for mb in (4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 56, 64):
        lines = mb << 13  # 128-byte lines
        for who, blocks in (("all_sms", SMS * 4), ("one_warp", 1)):
            if who == "one_warp" and mb > 48:
                continue
            groups = lines // (blocks * 16)
            first, second = two_reads(blocks, groups)
            rows.append((who, mb, blocks, groups, first, second))
            print(rows[-1], flush=True)
    gpu = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(sys.argv[1], "w") as f:
        f.write(f"# {gpu}, driver and SM clock after the run: {driver}; {stamp}\n")
        f.write("# command: python3 validate/probes/l2_capacity.py (median of 5; L2 replaced by a 256 MB read before each)\n")
        f.write("readers,footprint_mb,blocks,groups,first_us,second_us,second_over_first\n")
        for who, mb, blocks, groups, first, second in rows:
            f.write(f"{who},{mb},{blocks},{groups},{first:.2f},{second:.2f},{second / first:.3f}\n")


main()
