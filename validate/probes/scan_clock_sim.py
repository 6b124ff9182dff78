# Simulates validate/probes/scan_clock.py's stamped scans with gpusim and prints each stamp
# interval's median beside the H100's (validate/results/scan_clock_h100.csv).
# Usage: /usr/bin/python3 validate/probes/scan_clock_sim.py [--gpusim build/gpusim] [--set K=V]...
from concurrent.futures import ThreadPoolExecutor

import scan_parts_sim
from simulate import arguments, dumped, measured_rows
from stamps import STAMPS, summary


def workload(name, blocks):
    # The H100's input is in its L2 (warm-up launches): a first launch brings it there.
    return scan_parts_sim.workload(name, blocks, "scan_clock.cu", STAMPS, launches=2)


def main():
    ap = arguments("scan_clock_h100.csv")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    ap.add_argument("--blocks", default="1,132,1056,8192", help="grids to simulate")
    args = ap.parse_args()
    measured = {}
    for r in measured_rows(args.results):
        measured[(r["kernel"], int(r["blocks"]), r["interval"])] = float(r["median"])
    cases = [(k, b) for k in ("scan_block_stamped", "scan_block_padded_stamped")
             for b in map(int, args.blocks.split(","))]

    def simulate(case):
        name, blocks = case
        st = dumped(args, workload(name, blocks), ["stamps"])["stamps"].reshape(-1, STAMPS)
        return summary(st)

    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(simulate, cases))
    for (name, blocks), rows in zip(cases, sims):
        print(f"\n{name} x {blocks}: interval, H100 median, gpusim median (p10-p90)")
        for interval, med, p10, p90 in rows:
            m = measured.get((name, blocks, str(interval)))
            err = f"{100 * (med - m) / m:+6.1f}%" if m else ""
            print(f"  {str(interval):>12} {m or float('nan'):8.0f} {med:8.0f} ({p10:.0f}-{p90:.0f}) {err}")


if __name__ == "__main__":
    main()
