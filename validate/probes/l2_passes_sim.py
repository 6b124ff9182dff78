# Simulates validate/probes/l2_passes.py with gpusim and compares with the committed H100 data
# (validate/results/l2_passes_h100.csv): one footprint read four times, one launch per pass, in
# three orders, after a 256 MB read filled the L2 with other lines. What shows the L2's
# replacement is each later pass's time over the first (pass 1 comes from DRAM).
# Usage: /usr/bin/python3 validate/probes/l2_passes_sim.py [--gpusim build/gpusim] [--order sweep]
#        [--max-mb 48] [--set SECTION.KEY=VALUE]...
from simulate import ROOT, arguments, flush_buffers, flush_launch, kernels, measured_rows

SMS = 132
PASSES = 4


def workload(order, mb):
    floats = mb << 18
    if order == "sweep":
        threads = SMS * 8 * 256
        n = floats // (4 * threads) * 4 * threads
        launch = (f"  - launch: {{source: {ROOT}/validate/kernels/micro.cu, entry: l2_read_passes, "
                  f"grid: {SMS * 8}, block: 256, args: [data, out, {n}, 1]}}\n")
    else:
        blocks = SMS * 4 if order == "streams" else 1
        groups = (floats // 32) // (blocks * 16)
        launch = (f"  - launch: {{source: {ROOT}/validate/kernels/micro.cu, entry: lines_in_flight_16, "
                  f"grid: {blocks}, block: 32, args: [data, out, {groups}, 32]}}\n")
    return (f"name: l2_passes_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/memory_bench.cu, entry: stream_read}}\n"
            f"buffers:\n" + flush_buffers(sms=SMS) +
            f"  - {{name: data, type: f32, count: {floats + 64}, init: zero}}\n"
            f"  - {{name: out, type: f32, count: {SMS * 8 * 256}, init: zero}}\n"
            f"steps:\n" + flush_launch(SMS) + launch * PASSES)


def main():
    ap = arguments("l2_passes_h100.csv")
    ap.add_argument("--max-mb", type=int, default=48, help="largest footprint simulated")
    ap.add_argument("--order", action="append", help="sweep, streams or one_warp (default: all)")
    args = ap.parse_args()
    errors = {}
    print(f"{'order':9} {'MB':>3}   measured pass k / pass 1      gpusim")
    for r in measured_rows(args.results):
        order, mb = r["order"], int(r["footprint_mb"])
        if mb > args.max_mb or (args.order and order not in args.order):
            continue
        passes = kernels(args, workload(order, mb))[1:]
        measured = [float(r[f"pass{p + 1}_us"]) for p in range(PASSES)]
        m = [t / measured[0] for t in measured[1:]]
        s = [k["cycles"] / passes[0]["cycles"] for k in passes[1:]]
        errors.setdefault(order, []).extend(abs(a - b) for a, b in zip(m, s))
        fmt = lambda xs: " ".join(f"{x:5.2f}" for x in xs)
        print(f"{order:9} {mb:>3}   {fmt(m)}   {fmt(s)}", flush=True)
    for order, e in errors.items():
        print(f"{order}: mean absolute difference of the ratios {sum(e) / len(e):.3f} over {len(e)}")
    every = [x for e in errors.values() for x in e]
    print(f"all: {sum(every) / len(every):.3f}")


if __name__ == "__main__":
    main()
