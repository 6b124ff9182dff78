# Which cache lines share an L2 atomic unit (issue 13: histogram_global is 4x too fast in the
# model, and on the H100 its time depends on where its 8 lines of bins lie,
# validate/results/h100_hist_placement.csv). Kernel atomic_pair (micro.cu): half the warps add to
# the 32 words of line A, half to those of line B = A + d lines. Where A and B share a unit the
# launch takes about as long as with d = 0 (both halves on one line); where they do not, about
# half. A is moved over the first 8 lines of a 2 MB-aligned region, d from 1 to 32 lines, then
# powers of two to 16384 lines. Usage (on the device): python3 validate/probes/atomic_units.py OUT.csv
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
SMS = props["multiProcessorCount"]
pair = micro.get_function("atomic_pair")
REPS = 32
region = cp.zeros(48 << 20, dtype=cp.uint32)  # 192 MB
aligned = (-region.data.ptr) % (2 << 20) // 4  # words to the first 2 MB boundary


def timed(first_line, d):
    a = region[aligned + first_line * 32:]
    s, e = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(5):
        s.record()
        pair((SMS * 8,), (256,), (a, np.int64(d), np.int32(REPS)))
        e.record()
        e.synchronize()
        times.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(times))


def main():
    rows = []
    for first in range(8):
        for d in list(range(0, 33)) + ([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384] if first == 0 else []):
            rows.append((first, d, timed(first, d)))
        print(first, [round(t) for _, _, t in rows[-33:]], flush=True)
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(sys.argv[1], "w") as f:
        f.write(f"# {props['name'].decode()}, driver and SM clock after the run: {driver}; {stamp}\n")
        f.write(f"# command: python3 validate/probes/atomic_units.py (atomic_pair, {SMS * 8} x 256 threads, "
                f"{REPS} updates each; line A = first_line lines past a 2 MB boundary, B = A + d; median of 5)\n")
        f.write("first_line,d_lines,us\n")
        for first, d, us in rows:
            f.write(f"{first},{d},{us:.2f}\n")


main()
