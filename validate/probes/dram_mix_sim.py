# Simulates validate/probes/dram_mix.py's cases with gpusim and compares them with the committed
# measurements (validate/results/dram_mix_h100.csv): the chaser's cycles per hop and the streams'
# bytes per cycle, both read back from the buffers the kernel writes.
# Usage: /usr/bin/python3 validate/probes/dram_mix_sim.py [--gpusim build/gpusim] [--set SECTION.KEY=VALUE]... [--stream NAME]...
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from simulate import ROOT, arguments, dumped, flush_buffers, flush_launch, measured_rows

HOPS, CYCLES, LINES, RING_WORDS = 64, 300000, 1 << 23, 16 << 20
ARRAYS = {"none": 0, "reads": 1, "writes": 1, "copy": 2, "axpy": 3}


def workload(r):
    grid, threads, mode = int(r["grid"]), int(r["threads"]), r["stream"]
    entry = f"chase_under_{'reads' if mode == 'none' else mode}"
    warps = max(1, (grid - 1) * threads // 32)
    return (f"name: dram_mix_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/dram_mix.cu, entry: {entry}}}\n"
            f"buffers:\n"
            f"  - {{name: ring, type: u32, count: {RING_WORDS}, init: zero}}\n"
            + "".join(f"  - {{name: {n}, type: f32, count: {LINES * 32}, init: zero}}\n" for n in "abc")
            + f"  - {{name: trips, type: i64, count: {warps}, init: zero}}\n"
            f"  - {{name: out, type: i64, count: 2, init: zero}}\n"
            + flush_buffers() +
            f"steps:\n"
            f"  - launch: {{entry: ring_init, grid: 1056, block: 256, args: [ring, {RING_WORDS}, 32]}}\n"
            + flush_launch() +
            f"  - launch: {{grid: {grid}, block: {threads}, args: [ring, {HOPS}, a, b, c, {LINES}, {CYCLES}, trips, out]}}\n")


def simulate(args, r):
    got = dumped(args, workload(r), ["out", "trips"])
    hop = int(got["out"][0]) / HOPS
    moved = int(got["trips"].sum()) * 4 * 128 * ARRAYS[r["stream"]]
    return hop, moved / CYCLES


def main():
    ap = arguments("dram_mix_h100.csv")
    ap.add_argument("--stream", action="append", help="only these streams (none, reads, writes, copy, axpy)")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    args = ap.parse_args()
    rows = [r for r in measured_rows(args.results) if not args.stream or r["stream"] in args.stream]
    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(lambda r: simulate(args, r), rows))
    errors = []
    print(f"{'stream':7} {'warps/SM':>8}   {'hop cycles':>10} {'gpusim':>7} {'error':>7}   {'B/cycle':>8} {'gpusim':>7} {'error':>7}")
    for r, (hop, bpc) in zip(rows, sims):
        mh, mb = float(r["cycles_per_hop"]), float(r["stream_bytes_per_cycle"])
        eh = 100 * (hop - mh) / mh
        errors.append(abs(eh))
        line = f"{r['stream']:7} {r['warps_per_sm']:>8}   {mh:10.1f} {hop:7.1f} {eh:+6.1f}%"
        if mb > 0:
            eb = 100 * (bpc - mb) / mb
            errors.append(abs(eb))
            line += f"   {mb:8.1f} {bpc:7.1f} {eb:+6.1f}%"
        print(line)
    print(f"{len(errors)} figures: mean absolute error {np.mean(errors):.1f}%")


main()
