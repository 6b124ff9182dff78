# Simulates validate/probes/dram_latency.py's sequential-ring cases with gpusim and compares the
# mean and median hop with the committed measurement (validate/results/dram_latency_h100.csv).
# Usage: /usr/bin/python3 validate/probes/dram_latency_sim.py [--gpusim build/gpusim] [--set SECTION.KEY=VALUE]...
import numpy as np

from simulate import ROOT, arguments, dumped, flush_buffers, flush_launch, measured_rows

WORDS = 16 << 20
SRC = f"{ROOT}/validate/kernels/dram_latency.cu"


def workload(hops, laps):
    chase = (f"  - launch: {{source: {SRC}, entry: chase_hops, grid: 1, block: 1, "
             f"args: [ring, 0, {hops}, cycles, last]}}\n")
    return (f"name: dram_latency_probe\n"
            f"kernel: {{source: {SRC}, entry: ring_sequential}}\n"
            f"buffers:\n"
            f"  - {{name: ring, type: u32, count: {WORDS}, init: zero}}\n"
            f"  - {{name: cycles, type: i64, count: 4096, init: zero}}\n"
            f"  - {{name: last, type: u32, count: 1, init: zero}}\n"
            + flush_buffers() +
            f"steps:\n"
            f"  - launch: {{grid: 1056, block: 256, args: [ring, {WORDS}, 32]}}\n"
            + flush_launch() + chase * laps)


def simulate(args, hops, laps):
    return dumped(args, workload(hops, laps), ["cycles"])["cycles"][:hops]


def main():
    args = arguments("dram_latency_h100.csv").parse_args()
    rows = {(r["case"], int(r["hops"])): r for r in measured_rows(args.results)}
    print(f"{'case':22} {'hops':>5}   {'mean':>6} {'gpusim':>7} {'error':>7}   {'median':>6} {'gpusim':>7} {'error':>7}")
    for case, hops, laps in (("seq_after_flush", 80, 1), ("seq_after_flush", 2000, 1), ("seq_second_lap", 2000, 2)):
        h = simulate(args, hops, laps)
        r = rows[(case, hops)]
        # The measured second lap's first repeat followed another ring: its L2 median is the lap's.
        mm, mmed = float(r["mean_cycles"]), float(r["median_cycles"] if case != "seq_second_lap" else r["l2_median"])
        if case == "seq_second_lap":
            mm = mmed
        sm, smed = float(np.mean(h)), float(np.median(h))
        print(f"{case:22} {hops:5d}   {mm:6.1f} {sm:7.1f} {100 * (sm - mm) / mm:+6.1f}%   "
              f"{mmed:6.1f} {smed:7.1f} {100 * (smed - mmed) / mmed:+6.1f}%")


if __name__ == "__main__":
    main()
