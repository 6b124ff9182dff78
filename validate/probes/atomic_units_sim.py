# Simulates validate/probes/atomic_units.py with gpusim and compares with the committed H100 data
# (validate/results/atomic_units_h100.csv): half the warps add to line A, half to line A + d; the
# launch is about as slow as d = 0 where A and A + d share an atomic unit, about half where not.
# Each (first line, d) is classified by its time over the same first line's d = 0, measured and
# simulated. Usage: /usr/bin/python3 validate/probes/atomic_units_sim.py [--max-d 8] [--set ...]...
from simulate import ROOT, arguments, kernels, measured_rows

SMS = 132
REPS = 32
ALIGN_WORDS = (2 << 20) // 4  # the region is put on a 2 MB boundary, as the probe does


def workload(first, ds):
    launches = "".join(
        f"  - launch: {{grid: {SMS * 8}, block: 256, args: [{{buffer: region, offset: {ALIGN_WORDS}}}, {first}, {d}, {REPS}]}}\n"
        for d in ds)
    return (f"name: atomic_units_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/micro.cu, entry: atomic_pair}}\n"
            f"buffers:\n"
            f"  - {{name: region, type: u32, count: {4 * ALIGN_WORDS}, init: zero}}\n"
            f"steps:\n" + launches)


def main():
    ap = arguments("atomic_units_h100.csv")
    ap.add_argument("--max-d", type=int, default=8)
    args = ap.parse_args()
    rows = [r for r in measured_rows(args.results) if int(r["d_lines"]) <= args.max_d]
    agree = total = 0
    print("first line: d = 1.. (S: shares a unit, time over d = 0 above 0.75), measured / gpusim")
    for first in sorted({int(r["first_line"]) for r in rows}):
        mine = sorted((r for r in rows if int(r["first_line"]) == first), key=lambda r: int(r["d_lines"]))
        ds = [int(r["d_lines"]) for r in mine]
        simulated = [k["cycles"] for k in kernels(args, workload(first, ds))]
        measured = [float(r["us"]) for r in mine]
        m = ["S" if t / measured[0] > 0.75 else "." for t in measured[1:]]
        s = ["S" if t / simulated[0] > 0.75 else "." for t in simulated[1:]]
        agree += sum(a == b for a, b in zip(m, s))
        total += len(m)
        print(f"{first}: {''.join(m)} / {''.join(s)}", flush=True)
    print(f"{agree} of {total} pairs classified alike")


if __name__ == "__main__":
    main()
