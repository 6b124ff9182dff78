# Simulates validate/probes/branch_cost.py's kernels with gpusim and compares cycles per trip
# with the committed measurement (validate/results/branch_cost_h100.csv).
# Usage: /usr/bin/python3 validate/probes/branch_cost_sim.py [--gpusim build/gpusim] [--set K=V]...
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from simulate import ROOT, arguments, dumped, measured_rows

SRC = f"{ROOT}/validate/kernels/branch_cost.cu"
TRIPS = 4096


def workload(r):
    name = r["kernel"]
    if name.startswith("chain_lane"):
        args = f"[out, cycles, trips_of, 0.999]"
    elif name == "until_value":
        args = "[out, cycles, 990.0, 0.999]"
    elif name == "forward_taken":
        args = f"[out, cycles, {TRIPS}, 0.999, -1]"
    else:
        args = f"[out, cycles, {TRIPS}, 0.999]"
    return (f"name: branch_cost_probe\n"
            f"kernel: {{source: {SRC}, entry: {name}}}\n"
            f"buffers:\n"
            f"  - {{name: out, type: f32, count: 8, init: zero}}\n"
            f"  - {{name: cycles, type: i64, count: 1, init: zero}}\n"
            f"  - {{name: trips_of, type: i32, count: 32, init: {{constant: {TRIPS}}}}}\n"
            f"steps:\n"
            f"  - copy: {{to_device: trips_of}}\n"
            f"  - launch: {{entry: {name}, grid: 1, block: 32, args: {args}}}\n")


def simulate(args, r):
    return int(dumped(args, workload(r), ["cycles"])["cycles"][0]) / int(r["trips"])


def main():
    ap = arguments("branch_cost_h100.csv")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    args = ap.parse_args()
    rows = measured_rows(args.results)
    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(lambda r: simulate(args, r), rows))
    errors = []
    print(f"{'kernel':16} {'per trip':>8} {'gpusim':>7} {'error':>7}")
    for r, s in zip(rows, sims):
        m = float(r["cycles_per_trip"])
        errors.append(abs(100 * (s - m) / m))
        print(f"{r['kernel']:16} {m:8.1f} {s:7.1f} {100 * (s - m) / m:+6.1f}%")
    print(f"{len(rows)} figures: mean absolute error {np.mean(errors):.1f}%")


if __name__ == "__main__":
    main()
