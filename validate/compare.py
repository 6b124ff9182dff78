#!/usr/bin/python3
"""Compare gpusim with the hardware: simulated against measured cycles per launch.

Runs `gpusim --arch ARCH --workload W --format json` for every workload in the results CSV
(validate/run_gpu.py's output) at the parameters recorded there, joins by workload and
launch, prints measured cycles, simulated cycles and the error, then the mean absolute
percentage error and the Pearson correlation, and draws a log-log scatter plot. It also
compares each GPU output's digest with gpusim's and fails when they disagree. Uses /usr/bin/python3 with Debian's
matplotlib.

Usage: validate/compare.py [--arch configs/hopper.yaml] [--results validate/results/h100.csv]
                           [--gpusim build/gpusim] [--plot validate/results/h100_vs_gpusim.png]
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration.model import workload_path  # noqa: E402


def mape(measured, simulated):
    """Mean absolute percentage error of simulated against measured."""
    return 100 * sum(abs(s - m) / m for m, s in zip(measured, simulated)) / len(measured)


def distribution(measured, simulated):
    """Mean, median, 90th percentile and worst absolute percentage error, and the worst's index."""
    errors = [abs(s - m) / m * 100 for m, s in zip(measured, simulated)]
    ranked = sorted(errors)
    p90 = ranked[min(len(ranked) - 1, math.ceil(0.9 * len(ranked)) - 1)]
    return sum(errors) / len(errors), ranked[len(ranked) // 2] if len(ranked) % 2 else \
        (ranked[len(ranked) // 2 - 1] + ranked[len(ranked) // 2]) / 2, p90, ranked[-1], errors.index(ranked[-1])


def pearson(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


# Textbook effects (issue 6): each pair's slow case over its fast case, measured and
# simulated; the model should agree in direction and within 25% in ratio.
TEXTBOOK = [
    ("coalescing: strided vs unit-stride read", ("read_strided", 1), ("read_unit_stride", 1)),
    ("coalescing: naive vs padded transpose", ("transpose_naive", 1), ("transpose_padded", 1)),
    ("bank conflicts: tiled vs padded transpose", ("transpose_tiled", 1), ("transpose_padded", 1)),
    ("bank conflicts: scan vs padded scan", ("scan", 1), ("scan_padded", 1)),
    ("divergence: branch by thread vs by warp", ("branch_by_thread", 1), ("branch_by_warp", 1)),
    ("divergence: divergent vs sequential reduction", ("reduce_divergent", 1), ("reduce_sequential", 1)),
    ("latency hiding: 2 vs 64 warps per SM", ("latency_hiding", 1), ("latency_hiding", 6)),
    ("occupancy: 16 vs 64 warps per SM", ("latency_hiding", 4), ("latency_hiding", 6)),
    ("block count: 4 vs 8 warps per SM", ("latency_hiding", 2), ("latency_hiding", 3)),
]


TEXTBOOK_LIMIT = 0.20  # issue 13: every effect in the right direction and within 20%


def textbook(rows):
    """Prints each textbook pair's ratios; returns how many miss (direction or TEXTBOOK_LIMIT)."""
    cycles = {(name, launch): (hw, sim) for name, launch, hw, sim in rows}
    misses = 0
    print(f"\n{'textbook effect':48s} {'measured':>9s} {'simulated':>9s} {'off':>6s}")
    for label, slow, fast in TEXTBOOK:
        if slow not in cycles or fast not in cycles:
            continue
        hw = cycles[slow][0] / cycles[fast][0]
        sim = cycles[slow][1] / cycles[fast][1]
        off = abs(sim / hw - 1)
        ok = (hw > 1) == (sim > 1) and off <= TEXTBOOK_LIMIT
        misses += not ok
        verdict = "" if ok else ("  WRONG DIRECTION" if (hw > 1) != (sim > 1) else "  MISSED")
        print(f"{label:48s} {hw:9.2f} {sim:9.2f} {100 * off:5.0f}%{verdict}")
    return misses


def read_split(path):
    """(workload, launch) -> (category, part) from the corpus's split file."""
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return {(r["workload"], int(r["launch"])): (r["category"], r["part"]) for r in csv.DictReader(lines)}


def print_distribution(label, part):
    """One line: launches, mean, median, p90 and worst absolute error, Pearson, the worst launch."""
    mean, median, p90, worst, at = distribution([r[2] for r in part], [r[3] for r in part])
    r = pearson([r[2] for r in part], [r[3] for r in part]) if len(part) > 2 else float("nan")
    print(f"{label:32s} {len(part):8d} {mean:6.1f}% {median:6.1f}% {p90:6.1f}% {worst:6.1f}% {r:7.3f}  "
          f"(worst: {part[at][0]} launch {part[at][1]})")
    return mean, worst


def corpus_report(rows, split):
    """The corpus's error distribution: fit part, test part, and per category (both parts).
    Returns the test part's mean and worst absolute error."""
    missing = [key for key in split if key not in {(r[0], r[1]) for r in rows}]
    if missing:
        print(f"note: {len(missing)} corpus launch(es) not compared: {missing[:5]}")
    labelled = [r for r in rows if (r[0], r[1]) in split]
    print(f"\n{'corpus error distribution':32s} {'launches':>8s} {'mean':>7s} {'median':>7s} {'p90':>7s} "
          f"{'worst':>7s} {'Pearson':>7s}")
    result = None
    for part in ("fit", "test"):
        chosen = [r for r in labelled if split[(r[0], r[1])][1] == part]
        if chosen:
            stats = print_distribution(f"{part} part", chosen)
            result = stats if part == "test" else result
    print_distribution("whole corpus", labelled)
    for category in sorted({c for c, _ in split.values()}):
        chosen = [r for r in labelled if split[(r[0], r[1])][0] == category]
        if chosen:
            print_distribution(f"  {category}", chosen)
    within = sum(1 for r in labelled if 0.5 <= r[3] / r[2] <= 2)
    print(f"{within} of {len(labelled)} corpus launches within 2x; "
          f"{sum(1 for r in labelled if abs(r[3] / r[2] - 1) > 0.25)} off by more than 25%")
    return result


def simulate(args, name, params):
    """gpusim's JSON report for one workload at the given NAME=VALUE parameters, or None."""
    command = [args.gpusim, "--arch", args.arch, "--workload", workload_path(name), "--format", "json"]
    for p in params:
        command += ["--set", p]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode not in (0, 3):
        print(f"{name}: gpusim failed: {out.stderr.strip()}", file=sys.stderr)
        return None
    return json.loads(out.stdout)


def compare_output(measured_row, check):
    """The GPU's output digest against gpusim's (which gpusim checked against the reference):
    'identical' when the CRCs agree, 'within tolerance' when they differ but every sampled
    element is within the workload's tolerance, else what differs."""
    if not check["passed"]:
        return f"gpusim's own check failed: {check['detail']}"
    ours = check["output"]
    if measured_row["output_crc32"] == ours["crc32"]:
        return "identical"
    theirs = [float(v) for v in measured_row["output_samples"].split(";")]
    tolerance = check["tolerance"]
    for i, got, want in zip(ours["sample_indices"], theirs, ours["samples"]):
        if abs(got - want) > tolerance * max(1.0, abs(want)):
            return f"DIFFERS: element {i} is {got} on the GPU, {want} in gpusim"
    if len(theirs) != len(ours["samples"]):
        return "DIFFERS: a different number of elements"
    return "within tolerance" if tolerance > 0 else "DIFFERS: bytes differ (CRC), samples agree"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default=os.path.join(ROOT, "configs/hopper.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "validate/results/h100.csv"))
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build/gpusim"))
    ap.add_argument("--plot", default=None)
    ap.add_argument("--split", help="the corpus's split file (validate/corpus/split.csv): report fit and test parts")
    ap.add_argument("--max-test-mean", type=float, help="exit 1 when the corpus test part's mean error exceeds this")
    ap.add_argument("--max-test-worst", type=float, help="exit 1 when the corpus test part's worst error exceeds this")
    ap.add_argument("--textbook", action="store_true",
                    help="exit 1 when a textbook effect is in the wrong direction or more than 20%% off")
    ap.add_argument("--max-app-mape", type=float, default=None,
                    help="exit 1 when the application kernels' mean absolute error (percent) exceeds this")
    args = ap.parse_args()

    with open(args.results, newline="") as f:
        measured = list(csv.DictReader(f))
    # One gpusim run per workload, at the parameters the hardware ran (older results: defaults).
    runs = {}
    for r in measured:
        runs.setdefault(r["workload"], r.get("params", "").split())
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(os.sched_getaffinity(0))) as pool:
        reports = dict(zip(runs, pool.map(lambda item: simulate(args, *item), runs.items())))
    rows, outputs = [], {}
    for r in measured:
        report = reports[r["workload"]]
        if report is None:
            continue
        k = report["kernels"][int(r["launch"]) - 1]
        rows.append((r["workload"], int(r["launch"]), int(r["cycles"]), int(k["cycles"])))
        if r.get("output_crc32") and "check" in report:
            outputs[r["workload"]] = compare_output(r, report["check"])

    if not rows:
        print("FAIL: no launch could be compared (see the errors above)")
        return 1
    print(f"{'workload':24s} {'launch':>6s} {'measured':>10s} {'simulated':>10s} {'error':>8s}")
    for name, launch, hw, sim in rows:
        print(f"{name:24s} {launch:6d} {hw:10d} {sim:10d} {100 * (sim - hw) / hw:7.1f}%")
    hw_c = [hw for _, _, hw, _ in rows]
    sim_c = [sim for _, _, _, sim in rows]
    print(f"\n{len(rows)} launches: mean absolute error {mape(hw_c, sim_c):.1f}%, "
          f"Pearson correlation {pearson(hw_c, sim_c):.3f} "
          f"(of log cycles {pearson([math.log(v) for v in hw_c], [math.log(v) for v in sim_c]):.3f})")
    # Application kernels measure accuracy; the microbenchmarks (micro_*) are what was fitted.
    app = [(hw, sim) for name, _, hw, sim in rows if not name.startswith("micro_")]
    app_hw, app_sim = [h for h, _ in app], [s for _, s in app]
    app_mape = mape(app_hw, app_sim)
    print(f"application kernels ({len(app)} launches): mean absolute error {app_mape:.1f}%, "
          f"Pearson correlation {pearson(app_hw, app_sim):.3f}")

    print(f"\n{'error distribution (absolute)':32s} {'launches':>8s} {'mean':>7s} {'median':>7s} {'p90':>7s} {'worst':>7s}")
    categories = [("all", rows), ("application kernels", [r for r in rows if not r[0].startswith("micro_")]),
                  ("microbenchmarks (fitted)", [r for r in rows if r[0].startswith("micro_")])]
    for label, part in categories:
        if not part:
            continue
        mean, median, p90, worst, at = distribution([r[2] for r in part], [r[3] for r in part])
        print(f"{label:32s} {len(part):8d} {mean:6.1f}% {median:6.1f}% {p90:6.1f}% {worst:6.1f}%  "
              f"(worst: {part[at][0]} launch {part[at][1]})")

    misses = textbook(rows)
    print(f"{misses} textbook effect(s) missed")
    test = corpus_report(rows, read_split(args.split)) if args.split else None

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

    if outputs:
        print("\noutputs, GPU against gpusim (gpusim's checked against each workload's reference):")
        for name, verdict in sorted(outputs.items()):
            print(f"  {name:24s} {verdict}")
    bad = [name for name, verdict in outputs.items() if verdict not in ("identical", "within tolerance")]
    if bad:
        print(f"FAIL: the GPU's output disagrees with gpusim's for {', '.join(sorted(bad))}")
        return 1
    if test and args.max_test_mean is not None and test[0] > args.max_test_mean:
        print(f"FAIL: the corpus test part's mean error {test[0]:.1f}% exceeds {args.max_test_mean:.1f}%")
        return 1
    if test and args.max_test_worst is not None and test[1] > args.max_test_worst:
        print(f"FAIL: the corpus test part's worst error {test[1]:.1f}% exceeds {args.max_test_worst:.1f}%")
        return 1
    if args.textbook and misses:
        print(f"FAIL: {misses} textbook effect(s) in the wrong direction or more than {100 * TEXTBOOK_LIMIT:.0f}% off")
        return 1
    if args.max_app_mape is not None and app_mape > args.max_app_mape:
        print(f"FAIL: application-kernel error {app_mape:.1f}% exceeds the baseline {args.max_app_mape:.1f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
