# Simulates validate/probes/dram_loaded.py's configurations with gpusim and compares them with
# the committed H100 measurements (validate/results/dram_loaded_h100.csv).
# Usage: /usr/bin/python3 validate/probes/dram_loaded_sim.py [--gpusim build/gpusim] [--set SECTION.KEY=VALUE]...
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def workload(k, blocks, groups, stride):
    # The same launch twice: the first reads from DRAM, the second finds the lines in the L2.
    launch = f"  - launch: {{grid: {blocks}, block: 32, args: [a, out, {groups}, {stride}]}}\n"
    return (f"name: dram_loaded_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/micro.cu, entry: lines_in_flight_{k}}}\n"
            f"buffers:\n"
            f"  - {{name: a, type: f32, count: {blocks * groups * k * stride + 32}, init: zero}}\n"
            f"  - {{name: out, type: f32, count: {blocks * 32}, init: zero}}\n"
            f"steps:\n" + launch + launch)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build/gpusim"))
    ap.add_argument("--arch", default=os.path.join(ROOT, "configs/hopper.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "validate/results/dram_loaded_h100.csv"))
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    with open(args.results) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    measured = {(r["probe"], r["k"], r["warps_per_sm"], r["sms"], r["line_spacing_bytes"], r["source"]): float(r["cycles"])
                for r in rows}
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.yaml")
        for r in rows:
            if r["source"] != "dram":
                continue
            k, w, sms = int(r["k"]), int(r["warps_per_sm"]), int(r["sms"])
            with open(path, "w") as f:
                f.write(workload(k, sms * w, int(r["groups"]), int(r["line_spacing_bytes"]) // 4))
            cmd = [args.gpusim, "--arch", args.arch, "--workload", path, "--format", "json"]
            for s in args.set:
                cmd += ["--set", s]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode:
                sys.exit(run.stderr)
            simulated = [kernel["cycles"] for kernel in json.loads(run.stdout)["kernels"]]
            key = (r["probe"], r["k"], r["warps_per_sm"], r["sms"], r["line_spacing_bytes"])
            line = f"{r['probe']:6} K={k:2} warps/SM={w:2} SMs={sms:3} lines {int(r['line_spacing_bytes']):5} B apart"
            for source, cycles in zip(("dram", "l2"), simulated):
                error = cycles / measured[key + (source,)] - 1
                errors.append(abs(error))
                line += f"   {source:4} {measured[key + (source,)]:8.0f} {cycles:8.0f} {100 * error:+6.1f}%"
            print(line, flush=True)
    print(f"{len(errors)} runs: mean absolute error {100 * sum(errors) / len(errors):.1f}%")


main()
