# Simulates validate/probes/store_path.py with gpusim and compares with the committed H100 data
# (validate/results/store_path_h100.csv): store requests of whole or partial sectors, 1 to 32
# lines each, from 1, 16 or 132 SMs, into lines the L2 holds (warm) or after a 256 MB read
# (cold). Usage: /usr/bin/python3 validate/probes/store_path_sim.py [--gpusim build/gpusim]
#                [--case NAME]... [--blocks N]... [--set SECTION.KEY=VALUE]...
from simulate import ROOT, arguments, flush_buffers, flush_launch, kernels, measured_rows

LINES = 65536
REPS = 64


def workload(r):
    launch = (f"  - launch: {{grid: {r['blocks']}, block: 1024, args: [y, {r['lanes_per_sector_log2']}, "
              f"{r['sectors_per_line_log2']}, {REPS}, {LINES - 1}, {r['combine_log2']}]}}\n")
    cold = r["l2"] == "cold"
    return (f"name: store_path_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/micro.cu, entry: store_pattern}}\n"
            f"buffers:\n"
            f"  - {{name: y, type: f32, count: {LINES * 32}, init: zero}}\n" + (flush_buffers() if cold else "") +
            f"steps:\n" + launch + (flush_launch() if cold else "") + launch)


def main():
    ap = arguments("store_path_h100.csv")
    ap.add_argument("--case", action="append", help="cases to simulate (default: all)")
    ap.add_argument("--blocks", type=int, action="append", help="SM counts to simulate (default: all)")
    ap.add_argument("--clock-mhz", type=float, default=1980)
    args = ap.parse_args()
    errors = []
    print(f"{'case':22} {'SMs':>4} {'L2':5} {'measured':>9} {'gpusim':>9} {'error':>7}   (cycles)")
    for r in measured_rows(args.results):
        if (args.case and r["case"] not in args.case) or (args.blocks and int(r["blocks"]) not in args.blocks):
            continue
        measured = float(r["us"]) * args.clock_mhz
        simulated = kernels(args, workload(r))[-1]["cycles"]
        errors.append(abs(simulated - measured) / measured)
        print(f"{r['case']:22} {r['blocks']:>4} {r['l2']:5} {measured:9.0f} {simulated:9d} {100 * (simulated - measured) / measured:+6.1f}%",
              flush=True)
    print(f"{len(errors)} launches: mean absolute error {100 * sum(errors) / len(errors):.1f}%")


if __name__ == "__main__":
    main()
