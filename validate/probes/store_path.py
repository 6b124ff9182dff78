# What a store costs, by pattern (issue 13: the store path). Kernel store_pattern (micro.cu):
# every warp makes `reps` store requests of one word per lane, whole sectors (8 lanes a sector)
# or partial ones (1 or 4 lanes a sector), 1 to 32 lines per request, on 1, 16 or 132 SMs (one
# block of 32 warps each), into an 8 MB array the L2 holds (warm: written once before) or after
# a 256 MB read emptied the L2 (cold: a partial sector must then come from DRAM). Combined cases
# write the other words of the same sectors in the next requests of the warp (write combining).
# If 1 SM alone stores at the per-SM rate of 132, the SM's side sets the pace; if not, the L2's.
# Usage (on the device): python3 validate/probes/store_path.py OUT.csv
import datetime
import os
import subprocess
import sys

import cupy as cp
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
props = cp.cuda.runtime.getDeviceProperties(0)
micro = cp.RawModule(code=open(os.path.join(ROOT, "validate/kernels/micro.cu")).read(),
                     options=(f"--gpu-architecture=sm_{props['major']}{props['minor']}",))
bench = cp.RawModule(code=open(os.path.join(ROOT, "validate/kernels/memory_bench.cu")).read(),
                     options=(f"--gpu-architecture=sm_{props['major']}{props['minor']}",))
SMS = props["multiProcessorCount"]
store = micro.get_function("store_pattern")
read_sum = bench.get_function("stream_read")
flush_buf = cp.zeros(64 << 20, dtype=cp.float32)  # 256 MB
sink = cp.zeros(SMS * 8 * 256, dtype=cp.float32)
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


def flush():
    read_sum((SMS * 8,), (256,), (flush_buf, sink, np.int32(flush_buf.size)))


def timed(case, blocks, cold):
    lps, spl, comb = CASES[case]
    args = (y, np.int32(lps), np.int32(spl), np.int32(REPS), np.int32(LINES - 1), np.int32(comb))
    s, e = cp.cuda.Event(), cp.cuda.Event()
    times = []
    store((blocks,), (1024,), args)  # warm: the lines are in the L2, dirty
    for _ in range(5):
        if cold:
            flush()
        s.record()
        store((blocks,), (1024,), args)
        e.record()
        e.synchronize()
        times.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(times))


def main():
    rows = []
    for case in CASES:
        for blocks in (1, 16, SMS):
            for cold in ((False, True) if case in COLD else (False,)):
                rows.append((case, blocks, "cold" if cold else "warm", timed(case, blocks, cold)))
                print(rows[-1], flush=True)
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(sys.argv[1], "w") as f:
        f.write(f"# {props['name'].decode()}, driver and SM clock after the run: {driver}; {stamp}\n")
        f.write(f"# command: python3 validate/probes/store_path.py (store_pattern, blocks of 1024 threads, {REPS} "
                f"requests per warp, {LINES} lines; median of 5; cold: 256 MB read before each)\n")
        f.write("case,lanes_per_sector_log2,sectors_per_line_log2,combine_log2,blocks,l2,us\n")
        for case, blocks, state, us in rows:
            lps, spl, comb = CASES[case]
            f.write(f"{case},{lps},{spl},{comb},{blocks},{state},{us:.2f}\n")


main()
