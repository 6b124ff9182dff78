# Simulates validate/probes/miss_queue.py's cases with gpusim and prints cycles per hop and the
# gathering warps' lines per cycle beside the H100's (validate/results/miss_queue_h100.csv).
# Usage: /usr/bin/python3 validate/probes/miss_queue_sim.py [--gpusim build/gpusim] [--set K=V]... [--blocks 1,132]
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from miss_queue import HOPS, RING_LINES, TABLE_LINES, ring_of_lines
from simulate import ROOT, arguments, dumped, measured_rows


def workload(folder, grid, gathering):
    args = f"[ring, table, {TABLE_LINES - 1}, {HOPS}, cycles, trips, sink]"
    launch = f"  - launch: {{grid: {grid}, block: {32 * (1 + gathering)}, args: {args}}}\n"
    return (f"name: miss_queue_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/miss_queue.cu, entry: chase_under_gathers}}\n"
            f"buffers:\n"
            f"  - {{name: ring, type: i32, count: {RING_LINES * 32}, init: {{file: {folder}/ring.npy}}}}\n"
            f"  - {{name: table, type: f32, count: {TABLE_LINES * 32}, init: {{random: {{seed: 8}}}}}}\n"
            f"  - {{name: cycles, type: i64, count: 132, init: zero}}\n"
            f"  - {{name: trips, type: u32, count: {132 * 32}, init: zero}}\n"
            f"  - {{name: sink, type: f32, count: {132 + 132 * 1024}, init: zero}}\n"
            f"steps:\n"
            f"  - copy: {{to_device: ring}}\n"
            f"  - copy: {{to_device: table}}\n" + launch * 2)  # the first brings ring and table into the L2


def main():
    ap = arguments("miss_queue_h100.csv")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    ap.add_argument("--blocks", default="1,132", help="grids to simulate")
    args = ap.parse_args()
    grids = [int(b) for b in args.blocks.split(",")]
    rows = [r for r in measured_rows(args.results) if int(r["blocks"]) in grids]
    with tempfile.TemporaryDirectory() as folder:
        np.save(os.path.join(folder, "ring.npy"), ring_of_lines(RING_LINES))

        def simulate(r):
            grid, g = int(r["blocks"]), int(r["gathering_warps"])
            out = dumped(args, workload(folder, grid, g), ["cycles", "trips"])
            c = out["cycles"][:grid].astype(float)
            t = out["trips"].reshape(132, 32)[:grid].sum(axis=1).astype(float)
            return np.median(c) / HOPS, np.median(t * 128 / c)

        with ThreadPoolExecutor(args.j) as pool:
            sims = list(pool.map(simulate, rows))
    print(f"{'blocks':>6} {'gathering':>9}   {'per hop':>8} {'gpusim':>7} {'error':>7}   {'lines/cycle':>11} {'gpusim':>7}")
    for r, (hop, lines) in zip(rows, sims):
        m = float(r["cycles_per_hop"])
        print(f"{r['blocks']:>6} {r['gathering_warps']:>9}   {m:8.1f} {hop:7.1f} {100 * (hop - m) / m:+6.1f}%   "
              f"{float(r['lines_per_cycle_per_sm']):11.3f} {lines:7.3f}")


if __name__ == "__main__":
    main()
