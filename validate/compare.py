#!/usr/bin/python3
"""Compare gpusim with the hardware: simulated against measured cycles per launch.

Runs `gpusim --arch ARCH --workload W --format json` for every workload in the results CSV
(validate/run_gpu.py's output), joins by workload and launch, prints measured cycles,
simulated cycles and the error, then the mean absolute percentage error and the Pearson
correlation, and draws a log-log scatter plot. Uses /usr/bin/python3 with Debian's
matplotlib.

Usage: validate/compare.py [--arch configs/hopper.yaml] [--results validate/results/h100.csv]
                           [--gpusim build/gpusim] [--plot validate/results/h100_vs_gpusim.png]
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default=os.path.join(ROOT, "configs/hopper.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "validate/results/h100.csv"))
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build/gpusim"))
    ap.add_argument("--plot", default=None)
    ap.add_argument("--max-app-mape", type=float, default=None,
                    help="exit 1 when the application kernels' mean absolute error (percent) exceeds this")
    args = ap.parse_args()

    with open(args.results, newline="") as f:
        measured = list(csv.DictReader(f))
    rows = []
    for name in sorted({r["workload"] for r in measured}):
        path = os.path.join(ROOT, "workloads", name + ".yaml")
        if not os.path.exists(path):
            path = os.path.join(ROOT, "workloads", "micro", name + ".yaml")
        out = subprocess.run([args.gpusim, "--arch", args.arch, "--workload", path, "--format", "json"],
                             capture_output=True, text=True)
        if out.returncode not in (0, 3):
            print(f"{name}: gpusim failed: {out.stderr.strip()}", file=sys.stderr)
            continue
        kernels = json.loads(out.stdout)["kernels"]
        for r in measured:
            if r["workload"] != name:
                continue
            k = kernels[int(r["launch"]) - 1]
            rows.append((name, int(r["launch"]), int(r["cycles"]), int(k["cycles"])))

    print(f"{'workload':24s} {'launch':>6s} {'measured':>10s} {'simulated':>10s} {'error':>8s}")
    errors = []
    for name, launch, hw, sim in rows:
        err = (sim - hw) / hw
        errors.append(abs(err))
        print(f"{name:24s} {launch:6d} {hw:10d} {sim:10d} {100 * err:7.1f}%")
    xs = [math.log(hw) for _, _, hw, _ in rows]
    ys = [math.log(sim) for _, _, _, sim in rows]
    n = len(rows)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    hw_c = [hw for _, _, hw, _ in rows]
    sim_c = [sim for _, _, _, sim in rows]
    mh, ms = sum(hw_c) / n, sum(sim_c) / n
    pearson = sum((a - mh) * (b - ms) for a, b in zip(hw_c, sim_c)) / math.sqrt(
        sum((a - mh) ** 2 for a in hw_c) * sum((b - ms) ** 2 for b in sim_c))
    print(f"\n{n} launches: mean absolute error {100 * sum(errors) / n:.1f}%, Pearson correlation {pearson:.3f} "
          f"(of log cycles {sxy / math.sqrt(sxx * syy):.3f})")
    # Application kernels measure accuracy; the microbenchmarks (micro_*) are what was fitted.
    app = [(hw, sim) for name, _, hw, sim in rows if not name.startswith("micro_")]
    app_mape = 100 * sum(abs(s - h) / h for h, s in app) / len(app)
    ah, asim = [h for h, _ in app], [s for _, s in app]
    mh2, ms2 = sum(ah) / len(app), sum(asim) / len(app)
    app_r = sum((a - mh2) * (b - ms2) for a, b in zip(ah, asim)) / math.sqrt(
        sum((a - mh2) ** 2 for a in ah) * sum((b - ms2) ** 2 for b in asim))
    print(f"application kernels ({len(app)} launches): mean absolute error {app_mape:.1f}%, "
          f"Pearson correlation {app_r:.3f}")

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 6))
        ax.loglog(hw_c, sim_c, "o")
        for (name, launch, hw, sim) in rows:
            ax.annotate(name if launch == 1 else f"{name}#{launch}", (hw, sim), fontsize=6)
        lo, hi = min(hw_c + sim_c) / 1.5, max(hw_c + sim_c) * 1.5
        ax.plot([lo, hi], [lo, hi], "k--", linewidth=0.8)
        ax.set_xlabel("measured cycles")
        ax.set_ylabel("simulated cycles")
        ax.set_title(f"gpusim vs hardware ({os.path.basename(args.arch)})")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"plot written to {args.plot}")

    if args.max_app_mape is not None and app_mape > args.max_app_mape:
        print(f"FAIL: application-kernel error {app_mape:.1f}% exceeds the baseline {args.max_app_mape:.1f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
