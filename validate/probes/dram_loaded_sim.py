# Simulates validate/probes/dram_loaded.py's configurations with gpusim and compares them with
# the committed H100 measurements (validate/results/dram_loaded_h100.csv).
# Usage: /usr/bin/python3 validate/probes/dram_loaded_sim.py [--gpusim build/gpusim] [--set SECTION.KEY=VALUE]... [--probe NAME]...
from simulate import ROOT, arguments, kernels, measured_rows


def workload(r):
    """The probe's launch of row r as a gpusim workload, and how many launches it has."""
    k, blocks = int(r["k"]), int(r["sms"]) * int(r["warps_per_sm"])
    groups, stride = int(r["groups"]), int(r["line_spacing_bytes"]) // 4
    n = 64 << 20
    if r["probe"] in ("fill_bw", "copy_bw"):
        entry = "fill_f32" if r["probe"] == "fill_bw" else "copy_f32"
        args = "[a, n, 1.0]" if r["probe"] == "fill_bw" else "[a, {buffer: a, offset: n / 2}, n / 2]"
        return (f"name: dram_loaded_probe\nparams: {{n: {n}}}\n"
                f"kernel: {{source: {ROOT}/validate/kernels/memory_bench.cu, entry: {entry}}}\n"
                f"buffers:\n  - {{name: a, type: f32, count: n, init: zero}}\n"
                f"steps:\n  - launch: {{grid: {int(r['sms']) * 8}, block: 256, args: {args}}}\n"), 1
    if r["probe"] == "read_bw":
        k, blocks, groups, stride = 16, int(r["sms"]) * 8, int(r["groups"]) // (int(r["sms"]) * 8 * 16), 32
    if r["probe"] == "sectors":
        entry, extra = "sectors_in_flight", f", {r['lanes']}"
    else:
        entry, extra = f"lines_in_flight_{k}", ""
    # The same launch twice: the first reads from DRAM, the second finds the lines in the L2.
    launch = f"  - launch: {{grid: {blocks}, block: 32, args: [a, out, {groups}, {stride}{extra}]}}\n"
    launches = 1 if r["probe"] == "read_bw" else 2
    return (f"name: dram_loaded_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/micro.cu, entry: {entry}}}\n"
            f"buffers:\n"
            f"  - {{name: a, type: f32, count: {blocks * groups * k * stride + 32}, init: zero}}\n"
            f"  - {{name: out, type: f32, count: {blocks * 32}, init: zero}}\n"
            f"steps:\n" + launch * launches), launches


def main():
    ap = arguments("dram_loaded_h100.csv")
    ap.add_argument("--probe", action="append", help="only these probes (load, stride, sectors, read_bw, ...)")
    args = ap.parse_args()
    rows = measured_rows(args.results)
    def key(r):
        return (r["probe"], r["k"], r["warps_per_sm"], r["sms"], r["line_spacing_bytes"], r["lanes"])
    measured = {key(r) + (r["source"],): float(r["cycles"]) for r in rows}
    errors = []
    for r in rows:
        if r["source"] != "dram" or (args.probe and r["probe"] not in args.probe):
            continue
        text, launches = workload(r)
        simulated = [kernel["cycles"] for kernel in kernels(args, text)]
        line = (f"{r['probe']:7} K={r['k']:>2} warps/SM={r['warps_per_sm']:>2} SMs={r['sms']:>3} "
                f"lines {r['line_spacing_bytes']:>5} B apart, {r['lanes']:>2} lanes")
        for source, cycles in zip(("dram", "l2")[:launches], simulated):
            error = cycles / measured[key(r) + (source,)] - 1
            errors.append(abs(error))
            line += f"   {source:4} {measured[key(r) + (source,)]:8.0f} {cycles:8.0f} {100 * error:+6.1f}%"
        print(line, flush=True)
    print(f"{len(errors)} runs: mean absolute error {100 * sum(errors) / len(errors):.1f}%")


main()
