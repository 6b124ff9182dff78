#!/usr/bin/python3
"""The older architecture files against published microbenchmark latencies.

validate/published/latencies.csv lists what papers measured on each generation's GPU (FP32
dependent chain, pointer chases through shared memory, L1, L2 and DRAM, and bare chains of
shared loads, in SM cycles per step). This script runs the same kinds of chains in gpusim on each architecture file, one
workload per file built here (kernels of validate/kernels/*.cu), and reports the error of each
and its distribution. Each quantity is the difference of two launches of different length,
divided by the extra steps, so launch and warm-up costs cancel.

  /usr/bin/python3 validate/published_latencies.py [--gpusim build/gpusim] [--out FILE.csv]
                                                   [--max-mean PCT] [--max-worst PCT]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from compare import distribution

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "validate", "published", "latencies.csv")
SMALL_RING = 2048  # words: 64 lines of 128 B, one per step (stays in L1 and L2)
BIG_RING = 2048    # steps of 1 KB: every step a line never touched before (from DRAM)
SHORT, LONG = 1000, 2000

BENCH = os.path.join(ROOT, "validate", "kernels", "memory_bench.cu")
# quantity -> its launch at `steps` steps (a format of LENGTH), and the chain steps per LENGTH.
# Each runs at SHORT and LONG; the value is the difference over the extra steps.
QUANTITIES = {
    "fp32_chain": ("entry: fp32_chain, grid: 1, block: 32, args: [out, {half}, 1.0001, 0.5]", 4 // 2),
    "shared_chase": ("entry: shared_chase, grid: 1, block: 32, args: [out, {n}, 33]", 1),
    # shared loads with nothing between them (each word holds the next one's address)
    "shared_load": ("entry: shared_load_chain, grid: 1, block: 32, args: [out, {n}, 33]", 1),
    "l1_chase": ("entry: ca_chase, grid: 1, block: 1, args: [small, out, {n}]", 1),
    "l2_chase": ("source: %s, entry: pointer_chase, grid: 1, block: 1, args: [small, out, 0, 0, {n}, 1]" % BENCH, 1),
    # two rings, so the longer chase finds nothing the shorter one left in L2
    "dram_chase": ("source: %s, entry: pointer_chase, grid: 1, block: 1, args: [{big}, out, 0, 0, {n}, 1]" % BENCH, 1),
}


def ring(path, entries, step_words):
    """next[i * step] = ((i + 1) % entries) * step: a ring over `entries` slots `step_words` apart."""
    words = np.zeros(entries * step_words, dtype=np.uint32)
    words[np.arange(entries) * step_words] = ((np.arange(entries) + 1) % entries) * step_words
    words.tofile(path)


def workload(folder):
    """The chains as one workload: two lengths of each."""
    ring(os.path.join(folder, "small.bin"), SMALL_RING // 32, 32)
    for name in ("big_a", "big_b"):  # two, so the longer chase finds nothing the shorter left in L2
        ring(os.path.join(folder, name + ".bin"), BIG_RING, 256)
    micro = os.path.join(ROOT, "validate", "kernels", "micro.cu")
    steps = ["  - launch: {" + launch.format(n=n, half=n // 2, big=big) + "}"
             for launch, _ in QUANTITIES.values() for n, big in ((SHORT, "big_a"), (LONG, "big_b"))]
    text = "\n".join([
        "name: published_latencies",
        f"kernel: {{source: {micro}, entry: fp32_chain}}",
        "buffers:",
        "  - {name: out, type: u32, count: 32, init: zero}",
        f"  - {{name: small, type: u32, count: {SMALL_RING}, init: {{file: {os.path.join(folder, 'small.bin')}}}}}",
        f"  - {{name: big_a, type: u32, count: {BIG_RING * 256}, init: {{file: {os.path.join(folder, 'big_a.bin')}}}}}",
        f"  - {{name: big_b, type: u32, count: {BIG_RING * 256}, init: {{file: {os.path.join(folder, 'big_b.bin')}}}}}",
        "steps:",  # device memory starts zeroed: the rings are copied in (gpusim's copies leave the L2 cold)
        "  - copy: {to_device: small}",
        "  - copy: {to_device: big_a}",
        "  - copy: {to_device: big_b}"] + steps) + "\n"
    path = os.path.join(folder, "published_latencies.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


def simulate(gpusim, config, path):
    """Cycles per step of each quantity on one architecture file."""
    command = [gpusim, "--arch", os.path.join(ROOT, "configs", config + ".yaml"), "--workload", path, "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 3):
        raise RuntimeError(f"{config}: gpusim failed: {done.stderr.strip()}")
    cycles = [k["cycles"] for k in json.loads(done.stdout)["kernels"]]
    return {q: (cycles[2 * k + 1] - cycles[2 * k]) / ((LONG - SHORT) * per_length)
            for k, (q, (_, per_length)) in enumerate(QUANTITIES.items())}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build", "gpusim"))
    ap.add_argument("--out", help="write the comparison as CSV")
    ap.add_argument("--max-mean", type=float, help="fail if the mean absolute error passes this (percent)")
    ap.add_argument("--max-worst", type=float, help="fail if any error passes this (percent)")
    args = ap.parse_args()
    with open(TABLE) as f:
        published = list(csv.DictReader(line for line in f if not line.startswith("#")))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = workload(folder)
        simulated = {}
        for config in dict.fromkeys(r["config"] for r in published):
            simulated[config] = simulate(args.gpusim, config, path)
        for r in published:
            sim = simulated[r["config"]][r["quantity"]]
            pub = float(r["cycles"])
            rows.append((r["config"], r["quantity"], pub, sim, 100.0 * (sim - pub) / pub, r["flag"], r["source"]))
    errors = [abs(r[4]) for r in rows]

    print(f"{'architecture':<10} {'quantity':<14} {'published':>9} {'gpusim':>8} {'error':>8}  source")
    for config, quantity, pub, sim, err, flag, source in rows:
        print(f"{config:<10} {quantity:<14} {pub:9.1f} {sim:8.1f} {err:7.1f}%  [{flag}] {source}")

    def summary(label, part):  # validate/compare.py's distribution: mean, median, p90, worst
        if part:
            mean, median, p90, worst, _ = distribution([r[2] for r in part], [r[3] for r in part])
            print(f"{label:<22} {len(part):4d} {mean:7.1f}% {median:7.1f}% {p90:7.1f}% {worst:7.1f}%")

    print(f"\n{'absolute error':<22} {'n':>4} {'mean':>8} {'median':>8} {'p90':>8} {'worst':>8}")
    summary("all", rows)
    for config in dict.fromkeys(r[0] for r in rows):
        summary(config, [r for r in rows if r[0] == config])
    for quantity in QUANTITIES:
        summary(quantity, [r for r in rows if r[1] == quantity])
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["config", "quantity", "published", "gpusim", "error_pct", "flag", "source"])
            for r in rows:
                w.writerow([r[0], r[1], r[2], f"{r[3]:.2f}", f"{r[4]:.1f}", r[5], r[6]])
    failed = False
    mean = sum(errors) / len(errors)
    if args.max_mean is not None and mean > args.max_mean:
        print(f"mean absolute error {mean:.1f}% passes --max-mean {args.max_mean}", file=sys.stderr)
        failed = True
    if args.max_worst is not None and max(errors) > args.max_worst:
        print(f"worst error {max(errors):.1f}% passes --max-worst {args.max_worst}", file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
