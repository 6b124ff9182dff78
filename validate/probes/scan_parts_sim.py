# Simulates validate/probes/scan_parts.py's launches with gpusim and compares cycles (with the
# launch) and the cost of each added wave of blocks with the committed measurement
# (validate/results/scan_parts_h100.csv).
# Usage: /usr/bin/python3 validate/probes/scan_parts_sim.py [--gpusim build/gpusim] [--set K=V]...
from concurrent.futures import ThreadPoolExecutor

from simulate import ROOT, arguments, kernels, measured_rows

BLOCK = 256


def workload(name, blocks, source="scan.cu", stamps=0, launches=1):
    """One scan kernel of validate/kernels/`source` over `blocks` blocks, launched `launches` times;
    with `stamps` (per block), a third buffer of clock stamps as its third argument."""
    shared = (2 * BLOCK + 2 * BLOCK // 32) * 4
    args = "[in, out, stamps]" if stamps else "[in, out]"
    return (f"name: scan_parts\n"
            f"kernel: {{source: {ROOT}/validate/kernels/{source}, entry: {name}}}\n"
            f"buffers:\n"
            f"  - {{name: in, type: u32, count: {2 * BLOCK * blocks}, init: {{random: {{seed: 6}}}}}}\n"
            f"  - {{name: out, type: u32, count: {2 * BLOCK * blocks}, init: zero}}\n"
            + (f"  - {{name: stamps, type: i64, count: {stamps * blocks}, init: zero}}\n" if stamps else "")
            + f"steps:\n"
            f"  - copy: {{to_device: in}}\n"
            + f"  - launch: {{grid: {blocks}, block: {BLOCK}, shared_bytes: {shared}, args: {args}}}\n" * launches)


def main():
    ap = arguments("scan_parts_h100.csv")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    args = ap.parse_args()
    rows = measured_rows(args.results)
    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(lambda r: kernels(args, workload(r["kernel"], int(r["blocks"])))[-1]["cycles"], rows))
    print(f"{'kernel':18} {'blocks':>6} {'H100':>8} {'gpusim':>8} {'error':>7}   per 1056 more: {'H100':>7} {'gpusim':>7}")
    prev = None
    for r, s in zip(rows, sims):
        m = float(r["cycles"])
        slope = ""
        if prev and prev[0] == r["kernel"]:
            k = 1056 / (int(r["blocks"]) - prev[1])
            slope = f"{(m - prev[2]) * k:7.0f} {(s - prev[3]) * k:7.0f}"
        print(f"{r['kernel']:18} {r['blocks']:>6} {m:8.0f} {s:8.0f} {100 * (s - m) / m:+6.1f}%   {slope}")
        prev = (r["kernel"], int(r["blocks"]), m, s)


if __name__ == "__main__":
    main()
