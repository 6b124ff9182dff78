# What a loop trip costs one warp beyond its body, and what that cost depends on (issue 13: a
# trip of one dependent FFMA takes the H100 29 cycles, eight take 39; loop_cost.py). One thread:
# K dependent FFMAs per trip (the trip count a parameter, or read per lane), N independent ones,
# one FFMA unrolled U times, a loop whose test reads the FFMA's result, a forward branch per trip.
# Kernels: validate/kernels/branch_cost.cu. Usage (on the device): python3 validate/probes/branch_cost.py OUT.csv
import sys

import cupy as cp
import numpy as np

from on_device import kernel, write_csv

SRC = "validate/kernels/branch_cost.cu"
TRIPS, REPEATS = 4096, 5
A = np.float32(0.999)


def main():
    out = cp.zeros(8, dtype=cp.float32)
    cycles = cp.zeros(1, dtype=cp.int64)
    trips_of = cp.full(32, TRIPS, dtype=cp.int32)
    rows = []

    def median(name, args):
        fn = kernel(SRC, name)
        got = []
        for _ in range(REPEATS):
            out.fill(0)
            fn((1,), (32,), args)
            cp.cuda.Device().synchronize()
            got.append(int(cycles.get()[0]))
        return float(np.median(got))

    def add(name, trips, args):
        c = median(name, args)
        rows.append((name, trips, c, c / trips))
        print(rows[-1], flush=True)

    for k in (1, 4, 5, 6, 7, 8, 12):
        add(f"chain_{k}", TRIPS, (out, cycles, np.int32(TRIPS), A))
    for k in (1, 8):
        add(f"chain_lane_{k}", TRIPS, (out, cycles, trips_of, A))
    for n in (8, 16, 24, 32):
        add(f"wide_{n}", TRIPS, (out, cycles, np.int32(TRIPS), A))
    for u in (2, 4, 8):
        add(f"unrolled_{u}", TRIPS, (out, cycles, np.int32(TRIPS), A))
    c = median("until_value", (out, cycles, np.float32(990.0), A))
    taken = int(out.get().view(np.int32)[2])
    rows.append(("until_value", taken, c, c / taken))
    add("forward_taken", TRIPS, (out, cycles, np.int32(TRIPS), A, np.int32(-1)))
    write_csv(sys.argv[1], f"python3 validate/probes/branch_cost.py (one thread; {TRIPS} trips; median of {REPEATS})",
              ["kernel", "trips", "cycles", "cycles_per_trip"], rows)


if __name__ == "__main__":
    main()
