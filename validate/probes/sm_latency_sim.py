# Simulates validate/probes/sm_latency.py with gpusim: one SM at a time chasing 1000 lines of its
# own, from DRAM then from the L2, and compares each SM's figures with the committed measurement
# (validate/results/sm_latency_h100.csv). SMs are simulated a few at a time (--sms) or all.
# Usage: /usr/bin/python3 validate/probes/sm_latency_sim.py [--gpusim build/gpusim] [--sms 0,42,128] [--set K=V]...
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from simulate import ROOT, arguments, dumped, flush_buffers, flush_launch, measured_rows

SRC = f"{ROOT}/validate/kernels/dram_latency.cu"
WORDS, HOPS, SMS = 16 << 20, 1000, 132


def workload(target):
    return (f"name: sm_latency_probe\n"
            f"kernel: {{source: {SRC}, entry: ring_sequential}}\n"
            f"buffers:\n"
            f"  - {{name: ring, type: u32, count: {WORDS}, init: zero}}\n"
            f"  - {{name: claimed, type: u32, count: {SMS}, init: zero}}\n"
            f"  - {{name: out, type: i64, count: {3 * SMS}, init: zero}}\n"
            + flush_buffers() +
            f"steps:\n"
            f"  - launch: {{grid: 1056, block: 256, args: [ring, {WORDS}, 32]}}\n"
            + flush_launch() +
            f"  - launch: {{entry: chase_on_sm, grid: {4 * SMS}, block: 32, args: [ring, 0, {HOPS}, {target}, claimed, out]}}\n")


def simulate(args, target):
    o = dumped(args, workload(target), ["out"])["out"].reshape(SMS, 3)[target]
    return o[0] / HOPS, o[1] / HOPS


def main():
    ap = arguments("sm_latency_h100.csv")
    ap.add_argument("--sms", default="0,42,47,93,128,129", help="SMs to simulate (comma-separated), or 'all'")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    args = ap.parse_args()
    rows = {int(r["sm"]): r for r in measured_rows(args.results)}
    sms = list(range(SMS)) if args.sms == "all" else [int(s) for s in args.sms.split(",")]
    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(lambda sm: simulate(args, sm), sms))
    errors = []
    print(f"{'SM':>4}   {'DRAM hop':>8} {'gpusim':>7} {'error':>7}   {'L2 hop':>7} {'gpusim':>7} {'error':>7}")
    for sm, (dram, l2) in zip(sms, sims):
        md, ml = float(rows[sm]["dram_alone"]), float(rows[sm]["l2_alone"])
        ed, el = 100 * (dram - md) / md, 100 * (l2 - ml) / ml
        errors += [abs(ed), abs(el)]
        print(f"{sm:4d}   {md:8.1f} {dram:7.1f} {ed:+6.1f}%   {ml:7.1f} {l2:7.1f} {el:+6.1f}%")
    print(f"{len(errors)} figures: mean absolute error {np.mean(errors):.1f}%")


if __name__ == "__main__":
    main()
