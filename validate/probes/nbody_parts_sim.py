# Simulates validate/probes/nbody_parts.py with gpusim and compares with the committed H100 data
# (validate/results/nbody_parts_h100.csv). Usage: /usr/bin/python3 validate/probes/nbody_parts_sim.py
#   [--gpusim build/gpusim] [--arch configs/hopper.yaml] [--kernel NAME]... [--set SECTION.KEY=VALUE]...
from simulate import ROOT, arguments, kernels, measured_rows

N = 8192
LINES, STRIDE = 4096, 32
SOURCES = {"nbody_direct": "validate/corpus/misc.cu"}  # the others: validate/kernels/nbody_parts.cu


def workload(r):
    if r["kernel"].startswith("load_then_work"):
        return (f"name: load_then_work_probe\n"
                f"kernel: {{source: {ROOT}/validate/kernels/nbody_parts.cu, entry: {r['kernel']}}}\n"
                f"buffers:\n"
                f"  - {{name: a, type: f32, count: {LINES * STRIDE}, init: zero}}\n"
                f"  - {{name: out, type: f32, count: 32, init: zero}}\n"
                f"steps:\n  - copy: {{to_device: a}}\n" +
                2 * f"  - launch: {{grid: 1, block: 32, args: [a, out, {LINES}, {STRIDE}]}}\n")
    args = "[out, n]" if r["kernel"] == "nbody_arith" or r["kernel"].startswith("sfu_") else "[pos, out, n]"
    launch = f"  - launch: {{grid: {r['blocks']}, block: {r['threads']}, args: {args}}}\n"
    return (f"name: nbody_parts_probe\n"
            f"params: {{n: {N}}}\n"
            f"kernel: {{source: {ROOT}/{SOURCES.get(r['kernel'], 'validate/kernels/nbody_parts.cu')}, entry: {r['kernel']}}}\n"
            f"buffers:\n"
            f"  - {{name: pos, type: f32, count: 4 * n, init: {{random: {{seed: 45}}}}}}\n"
            f"  - {{name: out, type: f32, count: 4 * 32 * 1024, init: zero}}\n"
            f"steps:\n  - copy: {{to_device: pos}}\n" + launch + launch)


def main():
    ap = arguments("nbody_parts_h100.csv")
    ap.add_argument("--kernel", action="append", help="kernels to simulate (default: all)")
    ap.add_argument("--clock-mhz", type=float, default=1980)
    args = ap.parse_args()
    errors = []
    print(f"{'kernel':15} {'blocks':>6} {'threads':>7} {'measured':>9} {'gpusim':>9} {'error':>7}   (cycles)")
    for r in measured_rows(args.results):
        if args.kernel and r["kernel"] not in args.kernel:
            continue
        measured = float(r["us"]) * args.clock_mhz
        simulated = kernels(args, workload(r))[-1]["cycles"]
        errors.append(abs(simulated - measured) / measured)
        print(f"{r['kernel']:15} {r['blocks']:>6} {r['threads']:>7} {measured:9.0f} {simulated:9d} "
              f"{100 * (simulated - measured) / measured:+6.1f}%", flush=True)
    print(f"{len(errors)} launches: mean absolute error {100 * sum(errors) / len(errors):.1f}%")


if __name__ == "__main__":
    main()
