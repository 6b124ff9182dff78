# Simulates validate/probes/shared_order.py's kernels with gpusim and compares cycles per trip
# with the committed measurement (validate/results/shared_order_h100.csv).
# Usage: /usr/bin/python3 validate/probes/shared_order_sim.py [--gpusim build/gpusim] [--set K=V]...
from simulate import ROOT, compare_per_trip, dumped

SRC = f"{ROOT}/validate/kernels/shared_order.cu"
TRIPS = 4096


def workload(r):
    return (f"name: shared_order_probe\n"
            f"kernel: {{source: {SRC}, entry: {r['kernel']}}}\n"
            f"buffers:\n"
            f"  - {{name: out, type: u32, count: 32, init: zero}}\n"
            f"  - {{name: cycles, type: i64, count: 1, init: zero}}\n"
            f"steps:\n"
            f"  - launch: {{grid: 1, block: 32, args: [out, cycles, {TRIPS}]}}\n")


def simulate(args, r):
    return int(dumped(args, workload(r), ["cycles"])["cycles"][0]) / int(r["trips"])


if __name__ == "__main__":
    compare_per_trip("shared_order_h100.csv", simulate, [("kernel", 16)])
