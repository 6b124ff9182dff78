# Simulates validate/probes/loop_cost.py's kernels with gpusim and compares cycles per trip with
# the committed measurement (validate/results/loop_cost_h100.csv).
# Usage: /usr/bin/python3 validate/probes/loop_cost_sim.py [--gpusim build/gpusim] [--set K=V]...
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from simulate import ROOT, arguments, dumped, flush_buffers, flush_launch, measured_rows

SRC = f"{ROOT}/validate/kernels/loop_cost.cu"
RING = f"{ROOT}/validate/kernels/dram_latency.cu"
TRIPS, HOPS = 4096, 2048


def workload(r):
    name, data = r["kernel"], r["data"]
    if name.startswith("fadd_loop"):
        steps = f"  - launch: {{entry: {name}, grid: 1, block: 32, args: [out, cycles, {TRIPS}, 0.999]}}\n"
    else:
        run = f"  - launch: {{entry: {name}, grid: 1, block: 32, args: [ring, cycles, last, {HOPS}]}}\n"
        steps = (f"  - launch: {{source: {RING}, entry: ring_sequential, grid: 64, block: 256, args: [ring, {HOPS * 32}, 32]}}\n"
                 + flush_launch() + run * (2 if data == "l2" else 1))
    return (f"name: loop_cost_probe\n"
            f"kernel: {{source: {SRC}, entry: fadd_loop_1}}\n"
            f"buffers:\n"
            f"  - {{name: ring, type: u32, count: {HOPS * 32}, init: zero}}\n"
            f"  - {{name: out, type: f32, count: 2, init: zero}}\n"
            f"  - {{name: cycles, type: i64, count: 1, init: zero}}\n"
            f"  - {{name: last, type: u32, count: 1, init: zero}}\n"
            + flush_buffers() + "steps:\n" + steps)


def simulate(args, r):
    return int(dumped(args, workload(r), ["cycles"])["cycles"][0]) / int(r["trips"])


def main():
    ap = arguments("loop_cost_h100.csv")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    args = ap.parse_args()
    rows = measured_rows(args.results)
    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(lambda r: simulate(args, r), rows))
    errors = []
    print(f"{'kernel':22} {'data':9}   {'per trip':>8} {'gpusim':>7} {'error':>7}")
    for r, s in zip(rows, sims):
        m = float(r["cycles_per_trip"])
        errors.append(abs(100 * (s - m) / m))
        print(f"{r['kernel']:22} {r['data']:9}   {m:8.1f} {s:7.1f} {100 * (s - m) / m:+6.1f}%")
    print(f"{len(rows)} figures: mean absolute error {np.mean(errors):.1f}%")


if __name__ == "__main__":
    main()
