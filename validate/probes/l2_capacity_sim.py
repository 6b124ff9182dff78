# Simulates validate/probes/l2_capacity.py's reads with gpusim and compares the second read's
# time over the first with the committed H100 measurements (validate/results/l2_capacity_h100.csv):
# the share of a footprint the L2 keeps, for one warp and for every SM on its own data.
# Usage: /usr/bin/python3 validate/probes/l2_capacity_sim.py [--gpusim build/gpusim] [--set SECTION.KEY=VALUE]...
from simulate import ROOT, arguments, kernels, measured_rows


def workload(blocks, groups):
    """The probe's two reads of one footprint (an L2 emptied before them, as the probe's flush)."""
    launch = f"  - launch: {{grid: {blocks}, block: 32, args: [a, out, {groups}, 32]}}\n"
    return (f"name: l2_capacity_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/micro.cu, entry: lines_in_flight_16}}\n"
            f"buffers:\n"
            f"  - {{name: a, type: f32, count: {blocks * groups * 16 * 32 + 32}, init: zero}}\n"
            f"  - {{name: out, type: f32, count: {blocks * 32}, init: zero}}\n"
            f"steps:\n" + launch * 2)


def main():
    ap = arguments("l2_capacity_h100.csv")
    ap.add_argument("--max-mb", type=int, default=64, help="largest footprint simulated")
    args = ap.parse_args()
    errors = []
    print(f"{'readers':8} {'MB':>3}   measured second/first   gpusim   (far hits of the second read)")
    for r in measured_rows(args.results):
        if int(r["footprint_mb"]) > args.max_mb:
            continue
        first, second = kernels(args, workload(int(r["blocks"]), int(r["groups"])))
        ratio = second["cycles"] / first["cycles"]
        measured = float(r["second_over_first"])
        errors.append(abs(ratio - measured))
        far = second["memory"].get("l2_far_hit_sectors", 0) / max(1, second["memory"]["l2_hit_sectors"])
        print(f"{r['readers']:8} {r['footprint_mb']:>3}   {measured:22.3f}   {ratio:6.3f}   ({100 * far:.0f}%)", flush=True)
    print(f"{len(errors)} footprints: mean absolute difference of the ratio {sum(errors) / len(errors):.3f}")


if __name__ == "__main__":
    main()
